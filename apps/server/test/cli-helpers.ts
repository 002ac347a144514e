import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client.js';
import type { DbKind } from './harness.js';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '..');

export interface CliDatabase {
  /** What the command line is given to find it: DATA_DIR or DATABASE_URL. */
  env: Record<string, string>;
  /** A folder of the test's own (on PGlite, the data folder itself). */
  dir: string;
  open: () => Promise<Database>;
  /** Drops the database and removes the folder. */
  drop: () => Promise<void>;
}

/**
 * A database of its own a command line can open: a PGlite folder, or a fresh database on the PostgreSQL
 * server. Migrated, as a server leaves it (the command line never sets one up), unless `empty`.
 */
export async function cliDatabase(kind: DbKind, label: string, { empty = false } = {}): Promise<CliDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), `pipwise-${label}-`));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const made = async (target: CliDatabase) => {
    if (empty) return target;
    const database = await target.open();
    await database.migrate();
    await database.close();
    return target;
  };
  if (kind === 'pglite') {
    return made({ env: { DATA_DIR: dir }, dir, open: () => openDatabase({ dataDir: dir }), drop: async () => removeDir() });
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `pipwise_${label.replaceAll('-', '_')}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return made({
    env: { DATABASE_URL: url.toString() },
    dir,
    open: () => openDatabase({ databaseUrl: url.toString() }),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
      removeDir();
    },
  });
}

/**
 * Runs the real command line `src/cli/<script>.ts` (the npm script's command, without npm's own notices)
 * with `env` naming its database; the test's own DATABASE_URL/DATA_DIR are not passed on.
 */
export async function runCli(script: string, args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], {
      cwd: serverDir,
      env: { ...inherited, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
