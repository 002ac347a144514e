import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { systemClock } from '../clock.js';
import { adminSocketPath, NoServerError, requestDump } from '../backup/admin-socket.js';
import { BackupError, secretFile, writeBackup } from '../backup/archive.js';
import { DataDirInUseError, openDatabase } from '../db/client.js';
import { databaseName, fail, loadCliConfig, readArgs, runAsScript, type CliIo } from './command.js';

/**
 * npm run backup -- --out DIR
 * Copies the embedded database into a new folder. PGlite allows one process on its folder: while the
 * server runs, the copy is taken by the server and handed over its admin socket (backup/admin-socket.ts);
 * with no server on the folder, the command opens it itself. Either way the copy is consistent.
 */
const USAGE = `usage: npm run backup -- --out DIR
  --out DIR   a new (or empty) folder for the backup: pgdata.tar.gz, app-secret (when DATA_DIR has one), manifest.json
  Database: DATA_DIR (embedded PGlite), with the server running (the copy is taken through it) or stopped.
  PostgreSQL (DATABASE_URL): use pg_dump (docs/operations.md).`;

async function takeDump(io: CliIo, dataDir: string): Promise<{ tar: Buffer; taken: 'server' | 'offline' }> {
  try {
    return { tar: await requestDump(dataDir), taken: 'server' };
  } catch (error) {
    if (!(error instanceof NoServerError)) fail(`backup failed: ${(error as Error).message}`);
  }
  let database;
  try {
    database = await openDatabase({ dataDir });
  } catch (error) {
    // A server holds the folder but did not answer on its socket (a version without one, or a path too long for it).
    if (error instanceof DataDirInUseError) fail(`${error.message}, or let it answer on ${adminSocketPath(dataDir)}`);
    throw error;
  }
  io.err('no server runs on this DATA_DIR: copying the database folder directly');
  try {
    const dump = await database.dump!();
    return { tar: Buffer.from(await dump.arrayBuffer()), taken: 'offline' };
  } finally {
    await database.close();
  }
}

export async function backupMain(io: CliIo): Promise<number> {
  const args = readArgs(io, USAGE, { out: { type: 'string' } });
  const out = args.values.out;
  if (!out || args.positionals.length > 0) fail(USAGE, 2);
  if (out.includes('\0')) fail(`--out must be a folder's path\n${USAGE}`, 2);
  const config = loadCliConfig(io, { exitCode: 2 });
  if (config.databaseUrl) fail(`${databaseName(config)}: back up a PostgreSQL database with pg_dump (docs/operations.md)`, 2);
  io.err(`database: ${databaseName(config)}`);
  const { tar, taken } = await takeDump(io, config.dataDir);
  const secret = existsSync(secretFile(config.dataDir)) ? readFileSync(secretFile(config.dataDir), 'utf8') : undefined;
  const target = path.resolve(out);
  try {
    await writeBackup(target, { tar, secret, taken, now: systemClock.now() });
  } catch (error) {
    if (error instanceof BackupError) fail(error.message);
    throw error;
  }
  const how = taken === 'server' ? 'through the running server' : 'with no server running';
  const note = secret === undefined ? '; no app secret in it (the server uses APP_SECRET: keep that with the backup)' : '';
  io.out(`OK backup in ${target}: ${tar.length} bytes of database, taken ${how}${note}`);
  return 0;
}

await runAsScript(import.meta.url, backupMain);
