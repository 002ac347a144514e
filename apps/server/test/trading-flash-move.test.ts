import { CloseReason, dec, orderCharges, OrderStatus } from '@pipwise/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, orders, wallets } from '../src/db/schema.js';
import { createTraders, expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import type { TradingService } from '../src/modules/trading/service.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

/** Accounts holding stop-losses, each with POSITIONS_EACH of them, and accounts a fall stops out. */
const STOP_LOSS_ACCOUNTS = 1_000;
const POSITIONS_EACH = 5;
const STOPPED_OUT_ACCOUNTS = 200;
const OPEN = '60000';
const STOP_LOSS = '59000';
/**
 * Past every stop-loss, and past the stop-out level of the exposed accounts: each holds L lots on a
 * balance of 5,000 × L, loses 4,000 × L and keeps 1,000 × L of equity against a margin of 3,000 × L.
 */
const FLASH = '56000';
const LEVERAGE = 20;
/** The second test: two ticks in a row, the second while the first's batches are still being written. */
const STEPPED_ACCOUNTS = 300;
const LATE_STOP_OUTS = 20;
const BEFORE_TICKS = '56000';
const FIRST_STOP = '55000';
const SECOND_STOP = '54000';
const FIRST_TICK = '54500';
const SECOND_TICK = '53500';

/**
 * Issue 22: one tick through five thousand stop-losses and two hundred accounts' stop-out levels
 * (BTCUSD, whose market never closes). Every action happens once, at the tick's price, stop-outs before
 * stop-losses and the largest loss first, and every balance is its ledger. The positions are written
 * straight into the database, as open positions found at a start.
 */
describe.each(DB_KINDS)('a flash move on %s', (kind) => {
  let server: TradingServer;
  beforeAll(async () => {
    server = await startTradingServer(kind);
    await server.tick('BTCUSD', OPEN);
  }, 120_000);
  afterAll(() => server.close());

  it('closes every stop-loss and stops out every account it reaches, each once, at the tick’s price', async () => {
    const instrument = server.market.getInstrumentByCode('BTCUSD')!;
    const opened = server.manualClock.now();
    const position = (userId: number, lots: string, stopLoss: string | null) => ({
      userId,
      instrumentId: instrument.id,
      side: 1,
      status: OrderStatus.holding,
      lots,
      leverage: LEVERAGE,
      placedPrice: OPEN,
      openPrice: OPEN,
      stopLoss,
      margin: orderCharges({
        contractSize: instrument.contractSize,
        marginMode: instrument.marginMode,
        usdRate: dec(1),
        feeType: 2,
        feeRate: instrument.feeRate,
        lots: dec(lots),
        price: dec(OPEN),
        leverage: LEVERAGE,
      }).margin.toFixed(6),
      fee: '0',
      openedAt: opened,
    });
    const db = server.database.db;
    const guarded = await createTraders(db, Array<string>(STOP_LOSS_ACCOUNTS).fill('10000'));
    // Sizes 1.00 to 2.99 lots, handed out out of order so that the order of the stop-outs is the engine's.
    const exposedLots = Array.from({ length: STOPPED_OUT_ACCOUNTS }, (_, i) =>
      dec(1).plus(dec((i * 7919) % STOPPED_OUT_ACCOUNTS).div(100)),
    );
    const exposed = (
      await createTraders(
        db,
        exposedLots.map((lots) => lots.times(5000).toFixed(2)),
      )
    ).map((trader, i) => ({ ...trader, lots: exposedLots[i]! }));
    // Two stop-losses of 40 each on a balance of 50: the gap takes it below zero, and the shortfall is written off.
    const overdrawn = await createTraders(db, ['50', '50']);
    const rows = [
      ...guarded.flatMap((trader) => Array.from({ length: POSITIONS_EACH }, () => position(trader.userId, '0.01', STOP_LOSS))),
      ...exposed.map((trader) => position(trader.userId, trader.lots.toFixed(2), null)),
      ...overdrawn.flatMap((trader) => [position(trader.userId, '0.01', STOP_LOSS), position(trader.userId, '0.01', STOP_LOSS)]),
    ];
    const written: { id: number; userId: number }[] = [];
    for (let start = 0; start < rows.length; start += 1_000)
      written.push(
        ...(await db
          .insert(orders)
          .values(rows.slice(start, start + 1_000))
          .returning({ id: orders.id, userId: orders.userId })),
      );
    for (const trader of [...guarded, ...exposed, ...overdrawn]) server.engine.requestReload(trader.userId);
    await server.engine.settled();

    const started = performance.now();
    await server.tick('BTCUSD', FLASH);
    const took = performance.now() - started;
    console.log(`flash move on ${kind}: ${rows.length} positions closed in ${Math.round(took)} ms`);

    const exposedLotsOf = new Map(exposed.map((trader) => [trader.userId, trader.lots]));
    const overdrawnIds = new Set(overdrawn.map((trader) => trader.userId));
    // Checked as a whole and compared once: what differs is listed, so a failure says which and why.
    const wrongCloses = (await db.select().from(orders).where(eq(orders.status, OrderStatus.history)))
      .filter((order) => {
        if (order.status !== OrderStatus.history || !dec(order.closePrice!).eq(FLASH)) return true;
        // An overdrawn account is past its stop-out level too: whichever comes first closes each position once.
        if (overdrawnIds.has(order.userId))
          return order.closeReason !== CloseReason.stopLoss && order.closeReason !== CloseReason.stopOut;
        return order.closeReason !== (exposedLotsOf.has(order.userId) ? CloseReason.stopOut : CloseReason.stopLoss);
      })
      .map((order) => ({ id: order.id, status: order.status, closePrice: order.closePrice, reason: order.closeReason }));
    expect(wrongCloses).toEqual([]);
    expect((await db.select({ id: orders.id }).from(orders).where(eq(orders.status, OrderStatus.holding))).length).toBe(0);
    // One profit row an order, of the loss at the tick's price: nothing closed twice.
    const postings = await db
      .select({ userId: ledgerEntries.userId, refId: ledgerEntries.refId, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'order'), eq(ledgerEntries.type, 'trade_profit')))
      .orderBy(ledgerEntries.id);
    const perOrder = new Map<number, string[]>();
    for (const posting of postings)
      perOrder.set(posting.refId!, [...(perOrder.get(posting.refId!) ?? []), dec(posting.amount).toFixed(2)]);
    const wrongProfits = written.flatMap((row) => {
      const lots = exposedLotsOf.get(row.userId);
      const expected = [lots ? lots.times(-4000).toFixed(2) : '-40.00'];
      const got = perOrder.get(row.id) ?? [];
      return got.join() === expected.join() ? [] : [{ id: row.id, expected, got }];
    });
    expect(wrongProfits).toEqual([]);
    expect(postings.length).toBe(written.length);
    // In the order written: every stop-out before any stop-loss, and the largest loss first.
    const stopOutRows = postings.filter((posting) => exposedLotsOf.has(posting.userId));
    expect(stopOutRows.length).toBe(STOPPED_OUT_ACCOUNTS);
    expect(postings.slice(0, STOPPED_OUT_ACCOUNTS)).toEqual(stopOutRows);
    const lossesInOrder = stopOutRows.map((posting) => dec(posting.amount).toNumber());
    expect(lossesInOrder).toEqual([...lossesInOrder].sort((a, b) => a - b));
    const balances = new Map(
      (await db.select({ userId: wallets.userId, balance: wallets.balance }).from(wallets)).map((row) => [
        row.userId,
        row.balance,
      ]),
    );
    const expectedBalances = [
      ...guarded.map((trader) => [trader.userId, '9800.00']),
      // Stopped out with 1,000 a lot left: the protection fired before the balance could go below zero.
      ...exposed.map((trader) => [trader.userId, trader.lots.times(1000).toFixed(2)]),
    ];
    expect(expectedBalances.filter(([userId, balance]) => balances.get(userId as number) !== balance)).toEqual([]);
    const writtenOff = await db
      .select({ userId: ledgerEntries.userId, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.type, 'write_off'));
    for (const trader of overdrawn) {
      expect(balances.get(trader.userId)).toBe('0.00');
      expect(writtenOff.filter((row) => row.userId === trader.userId).map((row) => dec(row.amount).toFixed(2))).toEqual([
        '30.00',
      ]);
    }
    await expectLedgerInvariants(db);
  }, 300_000);

  it('keeps a later tick’s actions behind an earlier tick’s batches: each at its own tick’s price, once, in order', async () => {
    const instrument = server.market.getInstrumentByCode('BTCUSD')!;
    const db = server.database.db;
    await server.tick('BTCUSD', BEFORE_TICKS);
    const holding = (userId: number, lots: string, stopLoss: string | null) => ({
      userId,
      instrumentId: instrument.id,
      side: 1,
      status: OrderStatus.holding,
      lots,
      leverage: LEVERAGE,
      placedPrice: BEFORE_TICKS,
      openPrice: BEFORE_TICKS,
      stopLoss,
      margin: dec(lots).times(BEFORE_TICKS).div(LEVERAGE).toFixed(6),
      fee: '0',
      openedAt: server.manualClock.now(),
    });
    // Each of these holds five stop-losses the first tick reaches (1,500: three batches) and one only the second reaches.
    const stepped = await createTraders(db, Array<string>(STEPPED_ACCOUNTS).fill('10000'));
    // Stopped out by the second tick only: 3,500 a lot keeps 2,000 a lot at the first tick, 1,000 at the second.
    const exposed = await createTraders(db, Array<string>(LATE_STOP_OUTS).fill('3500.00'));
    const rows = [
      ...stepped.flatMap((trader) => [
        ...Array.from({ length: POSITIONS_EACH }, () => holding(trader.userId, '0.01', FIRST_STOP)),
        holding(trader.userId, '0.01', SECOND_STOP),
      ]),
      ...exposed.map((trader) => holding(trader.userId, '1.00', null)),
    ];
    const written = await db
      .insert(orders)
      .values(rows)
      .returning({ id: orders.id, userId: orders.userId, stopLoss: orders.stopLoss });
    for (const trader of [...stepped, ...exposed]) server.engine.requestReload(trader.userId);
    await server.engine.settled();

    // The second tick comes once the first tick's first batch has committed: the rest of it is still queued.
    const firstCommitted = new Promise<void>((resolve) => {
      const off = server.ctx.bus.subscribe('trading.order_outcomes', () => {
        off();
        resolve();
      });
    });
    server.feed.tick('BTCUSD', FIRST_TICK);
    await firstCommitted;
    server.feed.tick('BTCUSD', SECOND_TICK);
    await server.engine.settled();

    const closed = new Map(
      (
        await db
          .select()
          .from(orders)
          .where(
            inArray(
              orders.id,
              written.map((row) => row.id),
            ),
          )
      ).map((order) => [order.id, order]),
    );
    const exposedIds = new Set(exposed.map((trader) => trader.userId));
    const expected = (row: (typeof written)[number]) =>
      exposedIds.has(row.userId)
        ? { price: SECOND_TICK, reason: CloseReason.stopOut }
        : { price: row.stopLoss && dec(row.stopLoss).eq(FIRST_STOP) ? FIRST_TICK : SECOND_TICK, reason: CloseReason.stopLoss };
    const wrong = written.flatMap((row) => {
      const order = closed.get(row.id)!;
      const want = expected(row);
      const right =
        order.status === OrderStatus.history &&
        dec(order.closePrice ?? 'NaN').eq(want.price) &&
        order.closeReason === want.reason;
      return right
        ? []
        : [{ id: row.id, want, got: { status: order.status, price: order.closePrice, reason: order.closeReason } }];
    });
    expect(wrong).toEqual([]);
    const postings = await db
      .select({ id: ledgerEntries.id, userId: ledgerEntries.userId, refId: ledgerEntries.refId })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.type, 'trade_profit'),
          inArray(
            ledgerEntries.refId,
            written.map((row) => row.id),
          ),
        ),
      )
      .orderBy(ledgerEntries.id);
    // Once each.
    expect(postings.map((posting) => posting.refId).sort((a, b) => a! - b!)).toEqual(written.map((row) => row.id));
    // An account's close of the first tick before its close of the second; the second tick's stop-outs
    // after every close of the first, though stop-outs go first within a tick.
    const firstTickIds = new Set(written.filter((row) => expected(row).price === FIRST_TICK).map((row) => row.id));
    const lastOfFirst = Math.max(...postings.filter((posting) => firstTickIds.has(posting.refId!)).map((posting) => posting.id));
    const early = postings.filter((posting) => !firstTickIds.has(posting.refId!) && posting.id < lastOfFirst);
    const stepsOutOfOrder = early.filter((posting) => {
      if (exposedIds.has(posting.userId)) return true;
      const mine = postings.filter((other) => other.userId === posting.userId && firstTickIds.has(other.refId!));
      return mine.some((other) => other.id > posting.id);
    });
    expect(stepsOutOfOrder).toEqual([]);
    await expectLedgerInvariants(db);
  }, 300_000);

  it('closes an order once however often its trigger is asked for at once, in one batch or in several', async () => {
    const instrument = server.market.getInstrumentByCode('BTCUSD')!;
    const trader = await server.trader({ balance: '10000' });
    // Written after the engine's load and never announced: only the calls below close them.
    const db = server.database.db;
    const written = await db
      .insert(orders)
      .values(
        Array.from({ length: 3 }, () => ({
          userId: trader.userId,
          instrumentId: instrument.id,
          side: 1,
          status: OrderStatus.holding,
          lots: '0.01',
          leverage: LEVERAGE,
          placedPrice: FLASH,
          openPrice: FLASH,
          stopLoss: '55500',
          margin: '28',
          fee: '0',
          openedAt: server.manualClock.now(),
        })),
      )
      .returning({ id: orders.id });
    const trading = (server.ctx.modules.find((module) => module.name === 'trading') as unknown as { service: TradingService })
      .service;
    const quote = { ...server.market.getQuote(instrument.id)!, bid: '55000', ask: '55010' };
    const ask = () => written.map((row) => trading.act({ kind: 'stop_loss', userId: trader.userId, orderId: row.id, quote }));
    // Twice together (one batch), then twice more after a yield (a later batch).
    const together = [...ask(), ...ask()];
    await Promise.resolve();
    const asked = await Promise.all([...together, ...ask(), ...ask()]);
    expect(asked.flatMap((result) => result.closed).sort()).toEqual(written.map((row) => row.id).sort());
    const postings = await db
      .select({ refId: ledgerEntries.refId })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.type, 'trade_profit'), eq(ledgerEntries.userId, trader.userId)));
    expect(postings.map((posting) => posting.refId).sort()).toEqual(written.map((row) => row.id).sort());
    await expectLedgerInvariants(db);
  });
});
