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
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiPath } from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.js';
import { sessions, users } from '../apps/server/src/db/schema.js';
import { seedReferenceData } from '../apps/server/src/db/seed.js';
import { hashToken } from '../apps/server/src/modules/accounts/module.js';
import { WalletService } from '../apps/server/src/modules/wallet/service.js';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
// Enough accounts that none exceeds the per-session order limit (300 a minute) at the rates measured.
const USERS = Number(process.env.BENCH_USERS ?? 2000);
const WARMUP_SECONDS = 8;
const benchDir = path.dirname(new URL(import.meta.url).pathname);

const suffix = randomBytes(4).toString('hex');
const appDb = `pipwise_bench_${suffix}`;
const pgbenchDb = `pipwise_pgbench_${suffix}`;
const urlOf = (name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function prepareUsers(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl });
  await database.migrate();
  await seedReferenceData(database.db);
  const wallet = new WalletService(database.db);
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const token = randomBytes(24).toString('hex');
    await database.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          uid: 900_000_000 + i,
          email: `bench${i}@example.test`,
          inviteCode: `BENCH${suffix}${i}`,
          // The risk disclosure in force, accepted as at sign-up: otherwise every order is refused.
          riskDisclosureVersion: 1,
        })
        .returning({ id: users.id });
      await wallet.create(tx, user!.id);
      await wallet.post(tx, { userId: user!.id, amount: '1000000000', type: 'deposit' });
      await tx.insert(sessions).values({ userId: user!.id, tokenHash: hashToken(token), expiresAt: new Date('2100-01-01') });
    });
    tokens.push(token);
  }
  return { database, tokens };
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

/**
 * One keep-alive HTTP/1.1 connection, one request at a time, as each pgbench client is one connection
 * with one transaction at a time. Requests are prebuilt bytes and only the status line, Content-Length
 * and the JSON body are read: the load generator shares the two cores with the server and the database,
 * and Node's `http` client cost it about a quarter of a core at these rates.
 */
class Connection {
  private readonly socket: Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: ((body: string) => void) | null = null;
  private failed: ((error: Error) => void) | null = null;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.takeResponse();
    });
    socket.on('error', (error) => this.failed?.(error));
  }

  static open(port: number) {
    return new Promise<Connection>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  private takeResponse() {
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buffered.subarray(0, headEnd).toString('latin1');
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) throw new Error(`response without content-length:\n${head}`);
    const end = headEnd + 4 + Number(length[1]);
    if (this.buffered.length < end) return;
    const body = this.buffered.subarray(headEnd + 4, end).toString('utf8');
    this.buffered = this.buffered.subarray(end);
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.(body);
  }

  send(request: Buffer) {
    return new Promise<{ code: number; msg: string }>((resolve, reject) => {
      this.waiting = (body) => resolve(JSON.parse(body) as { code: number; msg: string });
      this.failed = reject;
      this.socket.write(request);
    });
  }

  close() {
    this.socket.destroy();
  }
}

function submitRequest(token: string, body: string) {
  return Buffer.from(
    `POST ${ApiPath.submitOrder} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nauthorization: ${token}\r\nlang: en\r\n\r\n${body}`,
  );
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
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
async function orderLoad(port: number, tokens: string[], instrumentId: number) {
  const body = JSON.stringify({ type: 1, cont: '0.01', forex_id: instrumentId, status: 1, multiple: 10 });
  const requests = tokens.map((token) => submitRequest(token, body));
  const connections = await Promise.all(Array.from({ length: CLIENTS }, () => Connection.open(port)));
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
    /** One measured round: accepted orders, their latencies, and the CPU the server and the database used. */
    async round(seconds: number, serverPid: number) {
      const acceptedBefore = latencies.length;
      start();
      await sleep(0.5);
      const cpu = { server: cpuSeconds(serverPid), database: databaseCpuSeconds() };
      const started = performance.now();
      measuring = true;
      await sleep(seconds);
      measuring = false;
      const elapsed = (performance.now() - started) / 1000;
      const used = { server: cpuSeconds(serverPid) - cpu.server, database: databaseCpuSeconds() - cpu.database };
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

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

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
try {
  const { database, tokens } = await prepareUsers(urlOf(appDb));
  server = await startServer(urlOf(appDb));
  const rows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
    const result: unknown = await database.db.execute(query);
    return (result as { rows: T[] }).rows;
  };
  const [btc] = await rows<{ id: number }>(sql`SELECT id FROM instruments WHERE code = 'BTCUSD'`);
  pgbenchInit();
  const load = await orderLoad(server.port, tokens, btc!.id);
  await load.warm(WARMUP_SECONDS);
  const rounds: { ordersPerSecond: number; tps: number; serverCpuMs: number; databaseCpuMs: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const measured = await load.round(SECONDS, server.child.pid!);
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
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await admin(`DROP DATABASE IF EXISTS ${appDb} WITH (FORCE)`);
  await admin(`DROP DATABASE IF EXISTS ${pgbenchDb} WITH (FORCE)`);
}
