import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { sql } from 'drizzle-orm';
import { systemClock } from '../clock.js';
import { ConfigError, loadConfig, loadProcessConfig, type Config } from '../config.js';
import { DataDirInUseError, openDatabase, type Database } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { AuditService } from '../modules/audit/service.js';
import { deriveKey, ensureAppSecret } from '../secret.js';

/** The scaffolding the `npm run <command>` scripts share: arguments, configuration, the database, exit codes. */

/**
 * What a command reads and writes. A script run by npm gets the process's own (`processIo`); the tests
 * run a command in their own process with theirs, which spares each call a process and a TypeScript load.
 */
export interface CliIo {
  args: string[];
  /** The environment the configuration is read from; absent: the process's own (config.ts reads it). */
  env?: Record<string, string | undefined>;
  /** One line to stdout, one to stderr. */
  out: (line: string) => void;
  err: (line: string) => void;
  /** Where a progress bar may redraw itself: stderr when it is a terminal, else nothing. */
  terminal?: { write: (text: string) => unknown };
}

function processIo(): CliIo {
  return {
    args: process.argv.slice(2),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    terminal: process.stderr.isTTY ? process.stderr : undefined,
  };
}

export type CliMain = (io: CliIo) => Promise<number | void>;

/** Ends the run with a message and an exit code (0: the message goes to stdout), after the database is closed. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export function fail(message: string, exitCode = 1): never {
  throw new CliError(message, exitCode);
}

/** The command line's options and positionals; `--help` prints the usage (exit 0), a malformed line exits 2. */
export function readArgs<T extends NonNullable<ParseArgsConfig['options']>>(io: CliIo, usage: string, options: T) {
  type Config = { args: string[]; options: T & { help: { type: 'boolean' } }; allowPositionals: true };
  let args;
  try {
    args = parseArgs<Config>({ args: io.args, options: { ...options, help: { type: 'boolean' } }, allowPositionals: true });
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage}`, 2);
  }
  if ((args.values as { help?: boolean }).help) fail(usage, 0);
  return args;
}

/** Which database the configuration names, for messages: never a password. */
export function databaseName(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `PGlite in ${config.dataDir} (DATA_DIR)`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL ${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}${url.pathname} (DATABASE_URL)`;
}

const noDatabase = (config: Config, exitCode: number): never =>
  fail(
    `no Pipwise database in ${databaseName(config)}: the command line opens the server's database and never makes one; ` +
      'give it the DATA_DIR (or DATABASE_URL) the server runs with',
    exitCode,
  );

/**
 * The server's configuration from the environment (with its app secret when the command seals or signs).
 * An embedded database must already be there: a mistyped or missing DATA_DIR would otherwise make a
 * second, empty one (and an app secret beside it) that the server never sees.
 */
export function loadCliConfig(io: CliIo, { appSecret = false, exitCode = 1 } = {}): Config {
  let config;
  try {
    config = io.env ? loadConfig(io.env) : loadProcessConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, exitCode);
    throw error;
  }
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'))) noDatabase(config, exitCode);
  try {
    return appSecret ? ensureAppSecret(config) : config;
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, exitCode);
    throw error;
  }
}

/**
 * Opens the server's database for `work`, says which one on stderr, and closes it whatever happens.
 * It must hold the server's tables already: migrations newer than the database are applied (as the
 * server would at its next start), but an empty database is refused, never set up.
 */
export async function withDatabase<T>(
  io: CliIo,
  config: Config,
  work: (database: Database) => Promise<T>,
  exitCode = 1,
): Promise<T> {
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'))) noDatabase(config, exitCode);
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    // PGlite allows one process: the server holds the folder.
    if (error instanceof DataDirInUseError) fail(error.message, exitCode);
    throw error;
  }
  try {
    let migrated: unknown;
    try {
      const result = await database.db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') AS migrations`);
      migrated = rowsOf(result)[0]?.migrations;
    } catch (error) {
      // drizzle wraps the driver's error (with the query); the driver's says what is wrong.
      const cause = (error as { cause?: unknown }).cause ?? error;
      fail(`cannot open ${databaseName(config)}: ${(cause as Error).message}`, exitCode);
    }
    if (!migrated) noDatabase(config, exitCode);
    io.err(`database: ${databaseName(config)}`);
    await database.migrate();
    if (config.appSecret) {
      // As the server's start does: rows an earlier version wrote on the unkeyed chain are sealed first.
      const key = deriveKey(config, 'audit-chain');
      await new AuditService({ db: database.db, clock: systemClock, key }).sealLegacyRows();
    }
    return await work(database);
  } finally {
    await database.close();
  }
}

/** Runs a command's main and answers its exit code, its CliError said as the message. */
export async function runCommand(main: CliMain, io: CliIo): Promise<number> {
  try {
    return (await main(io)) ?? 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    if (error.exitCode === 0) io.out(error.message);
    else io.err(error.message);
    return error.exitCode;
  }
}

/** Runs `main` as the process when its module is the script node was started with (npm run …), not imported. */
export async function runAsScript(moduleUrl: string, main: CliMain): Promise<void> {
  const script = process.argv[1];
  if (!script || !existsSync(script) || pathToFileURL(realpathSync(script)).href !== moduleUrl) return;
  process.exitCode = await runCommand(main, processIo());
}
