/**
 * Market orders per second over HTTP against PostgreSQL, beside `pgbench -N` on the same server in the
 * same run, printed as a ratio (goal ≥ 0.5).
 *
 * Each order is a real `POST /v1/api/forex/submit` (BTCUSD, open around the clock) through the whole
 * server — authentication, validation, the free-margin check, the order, its fee and its ledger row,
 * written together with the other orders that arrived meanwhile (group commit) — with the simulated
 * feed ticking and the risk engine watching. pgbench -N ("simple update": three writes and a read per transaction) is the
 * baseline: what the same PostgreSQL does with the same number of clients and no application in
 * between. The two alternate in rounds (orders, then pgbench, BENCH_ROUNDS times), so both see the
 * machine in the same state: on a shared machine either alone can be a third faster or slower from one
 * minute to the next.
 *
 *   npm run orders -w @pipwise/bench
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_SECONDS (10 per
 *   round and side), BENCH_ROUNDS (3), BENCH_CLIENTS (16), BENCH_USERS (2000), BENCH_PROFILE_DIR (unset)
 *
 * ORDERS_GATEWAYS=n (default 0: one server process, bench/order-server.ts): n `ROLE=gateway` processes
 * and one `ROLE=engine` (bench/cluster.ts) on the same fresh database and on Redis (BENCH_REDIS_URL,
 * default redis://127.0.0.1:6379), the clients' connections split evenly over the gateways; the server
 * CPU is then that of every process of the cluster.
 *
 *   ORDERS_GATEWAYS=2 npm run orders -w @pipwise/bench
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { startCluster, type Cluster } from './cluster.js';
import { admin, Connection, cpuSeconds, freePort, prepareUsers, sleep, submitRequest, urlOf } from './order-client.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
// Enough accounts that none exceeds the per-session order limit (300 a minute) at the rates measured.
const USERS = Number(process.env.BENCH_USERS ?? 2000);
const GATEWAYS = Number(process.env.ORDERS_GATEWAYS ?? 0);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WARMUP_SECONDS = 8;
const benchDir = path.dirname(new URL(import.meta.url).pathname);

const suffix = randomBytes(4).toString('hex');
const appDb = `pipwise_bench_${suffix}`;
const pgbenchDb = `pipwise_pgbench_${suffix}`;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function startServer(databaseUrl: string) {
  const port = await freePort();
  // BENCH_PROFILE_DIR: write a CPU profile of the server there (to see where an order's time goes).
  const profile = process.env.BENCH_PROFILE_DIR;
  const args = [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), '--import', 'tsx'];
  // Node itself runs the server (tsx as a loader), so the signal at the end reaches the server.
  const child = spawn(process.execPath, [...args, path.join(benchDir, 'order-server.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { port, child };
}

/** CPU seconds of every PostgreSQL process (the database is on this machine), from /proc. */
function databaseCpuSeconds() {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuSeconds(Number(pid));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/**
 * 16 clients placing market orders back to back. The connections stay open between rounds; only
 * the rounds' windows are measured.
 */
async function orderLoad(ports: number[], tokens: string[], instrumentId: number) {
  const body = JSON.stringify({ type: 1, cont: '0.01', forex_id: instrumentId, status: 1, multiple: 10 });
  const requests = tokens.map((token) => submitRequest(token, body));
  const connections = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => Connection.open(ports[i % ports.length]!)));
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  let next = 0;
  let measuring = false;
  let running: { stop: boolean; workers: Promise<void>[] } | null = null;
  const worker = async (connection: Connection, round: { stop: boolean }) => {
    while (!round.stop) {
      const request = requests[next++ % requests.length]!;
      const t0 = performance.now();
      const answer = await connection.send(request);
      const elapsed = performance.now() - t0;
      if (!measuring) continue;
      if (answer.code === 1) latencies.push(elapsed);
      else failures.set(answer.msg, (failures.get(answer.msg) ?? 0) + 1);
    }
  };
  const start = () => {
    const round = { stop: false, workers: [] as Promise<void>[] };
    round.workers = connections.map((connection) => worker(connection, round));
    running = round;
  };
  const stop = async () => {
    const round = running!;
    round.stop = true;
    await Promise.all(round.workers);
    running = null;
  };
  return {
    /** Warms the server up (JIT, caches, the accounts in memory) without measuring. */
    async warm(seconds: number) {
      start();
      await sleep(seconds);
      await stop();
    },
    /** One measured round: accepted orders, their latencies, and the CPU the server(s) and the database used. */
    async round(seconds: number, serverPids: number[]) {
      const serverCpu = () => serverPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      const acceptedBefore = latencies.length;
      start();
      await sleep(0.5);
      const cpu = { server: serverCpu(), database: databaseCpuSeconds() };
      const started = performance.now();
      measuring = true;
      await sleep(seconds);
      measuring = false;
      const elapsed = (performance.now() - started) / 1000;
      const used = { server: serverCpu() - cpu.server, database: databaseCpuSeconds() - cpu.database };
      await stop();
      return { accepted: latencies.length - acceptedBefore, elapsed, ...used };
    },
    latencies,
    failures,
    close() {
      for (const connection of connections) connection.close();
    },
  };
}

