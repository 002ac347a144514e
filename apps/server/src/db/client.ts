import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL: the pool's connections, for the metrics. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** PGlite on disk: the DATA_DIR it holds. */
  dataDir?: string;
  /** PGlite: a consistent copy of the whole database (a tar of its folder), taken while it stays open. */
  dump?: () => Promise<Blob>;
}

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** Another live process has the embedded database's folder open (a server, or the command line). */
export class DataDirInUseError extends Error {}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite takes no lock of its own, and two processes on one folder corrupt it: the opener writes its
 * pid to `pipwise.pid` (complete before it appears: written aside, then hard-linked, which fails if the
 * file exists). A file whose process has ended (a crash) is taken over; so is one naming this process,
 * as a restarted container's server gets the pid its crashed predecessor had. Answers the release.
 */
function claimDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'pipwise.pid');
  const aside = `${file}.${process.pid}`;
  writeFileSync(aside, String(process.pid));
  try {
    for (;;) {
      try {
        linkSync(aside, file);
        return () => rmSync(file, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DataDirInUseError(
          `the database in ${dataDir} is in use by process ${owner} (embedded PGlite allows one process): stop the server first`,
        );
      }
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Whether the PostgreSQL database lacks a migration of the folder (drizzle applies those newer than the
 * last one recorded). drizzle's migrator creates its own schema and table even when nothing is pending,
 * which a least-privilege role (docs/operations.md) may not: so a server connecting as one runs it only
 * when there is something to apply, and then fails on the privilege, for the owner to migrate.
 */
async function migrationsPending(pool: pg.Pool): Promise<boolean> {
  const latest = Math.max(...readMigrationFiles({ migrationsFolder }).map((migration) => migration.folderMillis));
  try {
    const { rows } = await pool.query<{ last: string | null }>(
      'SELECT max(created_at) AS last FROM drizzle.__drizzle_migrations',
    );
    return !(Number(rows[0]?.last ?? 0) >= latest);
  } catch {
    return true;
  }
}

/** The folder already holds a database, which a restore never overwrites. */
export class DataDirNotEmptyError extends Error {}

/**
 * Unpacks a dump into an empty database folder: beside it first, then moved into place, so a restore
 * that fails half-way leaves no half database for the next start to open.
 */
async function restoreInto(dir: string, snapshot: Blob) {
  if (existsSync(path.join(dir, 'PG_VERSION'))) throw new DataDirNotEmptyError(`${dir} holds a database already`);
  if (readdirSync(dir).length > 0) throw new DataDirNotEmptyError(`${dir} is not empty`);
  const aside = `${dir}.restoring`;
  rmSync(aside, { recursive: true, force: true });
  const loaded = await PGlite.create({ dataDir: aside, loadDataDir: snapshot });
  await loaded.close();
  rmdirSync(dir);
  renameSync(aside, dir);
}

/**
 * PGlite dumps between two statements, not between two transactions: the dump is taken inside a
 * transaction of its own, which waits for the one in flight and holds the next back, so the copy has
 * only committed work and nothing to recover. CHECKPOINT first writes the changes out of the WAL.
 * Uncompressed: every query waits while it is taken, and compressing is work for afterwards.
 */
async function dumpConsistent(client: PGlite): Promise<Blob> {
  await client.exec('CHECKPOINT');
  return client.transaction(() => client.dumpDataDir('none'));
}

/**
 * PostgreSQL server when a URL is given, otherwise PGlite. `dataDir` undefined means an in-memory
 * PGlite (tests); NUMERIC arrives as strings on both drivers, so money never passes through a float.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /**
   * Start from this dump (`dumpDataDir`, a tar) instead of an empty cluster, skipping initdb. With a
   * `dataDir` (a restore), the folder must hold no database yet.
   */
  snapshot?: Blob | undefined;
}): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    pool.on('error', () => undefined);
    // A connection that ends while checked out (PostgreSQL restarted, or a new engine leader ending a
    // lost leader's transaction) reports to its query, which fails; the pool listens only to idle ones,
    // and an 'error' event nobody hears would end the process.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        if (await migrationsPending(pool)) await migratePg(drizzlePg(pool), { migrationsFolder });
      },
      close: () => pool.end(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  let client: PGlite;
  let releaseDataDir: () => void = () => undefined;
  if (options.dataDir) {
    const dir = path.join(options.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    releaseDataDir = claimDataDir(options.dataDir);
    try {
      if (options.snapshot) await restoreInto(dir, options.snapshot);
      client = await PGlite.create(dir);
    } catch (error) {
      releaseDataDir();
      throw error;
    }
  } else {
    client = await PGlite.create(options.snapshot ? { loadDataDir: options.snapshot } : {});
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    dump: () => dumpConsistent(client),
    close: async () => {
      await client.close();
      releaseDataDir();
    },
  };
}
