import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { BackupError, readBackup, restoreSecret, secretFile } from '../backup/archive.js';
import { ConfigError, loadConfig, loadProcessConfig } from '../config.js';
import { DataDirInUseError, DataDirNotEmptyError, openDatabase, type Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { verifyAuditChain } from '../modules/audit/verify.js';
import { deriveKey, ensureAppSecret } from '../secret.js';
import { databaseName, fail, readArgs, runAsScript, type CliIo } from './command.js';

/**
 * npm run restore -- --from DIR
 * Makes the embedded database of a new DATA_DIR from a backup of `npm run backup`, then checks what a
 * restore must keep: every wallet's balance equals the sum of its ledger rows, and the audit chain
 * verifies under the restored app secret. It never writes over a database.
 */
const USAGE = `usage: npm run restore -- --from DIR
  --from DIR  a backup folder made by npm run backup
  Database: DATA_DIR, which must hold no database yet (move the old folder aside); run with the server stopped.
  PostgreSQL (DATABASE_URL): use pg_restore (docs/operations.md).`;

/** Wallets whose balance is not the sum of their ledger rows. */
async function ledgerMismatches(db: Db): Promise<number> {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT count(*) AS mismatched FROM (
        SELECT w.user_id FROM wallets w LEFT JOIN ledger_entries l ON l.user_id = w.user_id
        GROUP BY w.user_id, w.balance HAVING w.balance <> COALESCE(SUM(l.amount), 0)
      ) AS off`),
  );
  return Number(rows[0]?.mismatched ?? 0);
}

export async function restoreMain(io: CliIo): Promise<number> {
  const args = readArgs(io, USAGE, { from: { type: 'string' } });
  const from = args.values.from;
  if (!from || args.positionals.length > 0) fail(USAGE, 2);
  if (from.includes('\0')) fail(`--from must be a folder's path\n${USAGE}`, 2);
  let config;
  try {
    config = io.env ? loadConfig(io.env) : loadProcessConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
  if (config.databaseUrl) fail(`${databaseName(config)}: restore a PostgreSQL database with pg_restore (docs/operations.md)`, 2);
  const { dataDir } = config;
  if (existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))) {
    fail(`${dataDir} holds a database already: restore into a new DATA_DIR (move this one aside first)`);
  }
  let backup;
  try {
    backup = await readBackup(path.resolve(from));
  } catch (error) {
    if (error instanceof BackupError) fail(error.message);
    throw error;
  }
  const present = existsSync(secretFile(dataDir)) ? readFileSync(secretFile(dataDir), 'utf8') : undefined;
  if (present !== undefined && backup.secret !== undefined && present.trim() !== backup.secret.trim()) {
    fail(`${secretFile(dataDir)} is another installation's app secret: restore into a new DATA_DIR`);
  }
  io.err(`database: ${databaseName(config)}`);
  let database;
  try {
    database = await openDatabase({ dataDir, snapshot: new Blob([new Uint8Array(backup.tar)]) });
  } catch (error) {
    if (error instanceof DataDirInUseError || error instanceof DataDirNotEmptyError) fail(error.message);
    throw error;
  }
  try {
    if (backup.secret !== undefined && present === undefined) restoreSecret(dataDir, backup.secret);
    io.out(`restored the backup of ${backup.manifest.taken_at} into ${dataDir}`);
    const mismatched = await ledgerMismatches(database.db);
    io.out(
      mismatched === 0
        ? 'ledger: every wallet balance equals the sum of its rows'
        : `ledger: ${mismatched} wallets differ from their rows`,
    );
    if (!config.appSecret && backup.secret === undefined && present === undefined) {
      io.err(
        'the backup carries no app secret: start the server with the APP_SECRET it ran with, then run npm run audit -- verify',
      );
      return mismatched === 0 ? 0 : 1;
    }
    const report = await verifyAuditChain(database.db, deriveKey(ensureAppSecret(config), 'audit-chain'));
    io.out(
      report.ok
        ? `audit chain: OK ${report.rows} rows, head ${report.head ?? 'none'}`
        : `audit chain: BROKEN at id ${report.broken_at} (row ${report.rows} of the chain)`,
    );
    return mismatched === 0 && report.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

await runAsScript(import.meta.url, restoreMain);
