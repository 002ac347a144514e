import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { AppError, type OperatorRole } from '@pipwise/domain';
import * as OTPAuth from 'otpauth';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from '../src/app.js';
import { ManualClock, systemClock, type Clock } from '../src/clock.js';
import { loadConfig, type Config } from '../src/config.js';
import type { AppContext } from '../src/modules.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { seedReferenceData } from '../src/db/seed.js';
import { createLogger } from '../src/log.js';
import { createContext, type ContextOverrides } from '../src/modules.js';
import type { MarketService } from '../src/modules/market/api.js';
import { ManualFeed } from '../src/modules/market/feed.js';
import { InMemoryEventBus, type EventBus } from '../src/realtime/bus.js';

export type DbKind = 'pglite' | 'postgres';

/** One secret for every test server, so servers sharing a database (several processes) agree on it. */
export const TEST_APP_SECRET = '7069707769736520746573742073656372657420666f72206576657279207365727665720a';

/** PGlite always; PostgreSQL too when CI (or a developer) points TEST_DATABASE_URL at a server. */
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

const MIGRATIONS = path.resolve(import.meta.dirname, '../drizzle');

/** A digest of the migrations (and of `also`): what names a migrated copy kept for later tests and runs. */
function migrationsDigest(also: string): string {
  const hash = createHash('sha256').update(also);
  for (const name of readdirSync(MIGRATIONS, { recursive: true }).map(String).sort()) {
    const file = path.join(MIGRATIONS, name);
    if (statSync(file).isFile()) hash.update(name).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Where the dump of a freshly migrated PGlite database is kept: named by PGlite's version and the migrations. */
function snapshotFile(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglite = JSON.parse(readFileSync(path.resolve(path.dirname(entry), '../package.json'), 'utf8')) as { version: string };
  return path.join(tmpdir(), `pipwise-test-pglite-${migrationsDigest(pglite.version)}.tar`);
}

let migratedSnapshot: Promise<Blob> | undefined;

/**
 * Most of an in-memory PGlite's start is initdb (about 2 s of 2.3 s here); one loaded from a dump of a
 * freshly migrated database starts in about 0.5 s. The dump is made once and shared by every test file,
 * and by later runs, through a temporary file that only a complete write (rename) puts in place.
 */
function pgliteSnapshot(): Promise<Blob> {
  migratedSnapshot ??= (async () => {
    const file = snapshotFile();
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await openDatabase({});
    await database.migrate();
    const dump = await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
    await database.close();
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  })();
  return migratedSnapshot;
}

const withDatabaseName = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

let postgresTemplate: Promise<string> | undefined;

/**
 * A new PostgreSQL database then migrated took about 1.5 s here, half of it the migrations; one copied
 * from an already migrated template skips them. The template is named by the migrations and made once
 * per server, for every worker and later runs: under an advisory lock, so two workers make one, and
 * renamed into place only complete.
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `pipwise_template_${migrationsDigest('postgres')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${building}`);
        const database = await openDatabase({ databaseUrl: withDatabaseName(adminUrl, building) });
        await database.migrate();
        await database.close();
        // WITH (FORCE) is not available to RENAME: a closed pool's backends may take a moment to end.
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`).catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        });
      }
    } finally {
      await admin.end();
    }
    return name;
  })();
  return postgresTemplate;
}

/** A throwaway database: in-memory PGlite, or a fresh database created on the PostgreSQL server. */
export async function openTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === 'pglite') {
    const database = await openDatabase({ snapshot: await pgliteSnapshot() });
    // Already migrated: this only checks that the dump holds every migration.
    await database.migrate();
    return database;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const template = await migratedTemplate(adminUrl);
  const name = `pipwise_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: withDatabaseName(adminUrl, name) });
  // Already migrated: this only checks that the template holds every migration.
  await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export interface TestServer {
  ctx: AppContext;
  /** The Fastify instance (its `operatorRoutes` list every back-office route with its roles). */
  app: FastifyInstance;
  config: Config;
  clock: Clock;
  database: Database;
  baseUrl: string;
  /** Real HTTP call; returns the parsed envelope and the HTTP status. */
  call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options?: {
      body?: Record<string, unknown>;
      form?: Record<string, string>;
      token?: string | null;
      lang?: string;
      headers?: Record<string, string>;
    },
  ): Promise<{ status: number; code: number; msg: string; data: T }>;
  close(): Promise<void>;
  /**
   * Stops answering as a killed process would: the port closes and no event is handled any more, but
   * no module is stopped gracefully and the database (owned by the caller) stays as it was.
   */
  crash(): Promise<void>;
  /** Instruments and quotes. */
  market: MarketService;
  /** The manual price source (the default): `feed.tick('EURUSD', '1.10000')` runs the whole tick pipeline. */
  feed: ManualFeed;
  /**
   * Headers of a signed-in operator: `<name>@ops.test` with `role` is created on first use and logs in
   * through `POST /admin/api/login` with a TOTP code of the server's clock; the session is reused, and
   * renewed when the clock has moved past its expiry. Actor on records: `operator:<name>@ops.test`.
   */
  operatorHeaders(name?: string, role?: OperatorRole): Promise<Record<string, string>>;
}

/**
 * A new operator enrolled as a person would: the one-time link opened, a password of their own, their
 * authenticator's code. The code is the previous step's, so the current one is still fresh for a login.
 */
export async function enrolOperator(
  ctx: AppContext,
  clock: Clock,
  input: { email: string; role: OperatorRole; createdBy?: string; createdById?: number | null; enrolledById?: number | null },
): Promise<{ id: number; email: string; role: OperatorRole; password: string; otpauth: string }> {
  const { id, link } = await ctx.operators.create({ createdBy: 'test', ...input });
  const token = link.slice(link.lastIndexOf('/') + 1);
  const { otpauth } = await ctx.operators.beginEnrolment(token);
  const password = randomBytes(15).toString('base64url');
  // A step boundary crossed while the password was hashed (a loaded machine) leaves the previous step's
  // code out of the window: one more try takes the then-previous step's.
  for (let attempt = 1; ; attempt += 1) {
    const otp = totpCode(otpauth, clock.now().getTime() - 30_000);
    try {
      await ctx.operators.finishEnrolment({ token, password, otp }, { ip: '127.0.0.1', userAgent: null });
      break;
    } catch (error) {
      if (attempt === 2 || !(error instanceof AppError && error.key === 'operator_enrolment_code_wrong')) throw error;
    }
  }
  // The session the enrolment opened is not the test's: it signs in when it wants one.
  await ctx.operators.revokeAllSessions(id);
  return { id, email: input.email, role: input.role, password, otpauth };
}

/** The 6-digit code an authenticator app shows for an `otpauth://` enrolment at `timestamp` (ms). */
export const totpCode = (otpauth: string, timestamp: number) =>
  (OTPAuth.URI.parse(otpauth) as OTPAuth.TOTP).generate({ timestamp });

export const operatorEmail = (name: string) => (name.includes('@') ? name : `${name}@ops.test`);

export async function startTestServer(
  kind: DbKind,
  options: {
    clock?: Clock;
    env?: Record<string, string>;
    startModules?: boolean;
    overrides?: ContextOverrides;
    /** Price source: 'manual' (default; prices move only on `feed.tick`) or the live 'simulated' feed. */
    market?: 'manual' | 'simulated';
    /** Generate chart history on start (the simulated feed's first-start back-fill); off by default. */
    backfill?: boolean;
    /** An existing database (a restart); the caller opens and closes it. */
    database?: Database;
    /** An event bus shared with other servers (several processes); the caller closes it. */
    bus?: EventBus;
    /** Where the server's log goes (at level info), for tests that read it; silent otherwise. */
    logStream?: DestinationStream;
  } = {},
): Promise<TestServer> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/pipwise-test-unused',
    APP_SECRET: TEST_APP_SECRET,
    ...options.env,
  });
  const database = options.database ?? (await openTestDatabase(kind));
  await seedReferenceData(database.db);
  const clock = options.clock ?? systemClock;
  const bus =
    options.bus ??
    new InMemoryEventBus((error) => {
      throw error;
    });
  const log = options.logStream ? createLogger('info', options.logStream) : createLogger('silent');
  const marketFeed = { source: options.market ?? 'manual', backfill: options.backfill ?? false };
  const ctx = await createContext({ config, database, bus, clock, log, marketFeed }, options.overrides);
  for (const module of ctx.modules) await module.seed?.();
  const app = await buildApp(ctx);
  if (options.startModules !== false) for (const module of ctx.modules) await module.start?.();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const operators = new Map<string, { otpauth: string; password: string; token: string | null }>();
  const signingIn = new Map<string, Promise<Record<string, string>>>();

  const server: TestServer = {
    ctx,
    app,
    config,
    clock,
    database,
    baseUrl,
    market: ctx.market,
    get feed(): ManualFeed {
      if (!(ctx.marketSource instanceof ManualFeed)) throw new Error('this test server runs the simulated feed');
      return ctx.marketSource;
    },
    async call(method, path, { body, form, token, lang = 'en', headers = {} } = {}) {
      const init: RequestInit = { method, headers: { lang, ...headers } };
      const h = init.headers as Record<string, string>;
      if (token) h.authorization = token;
      if (body) {
        h['content-type'] = 'application/json';
        init.body = JSON.stringify(body);
      } else if (form) {
        h['content-type'] = 'application/x-www-form-urlencoded';
        init.body = new URLSearchParams(form).toString();
      }
      const response = await fetch(baseUrl + path, init);
      const json = (await response.json()) as { code: number; msg: string; data: never };
      return { status: response.status, ...json };
    },
    async close() {
      await app.close();
      for (const module of [...ctx.modules].reverse()) await module.stop?.();
      if (!options.bus) await bus.close();
      if (!options.database) await database.close();
    },
    async crash() {
      await bus.close();
      app.server.closeAllConnections();
      await app.close();
    },
    operatorHeaders(name = 'alice', role = 'superadmin') {
      const email = operatorEmail(name);
      // Calls that overlap share one sign-in: a TOTP code is accepted once, so two would refuse each other.
      const pending = signingIn.get(email);
      if (pending) return pending;
      const signIn = (async () => {
        let known = operators.get(email);
        if (!known) {
          const { otpauth, password } = await enrolOperator(ctx, clock, { email, role });
          known = { otpauth, password, token: null };
          operators.set(email, known);
        }
        if (known.token && (await ctx.resolveOperator(known.token))) return { authorization: known.token };
        const login = await server.call<{ token: string }>('POST', '/admin/api/login', {
          body: { email, password: known.password, otp: totpCode(known.otpauth, clock.now().getTime()) },
        });
        if (login.code !== 1) throw new Error(`operator login failed: ${login.code} ${login.msg}`);
        known.token = login.data.token;
        return { authorization: login.data.token };
      })().finally(() => signingIn.delete(email));
      signingIn.set(email, signIn);
      return signIn;
    },
  };
  return server;
}

export { ManualClock };
