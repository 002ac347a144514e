import { ApiPath, type TradePairView } from '@pipwise/domain';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { InMemoryEventBus, RedisEventBus, type EventBus } from '../src/realtime/bus.js';
import { createTrader } from './factories.js';
import { DB_KINDS, ManualClock, openTestDatabase, startTestServer, type TestServer } from './harness.js';
import { MARKET_OPEN_AT } from './trading-helpers.js';

/**
 * Two server processes on one database and bus, each running its own feed (as two engines would). An
 * operator's instrument change made through one must reach the other's quote table in place, without a
 * restart: only `market.instrument_changed` can tell it in time (the periodic re-read comes only once a
 * minute, and the test waits at most five seconds). With TEST_REDIS_URL the two talk through real Redis pub/sub.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const log = pino({ level: 'silent' });
const newBus = (): EventBus => (redisUrl ? new RedisEventBus(redisUrl, (error) => log.error(error)) : new InMemoryEventBus());

async function connected(from: EventBus, to: EventBus) {
  let heard = false;
  const unsubscribe = to.subscribe('market.categories_changed', () => (heard = true));
  for (let attempt = 0; !heard && attempt < 100; attempt++) {
    from.publish('market.categories_changed', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  unsubscribe();
  expect(heard, 'the two buses reach each other').toBe(true);
}

/** `read()` once it satisfies `done`, reading again while the event travels between processes. */
async function eventually<T>(read: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  let last = await read();
  for (let attempt = 0; !done(last) && attempt < 100; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  return last;
}

describe.each(DB_KINDS)(`instrument changes across two processes (%s, ${redisUrl ? 'Redis' : 'in-memory'} bus)`, (kind) => {
  const clock = new ManualClock(MARKET_OPEN_AT);
  let database: Database;
  let buses: EventBus[];
  let first: TestServer;
  let second: TestServer;
  let eurusd: number;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    buses = redisUrl ? [newBus(), newBus()] : Array(2).fill(newBus());
    first = await startTestServer(kind, { database, bus: buses[0], clock });
    second = await startTestServer(kind, { database, bus: buses[1], clock });
    await connected(buses[0]!, buses[1]!);
    eurusd = second.market.getInstrumentByCode('EURUSD')!.id;
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    for (const bus of new Set(buses)) await bus.close();
    await database?.close();
  });

  it("a spread changed through one process is used by the other's next quote, its quote kept", async () => {
    expect(second.feed.tick('EURUSD', '1.10000')).toMatchObject({ bid: '1.10000', ask: '1.10008' });
    second.feed.tick('EURUSD', '1.10500');
    const { high, open } = second.market.getQuote(eurusd)!;

    const answer = await first.call('PUT', `/admin/api/instruments/${eurusd}`, {
      headers: await first.operatorHeaders('carla', 'content'),
      body: { spread: '0.00030' },
    });
    expect(answer.code).toBe(1);

    const quote = await eventually(
      () => second.feed.tick('EURUSD', '1.10000'),
      (next) => next.ask !== '1.10008',
    );
    expect(quote).toMatchObject({ bid: '1.10000', ask: '1.10030', high, open });
    expect(second.market.getQuote(eurusd)).toMatchObject({ ask: '1.10030' });
  });

  it('an instrument disabled through one process leaves the other’s list and is refused there', async () => {
    const listed = async () =>
      (await second.call<TradePairView[]>('GET', ApiPath.tradeList)).data.map((pair) => pair.Id).includes(eurusd);
    expect(await listed()).toBe(true);

    const answer = await first.call('PUT', `/admin/api/instruments/${eurusd}`, {
      headers: await first.operatorHeaders('carla', 'content'),
      body: { enabled: false },
    });
    expect(answer.code).toBe(1);
    expect(await eventually(listed, (shown) => !shown)).toBe(false);

    const trader = await createTrader(second.database.db, { balance: '10000' });
    const refused = await second.call('POST', ApiPath.submitOrder, {
      token: trader.token,
      body: { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 },
    });
    expect(refused).toMatchObject({ code: 1004, msg: 'This product does not exist' });
  });
});
