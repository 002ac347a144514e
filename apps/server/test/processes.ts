import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client.js';
import { TEST_APP_SECRET } from './harness.js';

/**
 * Real server processes for multi-process tests: each is `node --import tsx test/scripted-server.ts`,
 * that is src/main.ts as `npm start` runs it, with prices the test sets (`setPrice`). Node itself runs
 * the server (tsx is a loader, not a wrapper process), so a `kill('SIGKILL')` hits the server. Also a
 * fresh PostgreSQL database and a private redis-server, which a test may stop and start again.
 */

const serverDir = path.resolve(import.meta.dirname, '..');
/** Where `setPrice` publishes and test/scripted-server.ts listens (TEST_PRICE_CHANNEL). */
const PRICE_CHANNEL = 'pipwise-test:prices';
const STARTUP_LIMIT_MS = 120_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** Resolves once `predicate` holds, asking again every `everyMs`; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  { timeoutMs = 30_000, everyMs = 50 } = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

const withDatabaseName = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** A new database on the server of `adminUrl` (TEST_DATABASE_URL), migrated; `drop` removes it. */
export async function freshPostgres(adminUrl: string): Promise<{ url: string; database: Database; drop(): Promise<void> }> {
  const name = `pipwise_procs_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabaseName(adminUrl, name);
  const database = await openDatabase({ databaseUrl: url });
  await database.migrate();
  return {
    url,
    database,
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/** A redis-server of the test's own on a free port, without persistence, so no other test's events reach it. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    url,
    port,
    start: async () => {
      const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      child = started;
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await eventually(
          async () => {
            if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`);
            try {
              if (probe.status !== 'ready') await probe.connect();
              return (await probe.ping()) === 'PONG';
            } catch {
              probe.disconnect();
              return false;
            }
          },
          'redis-server to answer',
          { timeoutMs: 10_000 },
        );
      } finally {
        probe.disconnect();
      }
    },
    stop: async () => {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
  };
  await server.start();
  return server;
}

/** Sets the price of `code` on every scripted server of this Redis (the leading engine ticks it). */
export async function setPrice(redisUrl: string, code: string, bid: string) {
  const client = new Redis(redisUrl);
  try {
    await client.publish(PRICE_CHANNEL, JSON.stringify({ code, bid }));
  } finally {
    client.disconnect();
  }
}

/** What an engine process logs as it takes the lead. */
export const LEADS_MESSAGE = 'engine leadership: this process leads';

/** When `server` last logged that it took the engine's lead (its clock, ms), if it did. */
export function ledAt(server: ServerProcess): number | undefined {
  return server
    .logLines()
    .filter((line) => line.msg === LEADS_MESSAGE)
    .at(-1)?.time;
}

export interface ServerProcess {
  name: string;
  role: 'all' | 'gateway' | 'engine';
  port: number;
  baseUrl: string;
  child: ChildProcess;
  pid: number;
  /** Everything it printed so far (pino's JSON lines at info). */
  output(): string;
  /** Its log lines as objects (those that parse). */
  logLines(): { msg?: string; time?: number; [key: string]: unknown }[];
  exited: Promise<number | null>;
  /** An API call: the envelope and the HTTP status. */
  call<T = unknown>(
    method: 'GET' | 'POST',
    url: string,
    options?: { token?: string; body?: unknown },
  ): Promise<{ status: number; code: number; msg: string; data: T }>;
  /** GET /readyz's report. */
  ready(): Promise<{ ready: boolean; checks: { engine: { ok: boolean; leader: string | null } } & Record<string, unknown> }>;
  /** SIGTERM and wait for the exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a server process on PostgreSQL `databaseUrl` and Redis `redisUrl` in `role`, on a free port,
 * and resolves once it listens. `env` adds to or overrides its environment.
 */
export async function startServerProcess(options: {
  name: string;
  role: 'all' | 'gateway' | 'engine';
  databaseUrl: string;
  redisUrl: string;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), `pipwise-${options.name}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/scripted-server.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      ROLE: options.role,
      APP_SECRET: TEST_APP_SECRET,
      CAPTCHA_REQUIRED: 'false',
      LOG_LEVEL: 'info',
      TEST_PRICE_CHANNEL: PRICE_CHANNEL,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const baseUrl = `http://127.0.0.1:${port}`;

  const server: ServerProcess = {
    name: options.name,
    role: options.role,
    port,
    baseUrl,
    child,
    pid: child.pid!,
    output: () => output,
    logLines: () =>
      output.split('\n').flatMap((line) => {
        try {
          return [JSON.parse(line) as { msg?: string; time?: number }];
        } catch {
          return [];
        }
      }),
    exited,
    async call(method, url, { token, body } = {}) {
      const response = await fetch(baseUrl + url, {
        method,
        headers: {
          lang: 'en',
          ...(token ? { authorization: token } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await response.json()) as { code: number; msg: string; data: never };
      return { status: response.status, ...json };
    },
    async ready() {
      return (await (await fetch(`${baseUrl}/readyz`)).json()) as Awaited<ReturnType<ServerProcess['ready']>>;
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };

  try {
    await eventually(
      () => {
        if (child.exitCode !== null) throw new Error(`${options.name} exited with ${child.exitCode}:\n${output.slice(-4000)}`);
        return output.includes('Pipwise listening');
      },
      `${options.name} to listen`,
      { timeoutMs: STARTUP_LIMIT_MS, everyMs: 100 },
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return server;
}
