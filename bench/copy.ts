/**
 * Copy trading at scale against a real PostgreSQL: one provider and BENCH_FOLLOWERS followers (default
 * 10,000), each copying with its own amount, written straight into a database of its own; the server's
 * modules started as `npm start` starts them (manual price source). The provider opens one position
 * through the trading service; the bench measures the time from the provider's fill until the last
 * follower's copy was filled and linked (its activity line pushed on COPY), copies per second, and when
 * the copier's run ended (it then checks the stops of every open copy). Then it checks that
 * every follower holds exactly one copy of the right size and that every balance equals its ledger.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run copy -w @pipwise/bench
 *
 * The bench drops and creates the database `pipwise_copy_bench` on that server and works only in it.
 */
import { performance } from 'node:perf_hooks';
import { OrderStatus, SocketTopic } from '@pipwise/domain';
import type { CopyService } from '../apps/server/src/modules/copy/service.js';
import type { TradingService } from '../apps/server/src/modules/trading/service.js';
import { manualContext } from './manual-context.js';

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 10_000);
if (!Number.isSafeInteger(FOLLOWERS) || FOLLOWERS < 1) throw new Error('BENCH_FOLLOWERS must be a whole number ≥ 1');
const PRICE = '60000';

const { ctx, bus, database, feed, sql } = await manualContext('pipwise_copy_bench');
const serviceOf = <T>(name: string) => (ctx.modules.find((module) => module.name === name) as unknown as { service: T }).service;

// The provider first, then the followers: 100,000 USD each, amounts 1,000 to 10,000 (0.01 to 0.1 lots).
await sql.query(
  `INSERT INTO users (uid, email, invite_code, risk_disclosure_version)
   SELECT 910000000000 + g, 'copy' || g || '@bench.test', 'COPY' || g, 1 FROM generate_series(0, $1) g`,
  [FOLLOWERS],
);
await sql.query(`INSERT INTO wallets (user_id, balance) SELECT id, 100000 FROM users WHERE email LIKE '%@bench.test'`);
await sql.query(
  `INSERT INTO ledger_entries (user_id, type, amount, balance_after, memo_key)
   SELECT id, 'deposit', 100000, 100000, 'ledger_deposit' FROM users WHERE email LIKE '%@bench.test'`,
);
const { rows: providerRows } = await sql.query<{ id: string }>(`SELECT id FROM users WHERE email = 'copy0@bench.test'`);
const providerUserId = Number(providerRows[0]!.id);
const { rows: made } = await sql.query<{ id: string }>(
  `INSERT INTO copy_providers (user_id, nickname, nickname_key) VALUES ($1, 'Bench', 'bench') RETURNING id`,
  [providerUserId],
);
const providerId = Number(made[0]!.id);
await sql.query(
  `INSERT INTO copies (follower_id, provider_id, amount, stop_loss_pct, copy_from)
   SELECT id, $1, 1000 * (1 + id % 10), 50, now() - interval '1 minute' FROM users WHERE email LIKE '%@bench.test' AND id <> $2`,
  [providerId, providerUserId],
);
await sql.query('ANALYZE');

for (const module of ctx.modules) {
  await module.start?.();
  if (module.name === 'market') feed.tick('BTCUSD', PRICE);
}
const trading = serviceOf<TradingService>('trading');
const copy = serviceOf<CopyService>('copy');
const btc = ctx.market.getInstrumentByCode('BTCUSD')!;

// Each copy's activity line is pushed (COPY) once its order is filled and linked: the last one ends the measure.
let linked = 0;
let lastLinked = 0;
bus.subscribe('realtime.user', ({ topic, data }) => {
  if (topic !== SocketTopic.copy || (data as { kind: string }).kind !== 'copied') return;
  linked += 1;
  lastLinked = performance.now();
});
const started = performance.now();
const { order } = await trading.submit(providerUserId, {
  type: 1,
  cont: '1',
  forex_id: btc.id,
  status: OrderStatus.holding,
  multiple: 20,
  target_price: undefined,
  target_profit_price: '70000',
  stop_loss_price: '50000',
});
const filled = performance.now();
await copy.copier.schedule(providerId);
const reconciled = performance.now();

const { rows: counts } = await sql.query<{ links: string; open: string; skipped: string }>(
  `SELECT count(*) AS links, count(*) FILTER (WHERE status = 'open') AS open, count(*) FILTER (WHERE status = 'skipped') AS skipped
   FROM copy_orders WHERE provider_order_id = $1`,
  [order.id],
);
const { rows: doubles } = await sql.query<{ n: string }>(
  `SELECT count(*) AS n FROM (SELECT user_id FROM orders WHERE user_id <> $1 GROUP BY user_id HAVING count(*) > 1) d`,
  [providerUserId],
);
const { rows: ledger } = await sql.query<{ wallets: string }>(
  `SELECT count(*) AS wallets FROM wallets w
   WHERE w.balance <> (SELECT coalesce(sum(amount), 0) FROM ledger_entries l WHERE l.user_id = w.user_id)`,
);
const copyMs = lastLinked - filled;
console.log(
  JSON.stringify({
    followers: FOLLOWERS,
    'provider fill (ms)': Math.round(filled - started),
    'fill → last copy filled and linked (ms)': Math.round(copyMs),
    'copies pushed (COPY)': linked,
    "fill → the copier's run ended (ms)": Math.round(reconciled - filled),
    'copies per second': Math.round((Number(counts[0]!.open) / copyMs) * 1000),
    'copies open': Number(counts[0]!.open),
    skipped: Number(counts[0]!.skipped),
    'followers with two copies': Number(doubles[0]!.n),
    'wallets whose balance is not their ledger': Number(ledger[0]!.wallets),
  }),
);

for (const module of [...ctx.modules].reverse()) await module.stop?.();
await bus.close();
await database.close();
await sql.end();
