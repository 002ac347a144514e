import { ApiPath, SOCKET_PATH, type OrderView } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock } from '../src/clock.js';
import type { Database } from '../src/db/client.js';
import { orders } from '../src/db/schema.js';
import { metricsRegistry } from '../src/observability/metrics.js';
import { RedisEventBus } from '../src/realtime/bus.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS, openTestDatabase, startTestServer, type TestServer } from './harness.js';
import { RedisServer } from './redis-server.js';
import { TestSocket } from './socket-client.js';
import { MARKET_OPEN_AT, tradingServer, type TradingServer } from './trading-helpers.js';

/**
 * Redis stops for 10 s while a gateway and an engine (two servers in this process, each with its own
 * Redis bus, as two processes have) serve a trader, then starts again, empty. Nothing may throw (an
 * unhandled rejection or 'error' event fails the run), the gateway must say it is not ready and close
 * its sockets meanwhile, both must reconnect and subscribe again by themselves, pushes must flow again,
 * and an order acknowledged during the outage must be kept and watched by the engine (its take-profit
 * fires once after Redis is back).
 */
const OUTAGE_MS = 10_000;
const kind = DB_KINDS.at(-1)!;

const connectedNow = (bus: RedisEventBus, wanted: boolean) =>
  bus.connected === wanted
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        const stop = bus.onConnectionChange((connected) => {
          if (connected !== wanted) return;
          stop();
          resolve();
        });
      });

async function readyz(server: TestServer) {
  const response = await fetch(`${server.baseUrl}/readyz`);
  return { status: response.status, body: (await response.json()) as { checks: { bus: { ok: boolean } } } };
}

/** The status a socket upgrade to `server` gets: 101 when admitted. */
async function upgradeStatus(server: TestServer): Promise<number> {
  const ws = new WebSocket(server.baseUrl.replace('http', 'ws') + SOCKET_PATH);
  const status = await new Promise<number>((resolve, reject) => {
    ws.once('open', () => resolve(101));
    ws.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
  ws.terminate();
  return status;
}

/** A socket to `server`, logged in as `token` and subscribed to the order closes. */
async function closesOf(server: TestServer, token: string) {
  const socket = await TestSocket.open(server.baseUrl);
  socket.send({ type: 'login', token });
  socket.send({ type: 'sub', topic: 'FOREX_CLOSED' });
  await socket.settle();
  return socket;
}

/** FOREX_CLOSED carries the ids of the orders that left the lists. */
const closeOf = (id: number) => (frame: { type: string; data?: unknown }) =>
  frame.type === 'FOREX_CLOSED' && Array.isArray(frame.data) && frame.data.includes(id);

const dropped = async () =>
  (await metricsRegistry.getSingleMetric('pipwise_bus_publishes_dropped_total')!.get()).values.reduce(
    (sum, sample) => sum + sample.value,
    0,
  );

describe(`a Redis outage (${kind})`, () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  const clock = new ManualClock(MARKET_OPEN_AT);
  let redis: RedisServer;
  let database: Database;
  let gatewayBus: RedisEventBus;
  let engineBus: RedisEventBus;
  let gateway: TestServer;
  let engine: TradingServer;

  beforeAll(async () => {
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
    redis = await RedisServer.start();
    database = await openTestDatabase(kind);
    const log = pino({ level: 'silent' });
    const onHandlerError = (error: unknown) => record(error);
    gatewayBus = new RedisEventBus(redis.url, onHandlerError, log);
    engineBus = new RedisEventBus(redis.url, onHandlerError, log);
    const env = { REDIS_URL: redis.url };
    engine = tradingServer(
      await startTestServer(kind, { clock, database, bus: engineBus, env: { ...env, ROLE: 'engine' } }),
      clock,
    );
    gateway = await startTestServer(kind, { clock, database, bus: gatewayBus, env: { ...env, ROLE: 'gateway' } });
    await Promise.all([connectedNow(gatewayBus, true), connectedNow(engineBus, true)]);
  });

  afterAll(async () => {
    await gateway?.close();
    await engine?.close();
    await gatewayBus?.close();
    await engineBus?.close();
    await database?.close();
    await redis?.stop();
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
  });

  it(
    'keeps both processes up, says so while down, and after it returns pushes flow and the order taken meanwhile is watched',
    {
      timeout: 120_000,
    },
    async () => {
      const eurusd = engine.instrumentId('EURUSD');
      await engine.tick('EURUSD', '1.10000');
      const trader = await engine.trader({ balance: '5000' });
      const submit = (takeProfit: string) =>
        gateway.call('POST', ApiPath.submitOrder, {
          token: trader.token,
          body: { type: 1, cont: '0.1', forex_id: eurusd, status: 1, target_profit_price: takeProfit, multiple: 100 },
        });

      // Before: an order placed on the gateway is watched by the engine, and its close reaches the gateway's socket.
      const socket = await closesOf(gateway, trader.token);
      const before = (await submit('1.10100')).data as OrderView;
      await vi.waitFor(() => expect(engine.engine.watch.orderCount).toBe(1));
      await engine.tick('EURUSD', '1.10100');
      await socket.waitFor(closeOf(before.Id));
      expect((await engine.order(before.Id)).closeReason).toBe('take_profit');

      // Redis stops.
      const droppedBefore = await dropped();
      const outageStarted = performance.now();
      await redis.stop();
      await Promise.all([connectedNow(gatewayBus, false), connectedNow(engineBus, false)]);
      // The gateway's clients are told to come back later, and are refused until the bus is back.
      expect(await socket.closed).toBe(1013);
      expect(await upgradeStatus(gateway)).toBe(503);
      const down = await readyz(gateway);
      expect(down.status).toBe(503);
      expect(down.body.checks.bus.ok).toBe(false);
      expect((await readyz(engine)).body.checks.bus.ok).toBe(false);

      // An order acknowledged meanwhile is kept; its notice to the engine cannot be sent, and is counted.
      const during = await submit('1.10300');
      expect(during.code).toBe(1);
      const placed = during.data as OrderView;
      expect(await dropped()).toBeGreaterThan(droppedBefore);
      // The engine keeps acting on its own feed's quotes while Redis is down.
      await engine.tick('EURUSD', '1.10050');

      const left = OUTAGE_MS - (performance.now() - outageStarted);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      await redis.resume();
      await Promise.all([connectedNow(gatewayBus, true), connectedNow(engineBus, true)]);

      // Back: ready again, sockets admitted, and the engine has read the order it was not told about.
      const up = await readyz(gateway);
      expect(up.body.checks.bus.ok).toBe(true);
      await vi.waitFor(() => expect(engine.engine.watch.orderCount).toBe(1));
      const again = await closesOf(gateway, trader.token);
      await engine.tick('EURUSD', '1.10300');
      await again.waitFor(closeOf(placed.Id));
      expect(await engine.order(placed.Id)).toMatchObject({ status: 3, closeReason: 'take_profit' });
      again.close();

      // Nothing acknowledged is lost, nothing closed twice, and nothing threw.
      const rows = await database.db.select().from(orders).where(eq(orders.userId, trader.userId));
      expect(rows.map((row) => [row.id, row.closeReason]).sort()).toEqual(
        [
          [before.Id, 'take_profit'],
          [placed.Id, 'take_profit'],
        ].sort(),
      );
      await expectLedgerInvariants(database.db);
      expect(unhandled).toEqual([]);
    },
  );
});
