import { ApiPath, OrderStatus, SocketTopic, type OrderView, type TradePairView, type TradePushView } from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { expectLedgerInvariants } from './factories.js';
import {
  eventually,
  freshPostgres,
  ledAt,
  setPrice,
  startRedis,
  startServerProcess,
  type RedisServer,
  type ServerProcess,
} from './processes.js';
import { TestSocket } from './socket-client.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const STEPS_DOWN = 'engine leadership: this process no longer leads';

/**
 * "The machine paused": two engine processes on PostgreSQL and a Redis of the test's own. SIGSTOP
 * freezes the leader with a take-profit in its memory; PostgreSQL ends its silent lock session and the
 * standby takes over within five seconds and fires the take-profit the market crossed meanwhile. Then
 * SIGCONT: the old leader wakes with that price still queued for it and its order still watched, and
 * must not act on it (its lock is gone, and the fence refuses a transaction of a stale epoch), so it
 * steps down; the order closes once and the ledger holds. CI sets TEST_DATABASE_URL and TEST_REDIS_URL.
 */
describe.runIf(databaseUrl && process.env.TEST_REDIS_URL)('a paused engine leader', () => {
  const processes: ServerProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    // A stopped process would not act on SIGTERM until it is continued.
    for (const server of processes) server.child.kill('SIGCONT');
    await Promise.all(processes.map((server) => server.stop()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    'SIGSTOP: the standby leads within 5 s and fires the take-profit once; SIGCONT: the old leader is fenced and steps down',
    { timeout: 120_000 },
    async () => {
      const redis: RedisServer = await startRedis();
      cleanups.push(() => redis.stop());
      const postgres = await freshPostgres(databaseUrl!);
      cleanups.push(() => postgres.drop());
      const start = (name: string) =>
        startServerProcess({ name, role: 'engine', databaseUrl: postgres.url, redisUrl: redis.url }).then((server) => {
          processes.push(server);
          return server;
        });
      // The first one seeds the empty database alone.
      const first = await start('engine-1');
      const second = await start('engine-2');
      await eventually(() => ledAt(first) ?? ledAt(second), 'an engine to lead');
      const [leader, standby] = ledAt(first) !== undefined ? [first, second] : [second, first];

      // The order goes through the standby (whose API serves as a gateway's); its socket is there too.
      await setPrice(redis.url, 'BTCUSD', '96500.00');
      const btc = await eventually(async () => {
        const pairs = await standby.call<TradePairView[]>('GET', ApiPath.tradeList);
        return pairs.data.find((pair) => pair.Code === 'BTCUSD' && pair.ForexQuotations.Close === 96500);
      }, 'the standby to quote BTCUSD');
      const demo = await standby.call<{ token: string }>('GET', ApiPath.createDemo);
      expect(demo.code).toBe(1);
      const token = demo.data.token;
      const socket = await TestSocket.open(standby.baseUrl);
      cleanups.push(async () => socket.ws.close());
      socket.send({ type: 'sub', topic: SocketTopic.forexTrade });
      socket.send({ type: 'sub', topic: SocketTopic.forexClosed });
      socket.send({ type: 'login', token });
      await socket.settle();
      const placed = await standby.call<OrderView>('POST', ApiPath.submitOrder, {
        token,
        body: { type: 1, cont: '0.01', forex_id: btc.Id, status: 1, multiple: 10, target_profit_price: '97000.00' },
      });
      expect(placed.code, placed.msg).toBe(1);
      const orderId = placed.data.Id;
      // A second position, whose take-profit only the paused leader will see crossed.
      const higher = await standby.call<OrderView>('POST', ApiPath.submitOrder, {
        token,
        body: { type: 1, cont: '0.01', forex_id: btc.Id, status: 1, multiple: 10, target_profit_price: '98000.00' },
      });
      expect(higher.code, higher.msg).toBe(1);
      const mentions = (frame: { type: string; data?: unknown }) =>
        (frame.type === SocketTopic.forexTrade &&
          (frame.data as TradePushView).TransOrder.some((order) => order.Id === orderId)) ||
        (frame.type === SocketTopic.forexClosed && (frame.data as number[]).includes(orderId));
      // The leader watches the position: it pushes its floating P&L to the owner.
      await socket.waitFor((frame) => frame.type === SocketTopic.forexTrade && mentions(frame));

      // The leader freezes; the market spikes through both take-profits and falls back through one.
      // The frozen process's Redis socket keeps both prices for it, to be read the moment it wakes; the
      // standby's feed starts from the current one.
      const pausedAt = Date.now();
      leader.child.kill('SIGSTOP');
      await setPrice(redis.url, 'BTCUSD', '98500.00');
      await setPrice(redis.url, 'BTCUSD', '97500.00');

      const tookOverAt = await eventually(() => ledAt(standby), 'the standby to lead', { timeoutMs: 15_000 });
      expect(tookOverAt - pausedAt, 'ms from the pause to the take-over').toBeLessThan(5_000);
      const closed = await socket.waitFor((frame) => frame.type === SocketTopic.forexClosed && mentions(frame));
      expect(closed.data).toEqual([orderId]);

      const { db } = postgres.database;
      const credits = async () =>
        rowsOf(
          await db.execute(
            sql`SELECT id FROM ledger_entries WHERE ref_type = 'order' AND ref_id = ${orderId} AND type = 'trade_profit'`,
          ),
        );
      expect(await credits(), 'the take-profit credited once').toHaveLength(1);

      // The old leader wakes and ticks the spike it missed: its engine's closes are refused (its lock
      // session was ended; had it not noticed yet, the fence refuses the stale epoch), the tick it
      // publishes moves no other engine, and it steps down, having written nothing.
      const ledgerBefore = rowsOf(await db.execute(sql`SELECT count(*)::int AS n FROM ledger_entries`));
      leader.child.kill('SIGCONT');
      await eventually(() => leader.logLines().some((line) => line.msg?.startsWith(STEPS_DOWN)), 'the old leader to step down');
      const holder = `${(await standby.ready()).checks.engine.leader}`;
      expect(holder).toMatch(new RegExp(`:${standby.pid}$`));
      await eventually(async () => (await leader.ready()).checks.engine.leader === holder, 'the old leader to know the new one');
      // What it read on waking (the spike's ticks) has been handled by the time a ping to it is answered.
      const woken = await TestSocket.open(leader.baseUrl);
      cleanups.push(async () => woken.ws.close());
      await woken.settle();

      const [order] = rowsOf(await db.execute(sql`SELECT status, close_reason, close_price FROM orders WHERE id = ${orderId}`));
      expect(order).toEqual({ status: 3, close_reason: 'take_profit', close_price: expect.stringMatching(/^97500(\.0+)?$/) });
      expect(await credits(), 'no second fill from the woken leader').toHaveLength(1);
      const [spiked] = rowsOf(await db.execute(sql`SELECT status FROM orders WHERE id = ${higher.data.Id}`));
      expect(spiked, 'the take-profit only the old leader saw crossed stays open').toEqual({ status: OrderStatus.holding });
      expect(rowsOf(await db.execute(sql`SELECT count(*)::int AS n FROM ledger_entries`)), 'no ledger row written').toEqual(
        ledgerBefore,
      );
      await expectLedgerInvariants(db);
      await socket.settle();
      expect(socket.frames.filter((frame) => frame.type === SocketTopic.forexClosed && mentions(frame))).toHaveLength(1);
      expect(ledAt(leader), 'the old leader did not lead again').toBeLessThan(pausedAt);
    },
  );
});
