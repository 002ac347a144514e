import { ApiPath, OrderStatus, type MyProviderView } from '@pipwise/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { copyOrders, orders } from '../src/db/schema.js';
import { createTraders, expectLedgerInvariants } from './factories.js';
import { eventually, freshPostgres, setPrice, startRedis, startServerProcess, type ServerProcess } from './processes.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const FOLLOWERS = 100;
/** The first process dies once this many follower orders were placed, before any of them is linked to its copy. */
const CRASH_AFTER = 40;

/**
 * Issue 20: `kill -9` of the server between a provider's fill and its copies, and again in the middle of
 * them (orders placed, links not yet written). After a restart every follower holds exactly one copy.
 * A real server process on PostgreSQL and Redis, as CI runs them.
 */
describe.runIf(databaseUrl && process.env.TEST_REDIS_URL)('copies across a kill -9', () => {
  const processes: ServerProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((server) => server.stop()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('every follower ends with exactly one copy of the provider’s fill', { timeout: 180_000 }, async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const postgres = await freshPostgres(databaseUrl!);
    cleanups.push(() => postgres.drop());
    const start = async (name: string, env: Record<string, string> = {}) => {
      const server = await startServerProcess({ name, role: 'all', databaseUrl: postgres.url, redisUrl: redis.url, env });
      processes.push(server);
      return server;
    };
    const first = await start('copy-crash-first', { COPY_CRASH_AFTER_COPIES: String(CRASH_AFTER) });
    const db = postgres.database.db;
    const [provider, ...followers] = await createTraders(db, ['100000', ...Array<string>(FOLLOWERS).fill('20000')]);
    const became = await first.call<MyProviderView>('POST', ApiPath.providerBecome, {
      token: provider!.token,
      body: { nickname: 'Crash test', fee_pct: 0 },
    });
    expect(became.code).toBe(1);
    for (const follower of followers) {
      const followed = await first.call('POST', ApiPath.copyFollow, {
        token: follower.token,
        body: { provider_id: became.data.provider_id, amount: '5000', stop_loss_pct: 50 },
      });
      expect(followed.code).toBe(1);
    }
    const btc = (await first.call<{ Id: number; Code: string }[]>('GET', ApiPath.tradeList)).data.find(
      (pair) => pair.Code === 'BTCUSD',
    )!;
    await setPrice(redis.url, 'BTCUSD', '60000');
    await eventually(async () => {
      try {
        const answer = await first.call('POST', ApiPath.submitOrder, {
          token: provider!.token,
          body: { type: 1, cont: '1', forex_id: btc.Id, status: 1, multiple: 20 },
        });
        return answer.code === 1;
      } catch {
        // The process died before it answered: only after the provider's commit can it have.
        return true;
      }
    }, 'the provider’s fill');
    // The copier places follower orders and dies after CRASH_AFTER of them, before it links any.
    await first.exited;
    const [opened] = await db.select().from(orders).where(eq(orders.userId, provider!.userId));
    expect(opened).toBeDefined();
    const placedBefore = rowsOf(
      await db.execute(sql`SELECT count(*)::int AS n FROM ${orders} WHERE user_id <> ${provider!.userId}`),
    )[0]!.n as number;
    // Placement groups the orders of one wave into shared statements: the crash finds them written, none linked.
    expect(placedBefore).toBeGreaterThanOrEqual(CRASH_AFTER);
    expect(await db.select().from(copyOrders)).toHaveLength(0);

    await start('copy-crash-second');
    // A new process hears the price again, as a live feed answers the current price to a new connection.
    await setPrice(redis.url, 'BTCUSD', '60000');
    const links = await eventually(
      async () => {
        const rows = await db.select().from(copyOrders).where(eq(copyOrders.providerOrderId, opened!.id));
        return rows.length === FOLLOWERS ? rows : undefined;
      },
      'every follower’s copy after the restart',
      { timeoutMs: 60_000 },
    );
    expect(links.every((link) => link.status === 'open')).toBe(true);
    const perFollower = rowsOf(
      await db.execute(sql`
        SELECT user_id, count(*)::int AS n FROM ${orders}
        WHERE user_id <> ${provider!.userId} AND status = ${OrderStatus.holding} GROUP BY user_id`),
    );
    expect(perFollower).toHaveLength(FOLLOWERS);
    expect(perFollower.every((row) => row.n === 1)).toBe(true);
    const linked = new Set(links.map((link) => link.followerOrderId));
    const held = await db
      .select({ id: orders.id })
      .from(orders)
      .where(sql`${orders.userId} <> ${provider!.userId}`);
    expect(held.every((order) => linked.has(order.id))).toBe(true);
    await expectLedgerInvariants(db);
  });
});