function pgbenchInit() {
  execFileSync('pgbench', ['-i', '-q', '-s', '10', urlOf(pgbenchDb)], { stdio: 'ignore' });
}

function pgbench(seconds: number) {
  const output = execFileSync('pgbench', ['-N', '-c', String(CLIENTS), '-j', '2', '-T', String(seconds), urlOf(pgbenchDb)], {
    encoding: 'utf8',
  });
  const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
  if (!match) throw new Error(`could not read pgbench output:\n${output}`);
  return Number(match[1]);
}

await admin(`CREATE DATABASE ${appDb}`);
await admin(`CREATE DATABASE ${pgbenchDb}`);
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let cluster: Cluster | undefined;
try {
  const { database, tokens } = await prepareUsers(urlOf(appDb), USERS, suffix);
  let ports: number[];
  let serverPids: number[];
  if (GATEWAYS > 0) {
    cluster = await startCluster({ databaseUrl: urlOf(appDb), redisUrl, gateways: GATEWAYS, engines: 1 });
    ports = cluster.gateways.map((gateway) => gateway.port);
    serverPids = [...cluster.gateways, ...cluster.engines].map((member) => member.pid);
  } else {
    server = await startServer(urlOf(appDb));
    ports = [server.port];
    serverPids = [server.child.pid!];
  }
  const rows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
    const result: unknown = await database.db.execute(query);
    return (result as { rows: T[] }).rows;
  };
  const [btc] = await rows<{ id: number }>(sql`SELECT id FROM instruments WHERE code = 'BTCUSD'`);
  pgbenchInit();
  const load = await orderLoad(ports, tokens, btc!.id);
  await load.warm(WARMUP_SECONDS);
  const rounds: { ordersPerSecond: number; tps: number; serverCpuMs: number; databaseCpuMs: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const measured = await load.round(SECONDS, serverPids);
    const tps = pgbench(SECONDS);
    rounds.push({
      ordersPerSecond: measured.accepted / measured.elapsed,
      tps,
      serverCpuMs: (measured.server * 1000) / measured.accepted,
      databaseCpuMs: (measured.database * 1000) / measured.accepted,
    });
  }
  load.close();
  const [consistency] = await rows<{ bad: string }>(sql`
    SELECT COUNT(*) AS bad FROM wallets w
    WHERE w.balance <> (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries l WHERE l.user_id = w.user_id)`);
  await database.close();
  const latencies = [...load.latencies].sort((a, b) => a - b);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const ordersPerSecond = mean(rounds.map((round) => round.ordersPerSecond));
  const tps = mean(rounds.map((round) => round.tps));
  const fixed = (value: number, digits: number) => Number(value.toFixed(digits));
  console.log(
    JSON.stringify(
      {
        servers: GATEWAYS > 0 ? `${GATEWAYS} gateways + 1 engine, Redis bus` : 'one process',
        clients: CLIENTS,
        rounds: rounds.map((round) => ({
          'orders/s': fixed(round.ordersPerSecond, 1),
          'pgbench -N tps': fixed(round.tps, 1),
          ratio: fixed(round.ordersPerSecond / round.tps, 3),
          'server CPU per order (ms)': fixed(round.serverCpuMs, 3),
          'database CPU per order (ms)': fixed(round.databaseCpuMs, 3),
        })),
        'market orders/s over HTTP': fixed(ordersPerSecond, 1),
        'p50 (ms)': fixed(percentile(latencies, 50), 2),
        'p99 (ms)': fixed(percentile(latencies, 99), 2),
        accepted: latencies.length,
        refused: Object.fromEntries(load.failures),
        'accounts whose balance ≠ sum(ledger)': Number(consistency!.bad),
        'pgbench -N tps': fixed(tps, 1),
      },
      null,
      2,
    ),
  );
  console.log(`\norders/s ÷ pgbench -N TPS = ${(ordersPerSecond / tps).toFixed(3)} (goal ≥ 0.5)`);
} finally {
  server?.child.kill('SIGTERM');
  await cluster?.stop();
  await sleep(1);
  await admin(`DROP DATABASE IF EXISTS ${appDb} WITH (FORCE)`);
  await admin(`DROP DATABASE IF EXISTS ${pgbenchDb} WITH (FORCE)`);
}
