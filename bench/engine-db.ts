/**
 * The risk engine against a real PostgreSQL, end to end: BENCH_POSITIONS holding positions (default
 * 1,000,000) across BENCH_ACCOUNTS accounts (default 100,000) on the seven crypto pairs, written
 * straight into a database of its own; the server's modules started as `npm start` starts them (manual
 * price source); then one tick through BENCH_TRIGGERED stop-losses (default 10,000). It prints the
 * engine's load (time, RSS, the heap V8 keeps by space, and the RSS BENCH_IDLE_MS after it, default
 * 15 s) and, for the flash tick, the time until every close was committed and pushed (FOREX_CLOSED for
 * each) and until the engine had settled (its accounts read again), then checks that each stop-loss
 * closed once at the tick's price and every balance equals its ledger.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run engine-db -w @pipwise/bench
 *
 * `npm run engine-db` runs it on Node alone against the server's build (bench/run-built.mjs), as the
 * engine runs in production: under tsx the process would also hold tsx's loader (about 80 MB here).
 *
 * BENCH_DATABASE_URL names a server and a database to connect to first; the bench drops and creates
 * the database `pipwise_engine_bench` there and works only in it.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { SocketTopic } from '@pipwise/domain';
import type { RiskEngine } from '../apps/server/src/modules/trading/engine.js';
import { manualContext } from './manual-context.js';

const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 1_000_000);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const TRIGGERED = Number(process.env.BENCH_TRIGGERED ?? 10_000);
if (![POSITIONS, ACCOUNTS, TRIGGERED].every(Number.isSafeInteger) || ACCOUNTS < 1 || TRIGGERED > POSITIONS)
  throw new Error('BENCH_POSITIONS, BENCH_ACCOUNTS and BENCH_TRIGGERED must be whole numbers, BENCH_TRIGGERED ≤ BENCH_POSITIONS');
const CRYPTO = ['BTCUSD', 'ETHUSD', 'SOLUSD', 'XRPUSD', 'LTCUSD', 'BNBUSD', 'DOGEUSD'];

const { ctx, bus, database, feed, sql } = await manualContext('pipwise_engine_bench');
const engine = (ctx.modules.find((module) => module.name === 'trading') as unknown as { engine: RiskEngine }).engine;
const seeded = performance.now();
await sql.query(
  `INSERT INTO users (uid, email, invite_code) SELECT 900000000000 + g, 'bench' || g || '@bench.test', 'BENCH' || g FROM generate_series(1, $1) g`,
  [ACCOUNTS],
);
await sql.query(`INSERT INTO wallets (user_id, balance) SELECT id, 1000000 FROM users WHERE email LIKE '%@bench.test'`);
await sql.query(
  `INSERT INTO ledger_entries (user_id, type, amount, balance_after, memo_key) SELECT id, 'deposit', 1000000, 1000000, 'ledger_deposit' FROM users WHERE email LIKE '%@bench.test'`,
);
// The first BENCH_TRIGGERED positions are BTCUSD buys with a stop-loss 1 % down; every other level is
// 3–8 % away, so a fall of 1.5 % reaches exactly those.
await sql.query(
  `WITH first AS (SELECT min(id) AS id FROM users WHERE email LIKE '%@bench.test'),
        pairs AS (SELECT array_agg(id ORDER BY id) AS ids FROM instruments WHERE code = ANY($4)),
        btc AS (SELECT id FROM instruments WHERE code = 'BTCUSD'),
        p AS (
          SELECT g, CASE WHEN g <= $3 THEN btc.id ELSE pairs.ids[1 + g % array_length(pairs.ids, 1)] END AS instrument_id,
                 CASE WHEN g <= $3 OR random() < 0.5 THEN 1 ELSE 2 END AS side, (0.03 + random() * 0.05)::numeric AS away
          FROM generate_series(1, $1) g, pairs, btc
        )
   INSERT INTO orders (user_id, instrument_id, side, status, lots, leverage, placed_price, open_price, stop_loss, take_profit, margin, fee, opened_at)
   SELECT first.id + (p.g - 1) % $2, i.id, p.side, 1, 0.01, 100, i.base_price, i.base_price,
          round(i.base_price * CASE WHEN p.g <= $3 THEN 0.99 WHEN p.side = 1 THEN 1 - p.away ELSE 1 + p.away END, i.price_precision),
          round(i.base_price * CASE WHEN p.side = 1 THEN 1 + p.away ELSE 1 - p.away END, i.price_precision),
          round(i.base_price * 0.01 * i.contract_size / 100, 6), 0, now()
   FROM p JOIN instruments i ON i.id = p.instrument_id, first`,
  [POSITIONS, ACCOUNTS, TRIGGERED, CRYPTO],
);
await sql.query('ANALYZE');
console.log(JSON.stringify({ positions: POSITIONS, accounts: ACCOUNTS, 'seed (ms)': Math.round(performance.now() - seeded) }));

const { rows: bases } = await sql.query<{ code: string; base_price: string }>(
  'SELECT code, base_price FROM instruments WHERE code = ANY($1)',
  [CRYPTO],
);
const basePrice = new Map(bases.map((row) => [row.code, Number(row.base_price)]));

let loadStarted = 0;
const startMs: Record<string, number> = {};
for (const module of ctx.modules) {
  if (module.name === 'trading') loadStarted = performance.now();
  const moduleStarted = performance.now();
  await module.start?.();
  startMs[module.name] = Math.round(performance.now() - moduleStarted);
  // Prices before the engine loads, as a running feed would have them.
  if (module.name === 'market') for (const code of CRYPTO) feed.tick(code, basePrice.get(code)!);
}
const loadMs = performance.now() - loadStarted;
console.log(JSON.stringify({ 'module starts (ms)': startMs }));
const rssAtLoad = process.memoryUsage().rss;
// Where the heap V8 keeps after the load sits (MB committed / used, per space), before a full GC.
const spacesAtLoad = Object.fromEntries(
  getHeapSpaceStatistics().map((space) => [
    space.space_name,
    `${Math.round(space.physical_space_size / 2 ** 20)} / ${Math.round(space.space_used_size / 2 ** 20)}`,
  ]),
);
// What the book holds, without the load's garbage (the npm script runs node with --expose-gc).
(globalThis as { gc?: () => void }).gc?.();
console.log(
  JSON.stringify({
    'engine load (ms)': Math.round(loadMs),
    'watched orders': engine.watch.orderCount,
    'watched accounts': engine.watch.accountCount,
    'RSS after load (MB)': Math.round(rssAtLoad / 2 ** 20),
    'RSS after a full GC (MB)': Math.round(process.memoryUsage().rss / 2 ** 20),
    'heap used after a full GC (MB)': Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    'heap reserved (MB)': Math.round(process.memoryUsage().heapTotal / 2 ** 20),
    'typed arrays and buffers (MB)': Math.round(process.memoryUsage().arrayBuffers / 2 ** 20),
  }),
);
console.log(JSON.stringify({ 'heap spaces after load, committed / used (MB)': spacesAtLoad }));
// A running engine a while after its load: V8 gives back heap it kept for the load's garbage once idle.
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 15_000);
if (IDLE_MS > 0) {
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  console.log(
    JSON.stringify({
      [`RSS ${IDLE_MS / 1000} s after the load (MB)`]: Math.round(process.memoryUsage().rss / 2 ** 20),
      'heap reserved (MB)': Math.round(process.memoryUsage().heapTotal / 2 ** 20),
    }),
  );
}

let pushedClosed = 0;
let allPushed: () => void = () => undefined;
const pushed = new Promise<void>((resolve) => (allPushed = resolve));
bus.subscribe('realtime.user', ({ topic, data }) => {
  if (topic !== SocketTopic.forexClosed) return;
  pushedClosed += (data as number[]).length;
  if (pushedClosed >= TRIGGERED) allPushed();
});
// BENCH_CPU_PROFILE=file.cpuprofile: a CPU profile of this process from the flash tick until the engine settled.
const profilePath = process.env.BENCH_CPU_PROFILE;
const profiler = profilePath ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const flashBid = (basePrice.get('BTCUSD')! * 0.985).toFixed(2);
const started = performance.now();
feed.tick('BTCUSD', flashBid);
await pushed;
const committedAndPushed = performance.now() - started;
await engine.settled();
const settled = performance.now() - started;
if (profiler && profilePath) {
  const { profile } = await profiler.post('Profiler.stop');
  await writeFile(profilePath, JSON.stringify(profile));
  profiler.disconnect();
}

const { rows: closes } = await sql.query<{ closes: string; wrong: string }>(
  `SELECT count(*) AS closes, count(*) FILTER (WHERE close_price <> $1 OR close_reason <> 'stop_loss') AS wrong FROM orders WHERE status = 3`,
  [flashBid],
);
const { rows: ledger } = await sql.query<{ wallets: string }>(
  `SELECT count(*) AS wallets FROM wallets w
   WHERE w.balance <> (SELECT coalesce(sum(amount), 0) FROM ledger_entries l WHERE l.user_id = w.user_id)`,
);
const { rows: profits } = await sql.query<{ orders: string }>(
  `SELECT count(*) AS orders FROM (SELECT ref_id FROM ledger_entries WHERE type = 'trade_profit' GROUP BY ref_id HAVING count(*) > 1) twice`,
);
console.log(
  JSON.stringify({
    'actions fired': TRIGGERED,
    'closes pushed': pushedClosed,
    'quote → every close committed and pushed (ms)': Math.round(committedAndPushed),
    'quote → engine settled (ms)': Math.round(settled),
    'closed orders': Number(closes[0]!.closes),
    'closed at another price or reason': Number(closes[0]!.wrong),
    'orders with two profit rows': Number(profits[0]!.orders),
    'wallets whose balance is not their ledger': Number(ledger[0]!.wallets),
    'RSS at the end (MB)': Math.round(process.memoryUsage().rss / 2 ** 20),
  }),
);

for (const module of [...ctx.modules].reverse()) await module.stop?.();
await bus.close();
await database.close();
await sql.end();
