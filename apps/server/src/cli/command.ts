import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { DataDirInUseError, openDatabase, type Database } from '../db/client.js';
import { ensureAppSecret } from '../secret.js';

/** The scaffolding the `npm run <command>` scripts share: arguments, configuration, the database, exit codes. */

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
export function readArgs<T extends NonNullable<ParseArgsConfig['options']>>(usage: string, options: T) {
  type Config = { options: T & { help: { type: 'boolean' } }; allowPositionals: true };
  let args;
  try {
    args = parseArgs<Config>({ options: { ...options, help: { type: 'boolean' } }, allowPositionals: true });
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage}`, 2);
  }
  if ((args.values as { help?: boolean }).help) fail(usage, 0);
  return args;
}

/** The server's configuration from the environment (with its app secret when the command seals or signs). */
export function loadCliConfig({ appSecret = false, exitCode = 1 } = {}): Config {
  try {
    const config = loadConfig(process.env);
    return appSecret ? ensureAppSecret(config) : config;
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, exitCode);
    throw error;
  }
}

/** Opens and migrates the server's database for `work`, and closes it whatever happens. */
export async function withDatabase<T>(config: Config, work: (database: Database) => Promise<T>, exitCode = 1): Promise<T> {
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    // PGlite allows one process: the server holds the folder.
    if (error instanceof DataDirInUseError) fail(error.message, exitCode);
    throw error;
  }
  try {
    await database.migrate();
    return await work(database);
  } finally {
    await database.close();
  }
}

/** Runs a command's main and turns its CliError into the message and the process's exit code. */
export async function runCommand(main: () => Promise<number | void>): Promise<void> {
  try {
    process.exitCode = (await main()) ?? 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    if (error.exitCode === 0) console.log(error.message);
    else console.error(error.message);
    process.exitCode = error.exitCode;
  }
}
