import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { auditMain } from '../src/cli/audit.js';
import { backupMain } from '../src/cli/backup.js';
import { restoreMain } from '../src/cli/restore.js';
import { runCommand, type CliMain } from '../src/cli/command.js';
import { dbRolesMain } from '../src/cli/db-roles.js';
import { importBarsMain } from '../src/cli/import-bars.js';
import { operatorMain } from '../src/cli/operator.js';
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

const COMMANDS = {
  operator: operatorMain,
  audit: auditMain,
  'db-roles': dbRolesMain,
  'import-bars': importBarsMain,
  backup: backupMain,
  restore: restoreMain,
} satisfies Record<string, CliMain>;
export type CliScript = keyof typeof COMMANDS;

/** The environment a command is given: the test's own without its database, then `env` naming one. */
function commandEnv(env: Record<string, string>) {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
  return { ...inherited, LOG_LEVEL: 'silent', ...env };
}

/**
 * Runs the command `src/cli/<script>.ts` in this process, as its npm script would (the same main, its
 * arguments, its output and its exit code), with `env` naming its database. A PGlite folder must not be
 * open in this process meanwhile: the command would take it over (its pid is this process's).
 */
export async function runCli(script: CliScript, args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await runCommand(COMMANDS[script], {
    args,
    env: commandEnv(env),
    out: (line) => (stdout += `${line}\n`),
    err: (line) => (stderr += `${line}\n`),
  });
  return { code, stdout, stderr };
}

/**
 * Runs the npm script's file as a process of its own (node with tsx, without npm's notices): what a
 * process adds, its exit code and a pid of its own, at the cost of seconds for every call.
 */
export async function spawnCli(script: CliScript, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], {
      cwd: serverDir,
      env: commandEnv(env),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
