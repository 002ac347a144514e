import { dec, OrderStatus } from '@pipwise/domain';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryEventBus } from '../../realtime/bus.js';
import type { InstrumentInfo, MarketService } from '../market/api.js';
import type { WalletService } from '../wallet/service.js';
import { RiskEngine } from './engine.js';
import type { OrderRow, TradingService, WatchedFields } from './service.js';

/**
 * New orders reach the engine as notices carrying the wallet version their write created. The engine
 * applies a notice without reading only when it watches the account at the version just before;
 * anything else (a gap, an unknown account) makes it read the account, and a notice from the past
 * changes nothing. The database is an in-memory stand-in that counts the reads.
 */
const instrument = { id: 1, code: 'EURUSD', contractSize: dec('100000') } as InstrumentInfo;
const market = {
  listInstruments: () => [instrument],
  getInstrument: () => instrument,
  getQuote: () => undefined,
  usdRate: () => dec(1),
} as unknown as MarketService;

const order = (id: number, status: number = OrderStatus.holding): WatchedFields => ({
  id,
  userId: 7,
  instrumentId: 1,
  side: 1,
  status,
  lots: '0.1',
  margin: '110.000000',
  openPrice: '1.10000',
  targetPrice: null,
  placedPrice: '1.10000',
  takeProfit: '1.20000',
  stopLoss: null,
});

describe('risk engine order notices', () => {
  let bus: InMemoryEventBus;
  let engine: RiskEngine;
  /** What the stand-in database holds for user 7. */
  let stored: { version: number; balance: string; orders: WatchedFields[] };
  let reads: number;
  /** Runs inside the next read of accounts, after its snapshot was taken (a commit racing the read). */
  let duringRead: (() => void) | null = null;

  beforeEach(async () => {
    bus = new InMemoryEventBus();
    stored = { version: 3, balance: '1000.00', orders: [order(1)] };
    reads = 0;
    engine = await startEngine();
    reads = 0;
  });
  afterEach(() => engine.stop());

  const startEngine = async () => {
    const started = new RiskEngine({
      trading: {
        settings: async () => ({ feeType: 2, stopOutLevel: dec(50), marginCallLevel: dec(100), demoStartBalance: dec(0) }),
        openOrderOwners: async () => (stored.orders.length > 0 ? [7] : []),
        openAccounts: async () => {
          reads += 1;
          const wallets = new Map([[7, { balance: stored.balance, version: stored.version }]]);
          const snapshot = [...stored.orders];
          const racing = duringRead;
          duringRead = null;
          racing?.();
          return { wallets, orders: snapshot as OrderRow[] };
        },
      } as unknown as TradingService,
      wallet: {} as WalletService,
      market,
      bus,
      log: pino({ level: 'silent' }),
      onlineUsers: () => [],
    });
    await started.start();
    await started.settled();
    return started;
  };

  const watchedIds = () =>
    engine.watch
      .ordersOf(7)
      .map((o) => o.id)
      .sort((a, b) => a - b);
  const place = (version: number, ...orders: WatchedFields[]) =>
    bus.publish('trading.changed', { userId: 7, placed: { version, balance: '999.00', orders } });

  it('reads again the accounts whose changes it heard of while loading', async () => {
    await engine.stop();
    // An order placed on a gateway while a new engine loads: its notice arrives after the load's read.
    duringRead = () => {
      stored = { version: 4, balance: '999.00', orders: [order(1), order(9)] };
      place(4, order(9));
    };
    engine = await startEngine();
    expect(reads).toBe(2);
    expect(watchedIds()).toEqual([1, 9]);
  });

  it('loads an account at its version, then applies the next notices without reading', async () => {
    expect(reads).toBe(0);
    place(4, order(2));
    place(5, order(3), order(4));
    place(6, order(5));
    await engine.settled();
    expect(reads).toBe(0);
    expect(watchedIds()).toEqual([1, 2, 3, 4, 5]);
    expect(engine.watch.balanceOf(7)).toBe('999.00');
    // The new order's take-profit is in the book at once.
    expect(engine.watch.levels(1)?.bidRise.filter(({ level }) => level === 1.2)).toHaveLength(5);
  });

  it("applies its own batch's closes without reading when it watches the version the batch found", async () => {
    place(4, order(2), order(3));
    const close = (from: number, version: number, orderIds: number[]) =>
      bus.publish('trading.changed', { userId: 7, closed: { from, version, balance: '1040.00', orderIds } });
    close(4, 7, [2]);
    await engine.settled();
    expect(reads).toBe(0);
    expect(watchedIds()).toEqual([1, 3]);
    expect(engine.watch.balanceOf(7)).toBe('1040.00');
    expect(engine.watch.levels(1)?.bidRise.map(({ item }) => item.orderId)).toEqual([1, 3]);
    // Already reflected: nothing to do.
    close(5, 6, [1]);
    await engine.settled();
    expect(watchedIds()).toEqual([1, 3]);
    // A batch that found a version the engine never heard of: the account is read again.
    stored = { version: 10, balance: '1000.00', orders: [order(1)] };
    close(8, 10, [3]);
    await engine.settled();
    expect(reads).toBe(1);
    expect(watchedIds()).toEqual([1]);
  });

  it('reads again after a gap, and ignores a notice it has already seen', async () => {
    place(4, order(2));
    await engine.settled();
    expect(reads).toBe(0);

    // Version 5 (a close, say) was never heard of; the database has moved on to 6.
    stored = { version: 6, balance: '1010.00', orders: [order(2), order(6)] };
    place(6, order(6));
    await engine.settled();
    expect(reads).toBe(1);
    expect(watchedIds()).toEqual([2, 6]);

    place(6, order(6));
    place(5, order(1));
    await engine.settled();
    expect(reads).toBe(1);
    expect(watchedIds()).toEqual([2, 6]);
    expect(engine.watch.balanceOf(7)).toBe('1010.00');
  });
});
