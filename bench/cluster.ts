/**
 * A scale-out deployment on this machine for the benches: gateways and engines as separate server
 * processes (bench/cluster-server.ts) on one PostgreSQL database and one Redis, as docs/operations.md
 * sets them up, each resolved once its /readyz says ready (database, bus, a fresh feed, a leader known).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { admin, freePort, sleep, urlOf } from './order-client.js';

const benchDir = path.dirname(new URL(import.meta.url).pathname);
const STARTUP_LIMIT_S = 300;

/**
 * Node's arguments for `npm start`'s server, built first if its sources changed (scripts/build-server.mjs):
 * the benches measure the process a deployment runs, without tsx's loader. `entry` replaces main.js.
 */
export function builtServer(entry = path.join(benchDir, '../apps/server/build/main.js')): string[] {
  execFileSync(process.execPath, [path.join(benchDir, '../scripts/build-server.mjs')], { stdio: 'inherit' });
  return ['--conditions=pipwise-build', entry];
}

/** One `ROLE=all` process (PGlite unless `env` names a database): the whole product as `npm start` runs it. */
export function startAllInOne(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, builtServer(), {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(tmpdir(), 'pipwise-bench-no-web'),
      ...env,
    },
  });
}

export interface ClusterProcess {
  role: 'gateway' | 'engine';
  port: number;
  child: ChildProcess;
  pid: number;
  exited: Promise<void>;
}

export interface Cluster {
  gateways: ClusterProcess[];
  engines: ClusterProcess[];
  /** The pid of the engine that leads now, as a gateway's /readyz names it (`host:pid`), if one does. */
  leaderPid(): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** /readyz of the process on `port`, or undefined while it does not answer. */
async function readiness(port: number): Promise<{ ready: boolean; checks: { engine: { leader: string | null } } } | undefined> {
  try {
    return (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as Awaited<ReturnType<typeof readiness>>;
  } catch {
    return undefined;
  }
}

export async function startCluster(options: {
  databaseUrl: string;
  redisUrl: string;
  gateways: number;
  engines: number;
  /** More settings for every process. */
  env?: Record<string, string>;
}): Promise<Cluster> {
  const shared = {
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    APP_SECRET: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(tmpdir(), 'pipwise-bench-no-web'),
    ...options.env,
  };
  const serverArgs = builtServer(path.join(benchDir, 'cluster-server.mjs'));
  const start = async (role: ClusterProcess['role']): Promise<ClusterProcess> => {
    const port = await freePort();
    const child = spawn(process.execPath, serverArgs, {
      env: { ...process.env, ...shared, ROLE: role, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { role, port, child, pid: child.pid!, exited };
  };
  const all: ClusterProcess[] = [];
  process.on('exit', () => {
    for (const member of all) if (member.child.exitCode === null) member.child.kill('SIGKILL');
  });
  const stop = async () => {
    for (const member of all) if (member.child.exitCode === null) member.child.kill('SIGTERM');
    await Promise.race([Promise.all(all.map((member) => member.exited)), sleep(15)]);
    for (const member of all) if (member.child.exitCode === null) member.child.kill('SIGKILL');
  };
  const ready = async (members: ClusterProcess[]) => {
    for (let waited = 0; ; waited += 0.5) {
      const answers = await Promise.all(members.map((member) => readiness(member.port)));
      if (answers.every((answer) => answer?.ready)) return;
      const dead = members.find((member) => member.child.exitCode !== null);
      if (dead || waited > STARTUP_LIMIT_S) {
        await stop();
        throw new Error(dead ? `a ${dead.role} exited with ${dead.child.exitCode}` : 'the cluster did not become ready');
      }
      await sleep(0.5);
    }
  };
  // On an empty database one process migrates and seeds it alone (docs/operations.md); the rest follow.
  const first = await start('engine');
  all.push(first);
  await ready([first]);
  const engines = [first, ...(await Promise.all(Array.from({ length: options.engines - 1 }, () => start('engine'))))];
  const gateways = await Promise.all(Array.from({ length: options.gateways }, () => start('gateway')));
  all.push(...engines.slice(1), ...gateways);
  await ready(all);
  return {
    gateways,
    engines,
    async leaderPid() {
      const holder = (await readiness(gateways[0]!.port))?.checks.engine.leader;
      return holder ? Number(holder.split(':').at(-1)) : undefined;
    },
    stop,
  };
}

/**
 * A cluster on a database of its own on BENCH_DATABASE_URL's server (made here, dropped by `stop`), with
 * Redis from BENCH_REDIS_URL: what the socket benches run when they run gateways.
 */
export async function startClusterOnFreshDatabase(options: { gateways: number; env?: Record<string, string> }): Promise<Cluster> {
  const database = `pipwise_ws_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${database}`);
  try {
    const cluster = await startCluster({
      databaseUrl: urlOf(database),
      redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      gateways: options.gateways,
      engines: 1,
      env: options.env,
    });
    return {
      ...cluster,
      async stop() {
        await cluster.stop();
        await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      },
    };
  } catch (error) {
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    throw error;
  }
}
