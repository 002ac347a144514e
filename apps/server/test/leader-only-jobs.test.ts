import { randomBytes } from 'node:crypto';
import { DepositStatus, SocketTopic, type DayMarketView } from '@pipwise/domain';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { rowsOf } from '../src/db/rows.js';
import { depositChannels, deposits, uploads } from '../src/db/schema.js';
import { seedReferenceData } from '../src/db/seed.js';
import { SESSION_CHECK_MS } from '../src/modules/market/service.js';
import { InMemoryEventBus } from '../src/realtime/bus.js';
import { startEngineContext } from './engine-contexts.js';
import { createTrader } from './factories.js';
import { openTestDatabase } from './harness.js';
import { MARKET_OPEN_AT } from './trading-helpers.js';

const DAY_MS = 86_400_000;

/**
 * Periodic jobs that must run once per cluster run on the engine leader only: two engine processes'
 * modules on one database and one bus (the cluster's Redis), one of them leading. Before, every engine
 * process swept expired deposits, and every process (gateways too) told clients of a session closing.
 */
describe('periodic jobs of the cluster', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function cluster() {
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
    return { db: database.db, clock, bus, engine };
  }

  it('the deposit-expiry sweep: a standby leaves a stale record alone; it expires it as it takes the lead', async () => {
    const { db, clock, engine } = await cluster();
    // The first engine seeds the channels; neither leads yet.
    const first = await engine();
    // A record left unchecked longer than deposit_expiry_days (7 by default).
    const trader = await createTrader(db);
    const [channel] = await db.select().from(depositChannels).limit(1);
    const uploadId = randomBytes(16).toString('base64url').slice(0, 22);
    await db.insert(uploads).values({
      id: uploadId,
      userId: trader.userId,
      mimeType: 'image/png',
      bytes: 1,
      width: 1,
      height: 1,
      sha256: '',
      data: Buffer.from([0]),
    });
    const [stale] = await db
      .insert(deposits)
      .values({
        userId: trader.userId,
        channelId: channel!.id,
        type: channel!.type,
        currencyCode: channel!.currencyCode,
        payTo: 'pay-to',
        amount: '100.00',
        proofUploadId: uploadId,
        createdAt: new Date(clock.now().getTime() - 8 * DAY_MS),
      })
      .returning({ id: deposits.id });
    const statusOf = async () =>
      (await db.select({ status: deposits.status }).from(deposits).where(eq(deposits.id, stale!.id)))[0]?.status;

    await engine();
    expect(await statusOf(), 'a standby engine does not sweep at its start').toBe(DepositStatus.unchecked);

    await first.leadership.take();
    expect(await statusOf(), 'the new leader sweeps as it takes the lead').toBe(DepositStatus.invalid);
    const events = rowsOf(
      await db.execute(sql`SELECT status FROM cashier_events WHERE ref_type = 'deposit' AND ref_id = ${stale!.id}`),
    );
    expect(events).toEqual([{ status: DepositStatus.invalid }]);
  });

  it('a session closing: clients hear it once, from the leader, not once per process', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { clock, bus, engine } = await cluster();
    const leader = await engine();
    await engine();
    await leader.leadership.take();
    const eurusd = leader.ctx.market.getInstrumentByCode('EURUSD')!;
    const statuses: number[] = [];
    bus.subscribe('realtime.topic', ({ topic, data }) => {
      const view = data as DayMarketView;
      if (topic === SocketTopic.dayMarket && view.symbol === eurusd.code) statuses.push(view.status);
    });

    // Saturday noon: forex is closed; one round of every process's timers.
    clock.advance(3 * DAY_MS);
    expect(leader.ctx.market.isOpen(eurusd.id)).toBe(false);
    vi.advanceTimersByTime(SESSION_CHECK_MS);
    expect(statuses).toEqual([0]);
  });
});
