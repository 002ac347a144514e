import { ApiPath, SocketTopic, type OrderView, type TradePairView, type TradePushView } from '@pipwise/domain';
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
const METRICS_TOKEN = 'engine-failover-test-metrics-token-0123456789';

/** The value of an unlabelled series in a process's /metrics. */
async function metric(server: ServerProcess, series: string): Promise<number | undefined> {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = (await response.text()).split('\n').find((text) => text.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * Two gateways and two engines, each a real server process, on one PostgreSQL database and a Redis of
 * the test's own. One engine leads; `kill -9` of it lets the standby take over within five seconds, and
 * a take-profit its position reached while no engine ran fires once after the take-over. A socket on
 * gateway A follows an order placed through gateway B all along. CI sets TEST_DATABASE_URL and
 * TEST_REDIS_URL (a redis-server binary is then at hand); without them there is nothing to run against.
 */
describe.runIf(databaseUrl && process.env.TEST_REDIS_URL)('engine leadership across real processes', () => {
  const processes: ServerProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((server) => server.stop()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    'kill -9 of the leader: the standby leads within 5 s and a take-profit crossed in the gap fires once',
    { timeout: 150_000 },
    async () => {
      const redis: RedisServer = await startRedis();
      cleanups.push(() => redis.stop());
      const postgres = await freshPostgres(databaseUrl!);
      cleanups.push(() => postgres.drop());
      const start = (name: string, role: 'gateway' | 'engine') =>
        startServerProcess({ name, role, databaseUrl: postgres.url, redisUrl: redis.url, env: { METRICS_TOKEN } }).then(
          (server) => {
            processes.push(server);
            return server;
          },
        );
      // The first one seeds the empty database alone; the others start together.
      const first = await start('engine-1', 'engine');
      const [second, gatewayA, gatewayB] = await Promise.all([
        start('engine-2', 'engine'),
        start('gateway-a', 'gateway'),
        start('gateway-b', 'gateway'),
      ]);
      await eventually(() => ledAt(first) ?? ledAt(second), 'an engine to lead');
      const [leader, standby] = ledAt(first) !== undefined ? [first, second] : [second, first];
      expect(ledAt(standby), 'one leader at a time').toBeUndefined();

      // The gateways know the leader, from the lock and the epoch row.
      const holder = `${(await leader.ready()).checks.engine.leader}`;
      expect(holder).toMatch(new RegExp(`:${leader.pid}$`));
      for (const gateway of [gatewayA, gatewayB]) {
        await eventually(
          async () => (await gateway.ready()).checks.engine.leader === holder,
          `${gateway.name} to know the leader`,
        );
      }

      // A price, followed by gateway B over the bus before it takes an order.
      await setPrice(redis.url, 'BTCUSD', '96500.00');
      const btc = await eventually(async () => {
        const pairs = await gatewayB.call<TradePairView[]>('GET', ApiPath.tradeList);
        return pairs.data.find((pair) => pair.Code === 'BTCUSD' && pair.ForexQuotations.Close === 96500);
      }, 'gateway B to quote BTCUSD');

      const demo = await gatewayB.call<{ token: string }>('GET', ApiPath.createDemo);
      expect(demo.code).toBe(1);
      const token = demo.data.token;
      const socket = await TestSocket.open(gatewayA.baseUrl);
      cleanups.push(async () => socket.ws.close());
      socket.send({ type: 'sub', topic: SocketTopic.forexTrade });
      socket.send({ type: 'sub', topic: SocketTopic.forexClosed });
      socket.send({ type: 'login', token });
      await socket.settle();

      const placed = await gatewayB.call<OrderView>('POST', ApiPath.submitOrder, {
        token,
        body: { type: 1, cont: '0.01', forex_id: btc.Id, status: 1, multiple: 10, target_profit_price: '97000.00' },
      });
      expect(placed.code, placed.msg).toBe(1);
      const orderId = placed.data.Id;
      const mentions = (frame: { type: string; data?: unknown }) =>
        (frame.type === SocketTopic.forexTrade &&
          (frame.data as TradePushView).TransOrder.some((order) => order.Id === orderId)) ||
        (frame.type === SocketTopic.forexClosed && (frame.data as number[]).includes(orderId));
      // The leading engine pushes the new position to its owner, whose socket is on the other gateway.
      await socket.waitFor((frame) => frame.type === SocketTopic.forexTrade && mentions(frame));

      // The leader dies; the market moves past the take-profit while no engine runs.
      const killedAt = Date.now();
      leader.child.kill('SIGKILL');
      await leader.exited;
      await setPrice(redis.url, 'BTCUSD', '97500.00');

      const tookOverAt = await eventually(() => ledAt(standby), 'the standby to lead', { timeoutMs: 10_000 });
      expect(tookOverAt - killedAt, 'ms from the kill to the take-over').toBeLessThan(5_000);
      const closed = await socket.waitFor((frame) => frame.type === SocketTopic.forexClosed && mentions(frame));
      expect(closed.data).toEqual([orderId]);

      const { db } = postgres.database;
      const [order] = rowsOf(await db.execute(sql`SELECT status, close_reason, close_price FROM orders WHERE id = ${orderId}`));
      expect(order).toEqual({ status: 3, close_reason: 'take_profit', close_price: expect.stringMatching(/^97500(\.0+)?$/) });
      const credits = rowsOf(
        await db.execute(
          sql`SELECT id FROM ledger_entries WHERE ref_type = 'order' AND ref_id = ${orderId} AND type = 'trade_profit'`,
        ),
      );
      expect(credits, 'the take-profit credited once').toHaveLength(1);
      await expectLedgerInvariants(db);

      // Once: no second close reached the socket, and every gateway names the new leader.
      await socket.settle();
      expect(socket.frames.filter((frame) => frame.type === SocketTopic.forexClosed && mentions(frame))).toHaveLength(1);
      const newHolder = `${(await standby.ready()).checks.engine.leader}`;
      expect(newHolder).toMatch(new RegExp(`:${standby.pid}$`));
      for (const gateway of [gatewayA, gatewayB]) {
        await eventually(
          async () => (await gateway.ready()).checks.engine.leader === newHolder,
          `${gateway.name} to know the new leader`,
        );
      }
      // The metrics: the new leader leads and counted its take-over; a gateway saw one change of leader.
      expect(await metric(standby, 'pipwise_engine_leader')).toBe(1);
      expect(await metric(standby, 'pipwise_engine_leader_changes_total')).toBe(1);
      expect(await metric(gatewayA, 'pipwise_engine_leader')).toBe(0);
      expect(await metric(gatewayA, 'pipwise_engine_leader_changes_total')).toBe(1);
    },
  );
});
