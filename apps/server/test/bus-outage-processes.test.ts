import { ApiPath, SocketTopic, type OrderView, type TradePairView } from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { expectLedgerInvariants } from './factories.js';
import {
  eventually,
  freshPostgres,
  setPrice,
  startRedis,
  startServerProcess,
  type RedisServer,
  type ServerProcess,
} from './processes.js';
import { TestSocket } from './socket-client.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const OUTAGE_MS = 10_000;

/**
 * A gateway and an engine, each a real server process, on PostgreSQL and a redis-server of the test's
 * own, which stops for 10 s mid-run and starts again, empty. Neither process exits; the gateway closes
 * its sockets and says it is not ready meanwhile; an order acknowledged during the outage is kept, and
 * after Redis is back the engine watches it (its take-profit fires once) and pushes reach the gateway's
 * sockets again.
 */
describe.runIf(databaseUrl)('a Redis outage under real processes', () => {
  const processes: ServerProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((server) => server.stop()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    'neither process exits, and after Redis returns pushes flow and nothing acknowledged is lost',
    { timeout: 180_000 },
    async () => {
      const redis: RedisServer = await startRedis();
      cleanups.push(() => redis.stop());
      const postgres = await freshPostgres(databaseUrl!);
      cleanups.push(() => postgres.drop());
      const start = (name: string, role: 'gateway' | 'engine') =>
        startServerProcess({ name, role, databaseUrl: postgres.url, redisUrl: redis.url }).then((server) => {
          processes.push(server);
          return server;
        });
      const engine = await start('engine', 'engine');
      const gateway = await start('gateway', 'gateway');
      const busOk = async (server: ServerProcess) => ((await server.ready()).checks.bus as { ok: boolean }).ok;

      await setPrice(redis.url, 'BTCUSD', '96500.00');
      const btc = await eventually(async () => {
        const pairs = await gateway.call<TradePairView[]>('GET', ApiPath.tradeList);
        return pairs.data.find((pair) => pair.Code === 'BTCUSD' && pair.ForexQuotations.Close === 96500);
      }, 'the gateway to quote BTCUSD');
      const demo = await gateway.call<{ token: string }>('GET', ApiPath.createDemo);
      expect(demo.code).toBe(1);
      const token = demo.data.token;
      const submit = (takeProfit: string) =>
        gateway.call<OrderView>('POST', ApiPath.submitOrder, {
          token,
          body: { type: 1, cont: '0.01', forex_id: btc.Id, status: 1, multiple: 10, target_profit_price: takeProfit },
        });
      const closesOn = async () => {
        const socket = await TestSocket.open(gateway.baseUrl);
        cleanups.push(async () => socket.ws.close());
        socket.send({ type: 'sub', topic: SocketTopic.forexClosed });
        socket.send({ type: 'login', token });
        await socket.settle();
        return socket;
      };
      const closeOf = (id: number) => (frame: { type: string; data?: unknown }) =>
        frame.type === SocketTopic.forexClosed && (frame.data as number[]).includes(id);

      const socket = await closesOn();
      const before = await submit('99000.00');
      expect(before.code, before.msg).toBe(1);

      // Redis stops: the gateway closes its sockets and is not ready; an order is still acknowledged.
      const stoppedAt = Date.now();
      await redis.stop();
      expect(await socket.closed).toBe(1013);
      await eventually(async () => !(await busOk(gateway)) && !(await busOk(engine)), 'both to report the bus down');
      const during = await submit('97000.00');
      expect(during.code, during.msg).toBe(1);
      const left = OUTAGE_MS - (Date.now() - stoppedAt);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      for (const server of [engine, gateway]) expect(server.child.exitCode, `${server.name} still runs`).toBeNull();

      // Back: both reconnect by themselves, the engine watches the order it was not told about.
      await redis.start();
      await eventually(async () => (await busOk(gateway)) && (await busOk(engine)), 'both to reconnect', { timeoutMs: 20_000 });
      const again = await closesOn();
      await setPrice(redis.url, 'BTCUSD', '97500.00');
      const closed = await again.waitFor(closeOf(during.data.Id));
      expect(closed.data).toEqual([during.data.Id]);

      const { db } = postgres.database;
      const rows = rowsOf(await db.execute(sql`SELECT id::int AS id, status, close_reason FROM orders ORDER BY id`));
      expect(rows).toEqual([
        { id: before.data.Id, status: 1, close_reason: null },
        { id: during.data.Id, status: 3, close_reason: 'take_profit' },
      ]);
      const credits = rowsOf(
        await db.execute(
          sql`SELECT id FROM ledger_entries WHERE ref_type = 'order' AND ref_id = ${during.data.Id} AND type = 'trade_profit'`,
        ),
      );
      expect(credits, 'the take-profit credited once').toHaveLength(1);
      await expectLedgerInvariants(db);
      for (const server of [engine, gateway]) {
        expect(server.child.exitCode, `${server.name} still runs`).toBeNull();
        expect(server.output()).not.toMatch(/unhandled|uncaught/i);
      }
    },
  );
});
