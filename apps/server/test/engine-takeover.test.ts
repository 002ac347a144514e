import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { seedReferenceData } from '../src/db/seed.js';
import type { MarketEngine } from '../src/modules/market/service.js';
import { InMemoryEventBus } from '../src/realtime/bus.js';
import { startEngineContext } from './engine-contexts.js';
import { openTestDatabase } from './harness.js';
import { MARKET_OPEN_AT } from './trading-helpers.js';

/**
 * What a standby engine continues from when it takes over, in one process: two engine contexts on one
 * database and one bus. The old leader stops without a word (paused or killed), so only what it stored
 * and the quotes it published are left.
 */
describe('an engine taking the lead over', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('continues the stored bars and each price from the last quote it followed, newer than the stored close', async () => {
    const database = await openTestDatabase('pglite');
    cleanups.push(() => database.close());
    await seedReferenceData(database.db);
    const clock = new ManualClock(MARKET_OPEN_AT);
    const bus = new InMemoryEventBus((error) => {
      throw error;
    });
    const engine = async () => {
      const started = await startEngineContext({ database, bus, clock });
      cleanups.push(() => started.stop());
      return started;
    };
    const old = await engine();
    const standby = await engine();
    const eurusd = old.ctx.market.getInstrumentByCode('EURUSD')!.id;

    await old.leadership.take();
    old.feed.tick('EURUSD', '1.10000');
    // Stored as the leader does every two seconds (a resignation writes them too): the close at 1.10000.
    await old.leadership.give();
    await old.leadership.take();
    clock.advance(1_000);
    old.feed.tick('EURUSD', '1.10500');
    expect(standby.ctx.market.getQuote(eurusd)?.bid).toBe('1.10500');

    // The old leader falls silent (its last tick never stored); the standby takes over.
    await standby.leadership.take();
    expect(standby.ctx.market.getQuote(eurusd)?.bid).toBe('1.10500');
    clock.advance(1_000);
    standby.feed.tick('EURUSD', '1.10600');
    const [bar] = await (standby.ctx.market as MarketEngine).klines(eurusd, '1min', 1);
    // The minute's bar goes on from the stored one (its open), with the new tick on top.
    expect(bar).toMatchObject({ Open: 1.1, Close: 1.106, High: 1.106 });
  });
});
