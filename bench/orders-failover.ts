/**
 * `kill -9` of the engine leader under load. Two gateways and two engines (bench/cluster.ts) on a fresh
 * PostgreSQL database and Redis; 16 clients place BTCUSD market orders back to back through the
 * gateways, as bench/orders does, and after KILL_AFTER seconds the leading engine is killed with
 * SIGKILL while they go on. At the end it checks from the database:
 *
 * - every order a client saw acknowledged (code 1 with its id) exists and is still open (kept);
 * - every refusal carried the API's envelope (a code and a message), counted by code and message;
 *   an answer without one (a dropped connection, a body that is not the envelope) is counted apart;
 * - orders stored that no client saw acknowledged (a request whose answer was lost);
 * - every account's balance equals the sum of its ledger.
 *
 * It prints the counts, how long until the gateways named the new leader, and orders/s before the
 * kill, in the 5 s after it and after that; it exits 1 if an acknowledged order is missing, a refusal
 * had no envelope or the ledger does not hold.
 *
 *   npm run orders-failover -w @pipwise/bench
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (default
 *   redis://127.0.0.1:6379), BENCH_SECONDS (30 in all), KILL_AFTER (10), BENCH_CLIENTS (16),
 *   BENCH_USERS (2000)
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { startCluster } from './cluster.js';
import { admin, Connection, prepareUsers, sleep, submitRequest, urlOf, type Envelope } from './order-client.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const KILL_AFTER = Number(process.env.KILL_AFTER ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const USERS = Number(process.env.BENCH_USERS ?? 2000);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** After the kill, the window whose orders/s is printed apart (the take-over lies in it). */
const GAP_SECONDS = 5;

const suffix = randomBytes(4).toString('hex');
const appDb = `pipwise_failover_${suffix}`;

/** One answer as the client saw it, when (ms since the load started). */
interface Seen {
  at: number;
  answer: Envelope | { error: string };
}

await admin(`CREATE DATABASE ${appDb}`);
let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
try {
  const { database, tokens } = await prepareUsers(urlOf(appDb), USERS, suffix);
  const rows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
    const result: unknown = await database.db.execute(query);
    return (result as { rows: T[] }).rows;
  };
  console.error(`starting 2 gateways and 2 engines (load ${loadavg()[0]!.toFixed(2)})`);
  cluster = await startCluster({ databaseUrl: urlOf(appDb), redisUrl, gateways: 2, engines: 2 });
  // The market module seeds the instruments as the first process starts.
  const [btc] = await rows<{ id: number }>(sql`SELECT id FROM instruments WHERE code = 'BTCUSD'`);
  const leader = await cluster.leaderPid();
  const victim = cluster.engines.find((engine) => engine.pid === leader);
  if (!victim) throw new Error(`no engine of this cluster leads (leader pid ${leader})`);

  const body = JSON.stringify({ type: 1, cont: '0.01', forex_id: btc!.id, status: 1, multiple: 10 });
  const requests = tokens.map((token) => submitRequest(token, body));
  const ports = cluster.gateways.map((gateway) => gateway.port);
  const seen: Seen[] = [];
  let next = 0;
  let stop = false;
  const started = performance.now();
  const worker = async (client: number) => {
    const port = ports[client % ports.length]!;
    let connection = await Connection.open(port);
    while (!stop) {
      const request = requests[next++ % requests.length]!;
      try {
        seen.push({ at: performance.now() - started, answer: await connection.send(request) });
      } catch (error) {
        seen.push({ at: performance.now() - started, answer: { error: (error as Error).message } });
        connection.close();
        connection = await Connection.open(port);
      }
    }
    connection.close();
  };
  const load = Array.from({ length: CLIENTS }, (_, client) => worker(client));
  const loadAtStart = loadavg()[0]!;

  await sleep(KILL_AFTER);
  const killedAt = performance.now() - started;
  victim.child.kill('SIGKILL');
  await victim.exited;
  let newLeaderAt: number | undefined;
  let newLeader: number | undefined;
  while (performance.now() - started < SECONDS * 1000) {
    if (newLeaderAt === undefined) {
      const pid = await cluster.leaderPid();
      if (pid !== undefined && pid !== victim.pid) {
        newLeaderAt = performance.now() - started;
        newLeader = pid;
      }
    }
    await sleep(0.1);
  }
  stop = true;
  await Promise.all(load);
  const loadAtEnd = loadavg()[0]!;

  // What the clients saw.
  const acknowledged = new Set<number>();
  const refusals = new Map<string, number>();
  const withoutEnvelope = new Map<string, number>();
  const count = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const { answer } of seen) {
    if ('error' in answer) count(withoutEnvelope, answer.error);
    else if (answer.code === 1 && typeof answer.data?.Id === 'number') acknowledged.add(answer.data.Id);
    else if (Number.isInteger(answer.code) && answer.code !== 1 && answer.msg) count(refusals, `${answer.code} ${answer.msg}`);
    else count(withoutEnvelope, JSON.stringify(answer).slice(0, 80));
  }
  const rate = (from: number, to: number) =>
    seen.filter(({ at, answer }) => at >= from && at < to && 'code' in answer && answer.code === 1).length / ((to - from) / 1000);

  // What the database kept.
  const ids = [...acknowledged];
  const kept = await rows<{ status: number; n: number }>(
    sql`SELECT status, count(*)::int AS n FROM orders WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[]) GROUP BY status`,
  );
  const found = kept.reduce((sum, row) => sum + row.n, 0);
  const [stored] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM orders`);
  const [unbalanced] = await rows<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM wallets w
    WHERE w.balance <> (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries l WHERE l.user_id = w.user_id)`);
  await database.close();

  const fixed = (value: number) => Number(value.toFixed(1));
  const report = {
    'load (1 min) at start / end': `${loadAtStart.toFixed(2)} / ${loadAtEnd.toFixed(2)}`,
    requests: seen.length,
    acknowledged: acknowledged.size,
    'acknowledged and in the database': found,
    'acknowledged and lost': acknowledged.size - found,
    'acknowledged orders by status now': Object.fromEntries(kept.map((row) => [row.status, row.n])),
    'refused, by code and message': Object.fromEntries(refusals),
    'answers without an envelope': Object.fromEntries(withoutEnvelope),
    'orders stored that no client saw acknowledged': stored!.n - found,
    'accounts whose balance ≠ sum(ledger)': unbalanced!.n,
    'killed the leader at (s)': fixed(killedAt / 1000),
    'gateways named the new leader after (s)': newLeaderAt === undefined ? 'never' : fixed((newLeaderAt - killedAt) / 1000),
    'new leader pid': newLeader ?? null,
    'orders/s before the kill': fixed(rate(0, killedAt)),
    [`orders/s in the ${GAP_SECONDS} s after it`]: fixed(rate(killedAt, killedAt + GAP_SECONDS * 1000)),
    'orders/s after that': fixed(rate(killedAt + GAP_SECONDS * 1000, SECONDS * 1000)),
  };
  console.log(JSON.stringify(report, null, 2));
  const failed = acknowledged.size !== found || withoutEnvelope.size > 0 || unbalanced!.n > 0 || newLeaderAt === undefined;
  console.log(failed ? '\nFAILED: see above' : '\nnone acknowledged and lost; every refusal with its code; the ledger holds');
  process.exitCode = failed ? 1 : 0;
} finally {
  await cluster?.stop();
  await admin(`DROP DATABASE IF EXISTS ${appDb} WITH (FORCE)`);
}
