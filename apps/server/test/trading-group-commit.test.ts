import { ApiPath } from '@pipwise/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/clock.js';
import type { Database } from '../src/db/client.js';
import { orders } from '../src/db/schema.js';
import type { TradingService } from '../src/modules/trading/service.js';
import { WalletService } from '../src/modules/wallet/service.js';
import { InMemoryEventBus } from '../src/realtime/bus.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS, openTestDatabase, startTestServer } from './harness.js';
import { MARKET_OPEN_AT, tradingServer, type TradingServer } from './trading-helpers.js';

const INSUFFICIENT = 'Insufficient free margin for this order';

/**
 * Orders are written in batches without a lock, checked against what each server last knew of the
 * account, and applied only where the wallet's version proves nothing changed since. These tests
 * change accounts behind a server's back — from a second server on the same database and from
 * outside the order path — and require every decision to be the one a fresh, locked read would give.
 */
describe.each(DB_KINDS)('group-committed orders on %s', (kind) => {
  let database: Database;
  let bus: InMemoryEventBus;
  let first: TradingServer;
  let second: TradingServer;
  let eurusd: number;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    bus = new InMemoryEventBus();
    const clock = new ManualClock(MARKET_OPEN_AT);
    first = tradingServer(await startTestServer(kind, { database, bus, clock }), clock);
    second = tradingServer(await startTestServer(kind, { database, bus, clock }), clock);
    eurusd = first.instrumentId('EURUSD');
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await bus?.close();
    await database?.close();
  });
  afterEach(async () => {
    await first.engine.settled();
    await second.engine.settled();
    await expectLedgerInvariants(database.db);
  });

  const heldBy = (userId: number) => database.db.select().from(orders).where(eq(orders.userId, userId));
  const oneLot = { type: 1, cont: '1', forex_id: 0, status: 1, multiple: 500 };

  it('two servers placing for one account never spend the same margin twice', async () => {
    await first.tick('EURUSD', '1.10000');
    await second.tick('EURUSD', '1.10000');
    const trader = await first.trader({ balance: '1000' });
    const body = { ...oneLot, forex_id: eurusd };
    // Each server has placed for the account, so each remembers it; then each goes stale in turn.
    expect((await first.submit(trader, body)).code).toBe(1);
    expect((await second.submit(trader, body)).code).toBe(1);
    expect((await first.submit(trader, body)).code).toBe(1);
    // Margin 220.016 + fee 1.10 each, and the spread costs 8 at once: a fourth fits in 1000, no fifth.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? first : second).submit(trader, body)),
    );
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.code !== 1).map((a) => a.msg)).toEqual(Array(5).fill(INSUFFICIENT));
    expect(await heldBy(trader.userId)).toHaveLength(4);
    expect((await first.wallet(trader.userId)).balance).toBe('995.60');
  });

  it('money moved outside the order path is seen by the next order, whichever way it moved', async () => {
    await first.tick('EURUSD', '1.10000');
    const trader = await first.trader({ balance: '300' });
    const wallet = new WalletService(database.db);
    const move = (amount: string, type: 'deposit' | 'withdrawal') =>
      database.db.transaction((tx) => wallet.post(tx, { userId: trader.userId, amount, type }));
    const body = { ...oneLot, forex_id: eurusd };

    expect((await first.submit(trader, body)).code).toBe(1);
    expect(await first.submit(trader, body)).toMatchObject({ code: 1002, msg: INSUFFICIENT });
    // A deposit the server did not make: refusing on what it remembers would be wrong now.
    await move('200', 'deposit');
    expect((await first.submit(trader, body)).code).toBe(1);
    // A withdrawal it did not make: what it remembers would still fit a 0.1 lot; the account does not.
    await move('-100', 'withdrawal');
    expect(await first.submit(trader, { ...body, cont: '0.1' })).toMatchObject({ code: 1002, msg: INSUFFICIENT });

    expect(await heldBy(trader.userId)).toHaveLength(2);
    // 300 − 1.10 + 200 − 1.10 − 100
    expect((await first.wallet(trader.userId)).balance).toBe('397.80');
    const detail = await first.call<{ available_prepayment: number }>('GET', ApiPath.forexDetail, { token: trader.token });
    expect(detail.data.available_prepayment).toBeLessThan(0);
  });

  it('orders of one account in one batch are each checked against the orders before them', async () => {
    await first.tick('EURUSD', '1.10000');
    const trader = await first.trader({ balance: '1000' });
    const body = { ...oneLot, forex_id: eurusd };
    const trading = (first.ctx.modules.find((m) => m.name === 'trading') as unknown as { service: TradingService }).service;
    // The session, the account's freezes and the trading settings are read now (an order refused for its
    // lots reads the freezes first), so that queued orders need nothing from the database.
    expect((await first.call('GET', ApiPath.getBalance, { token: trader.token })).code).toBe(1);
    expect((await first.submit(trader, { ...body, cont: '0.001' })).code).toBe(1001);
    expect((await first.submit(await first.trader({ balance: '1000' }), body)).code).toBe(1);
    // A transaction holding the wallet's row (all of PGlite) keeps the first batch from committing
    // while the others queue behind it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1 FROM wallets WHERE user_id = ${trader.userId} FOR UPDATE`);
      locked();
      await held;
    });
    let answers: Awaited<ReturnType<TradingServer['submit']>>[];
    try {
      await lockTaken;
      const leading = first.submit(trader, body);
      await vi.waitFor(() => expect(trading.placingState.writing).toBe(1));
      const followers = Array.from({ length: 9 }, () => first.submit(trader, body));
      await vi.waitFor(() => expect(trading.placingState).toEqual({ writing: 1, waiting: 9 }));
      release();
      answers = await Promise.all([leading, ...followers]);
    } finally {
      release();
      await holder;
    }
    // As alone: margin 220.016 + fee 1.10 each, and the spread costs 8 at once; four fit in 1000.
    expect(answers.filter((a) => a.code === 1)).toHaveLength(4);
    expect(answers.filter((a) => a.code !== 1).map((a) => a.msg)).toEqual(Array(6).fill(INSUFFICIENT));
    expect(await heldBy(trader.userId)).toHaveLength(4);
  });

  it('a batch mixing accounts and refusals answers each order on its own', async () => {
    await first.tick('EURUSD', '1.10000');
    const rich = await first.trader({ balance: '100000' });
    const poor = await first.trader({ balance: '50' });
    const body = { ...oneLot, forex_id: eurusd };
    const answers = await Promise.all([
      first.submit(rich, body),
      first.submit(poor, body),
      first.submit(rich, { ...body, cont: '0.001' }),
      first.submit(rich, body, { 'idempotency-key': 'batch-mixed-1' }),
      first.submit(rich, body, { 'idempotency-key': 'batch-mixed-1' }),
    ]);
    expect(answers.map((a) => a.code)).toEqual([1, 1002, 1001, 1, 1]);
    expect((answers[3].data as { Id: number }).Id).toBe((answers[4].data as { Id: number }).Id);
    expect(await heldBy(rich.userId)).toHaveLength(2);
    expect(await heldBy(poor.userId)).toHaveLength(0);
    expect((await first.wallet(poor.userId)).balance).toBe('50.00');
  });
});
