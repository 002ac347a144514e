import { ApiPath } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import type { Database } from '../src/db/client.js';
import { users } from '../src/db/schema.js';
import { InMemoryEventBus } from '../src/realtime/bus.js';
import { createTrader } from './factories.js';
import { DB_KINDS, openTestDatabase, startTestServer, type TestServer } from './harness.js';
import { MARKET_OPEN_AT } from './trading-helpers.js';

/**
 * An operator freezes on one process (the engine's) while the user is served by another (a gateway)
 * that has the user's session and freezes in memory: the bus event must reach it, with no waiting
 * for a cache to expire.
 */
describe.each(DB_KINDS)('freezes across two processes on %s', (kind) => {
  let database: Database;
  let bus: InMemoryEventBus;
  let engine: TestServer;
  let gateway: TestServer;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    bus = new InMemoryEventBus();
    const clock = new ManualClock(MARKET_OPEN_AT);
    engine = await startTestServer(kind, { database, bus, clock });
    gateway = await startTestServer(kind, { database, bus, clock, env: { ROLE: 'gateway' } });
    engine.feed.tick('EURUSD', '1.10000');
  });
  afterAll(async () => {
    await gateway?.close();
    await engine?.close();
    await bus.close();
    await database?.close();
  });

  it('a trading freeze and a login freeze made on one process hold at once on the other', async () => {
    const trader = await createTrader(database.db, { now: engine.clock.now() });
    const [{ uid } = { uid: 0 }] = await database.db.select({ uid: users.uid }).from(users).where(eq(users.id, trader.userId));
    const forexId = gateway.market.getInstrumentByCode('EURUSD')!.id;
    const order = () =>
      gateway.call('POST', ApiPath.submitOrder, {
        token: trader.token,
        body: { type: 1, cont: '0.01', forex_id: forexId, status: 1, multiple: 100 },
      });
    // The gateway now remembers the session and that nothing is frozen.
    expect((await order()).code).toBe(1);
    expect((await gateway.call('GET', ApiPath.userInfo, { token: trader.token })).code).toBe(1);

    const support = await engine.operatorHeaders('sue', 'support');
    const freeze = (body: Record<string, boolean>) =>
      engine.call('POST', `/admin/api/users/${uid}/freeze`, { headers: support, body });
    expect((await freeze({ trading: true })).code).toBe(1);
    expect((await order()).code).toBe(1003);
    expect((await freeze({ trading: false })).code).toBe(1);
    expect((await order()).code).toBe(1);

    expect((await freeze({ login: true })).code).toBe(1);
    expect((await gateway.call('GET', ApiPath.userInfo, { token: trader.token })).code).toBe(999);
    expect((await order()).code).toBe(999);
  });
});
