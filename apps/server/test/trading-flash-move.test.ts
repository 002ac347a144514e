import { CloseReason, dec, orderCharges, OrderStatus } from '@pipwise/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, orders, wallets } from '../src/db/schema.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import type { TradingService } from '../src/modules/trading/service.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

/** Accounts holding stop-losses, each with POSITIONS_EACH of them, and accounts a fall stops out. */
const STOP_LOSS_ACCOUNTS = 200;
const POSITIONS_EACH = 5;
const STOPPED_OUT_ACCOUNTS = 20;
const OPEN = '60000';
const STOP_LOSS = '59000';
/** Past every stop-loss, and past the stop-out level of the 1-lot accounts (a loss of 3,500 of their 5,000). */
const FLASH = '56000';
const LEVERAGE = 20;

/**
 * Issue 22: one tick through a thousand stop-losses and twenty accounts' stop-out levels (BTCUSD, whose
 * market never closes). Every action happens once, at the tick's price, and every balance is its
 * ledger. The positions are written straight into the database, as open positions found at a start.
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
    const guarded = await Promise.all(Array.from({ length: STOP_LOSS_ACCOUNTS }, () => server.trader({ balance: '10000' })));
    const exposed = await Promise.all(Array.from({ length: STOPPED_OUT_ACCOUNTS }, () => server.trader({ balance: '5000' })));
    // Two stop-losses of 40 each on a balance of 50: the gap takes it below zero, and the shortfall is written off.
    const overdrawn = await Promise.all(Array.from({ length: 2 }, () => server.trader({ balance: '50' })));
    const rows = [
      ...guarded.flatMap((trader) => Array.from({ length: POSITIONS_EACH }, () => position(trader.userId, '0.01', STOP_LOSS))),
      ...exposed.map((trader) => position(trader.userId, '1', null)),
      ...overdrawn.flatMap((trader) => [position(trader.userId, '0.01', STOP_LOSS), position(trader.userId, '0.01', STOP_LOSS)]),
    ];
    const db = server.database.db;
    const written = await db.insert(orders).values(rows).returning({ id: orders.id, userId: orders.userId });
    for (const trader of [...guarded, ...exposed, ...overdrawn]) server.engine.requestReload(trader.userId);
    await server.engine.settled();

    const started = performance.now();
    await server.tick('BTCUSD', FLASH);
    const took = performance.now() - started;
    console.log(`flash move on ${kind}: ${rows.length} positions closed in ${Math.round(took)} ms`);

    const closed = await db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.id,
          written.map((row) => row.id),
        ),
      );
    const exposedIds = new Set(exposed.map((trader) => trader.userId));
    const overdrawnIds = new Set(overdrawn.map((trader) => trader.userId));
    for (const order of closed) {
      expect(order.status).toBe(OrderStatus.history);
      expect(dec(order.closePrice!).eq(FLASH)).toBe(true);
      // An overdrawn account is past its stop-out level too: whichever comes first closes each position once.
      if (overdrawnIds.has(order.userId)) expect([CloseReason.stopLoss, CloseReason.stopOut]).toContain(order.closeReason);
      else expect(order.closeReason).toBe(exposedIds.has(order.userId) ? CloseReason.stopOut : CloseReason.stopLoss);
    }
    // One profit row an order: nothing closed twice.
    const postings = await db
      .select({ refId: ledgerEntries.refId, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'order'), eq(ledgerEntries.type, 'trade_profit')));
    const perOrder = new Map<number, string[]>();
    for (const posting of postings) perOrder.set(posting.refId!, [...(perOrder.get(posting.refId!) ?? []), posting.amount]);
    for (const row of written)
      expect(perOrder.get(row.id)?.map((amount) => dec(amount).toFixed(2))).toEqual([
        exposedIds.has(row.userId) ? '-4000.00' : '-40.00',
      ]);
    const balances = new Map(
      (await db.select({ userId: wallets.userId, balance: wallets.balance }).from(wallets)).map((row) => [
        row.userId,
        row.balance,
      ]),
    );
    for (const trader of guarded) expect(balances.get(trader.userId)).toBe('9800.00');
    // Stopped out with 1,000 left: the protection fired before the balance could go below zero.
    for (const trader of exposed) expect(balances.get(trader.userId)).toBe('1000.00');
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
    const asked = await Promise.all(
      Array.from({ length: 4 }, () => written.map((row) => trading.closeOnTrigger(row.id, quote))).flat(),
    );
    expect(
      asked
        .filter((closed) => closed !== null)
        .map((closed) => closed.id)
        .sort(),
    ).toEqual(written.map((row) => row.id).sort());
    const postings = await db
      .select({ refId: ledgerEntries.refId })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.type, 'trade_profit'), eq(ledgerEntries.userId, trader.userId)));
    expect(postings.map((posting) => posting.refId).sort()).toEqual(written.map((row) => row.id).sort());
    await expectLedgerInvariants(db);
  });
});
