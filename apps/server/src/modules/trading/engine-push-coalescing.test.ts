import { dec, OrderStatus } from '@pipwise/domain';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryEventBus } from '../../realtime/bus.js';
import type { InstrumentInfo, MarketService, Quote } from '../market/api.js';
import type { WalletService } from '../wallet/service.js';
import { RiskEngine } from './engine.js';
import type { OrderRow, TradingService } from './service.js';

/**
 * FOREX_TRADE is sent in rounds (one every PUSH_INTERVAL_MS = 250 ms, hence at most 4 a second per
 * user): however many ticks arrive between two rounds, a logged-in owner gets one push with the latest
 * figures, and nothing when their prices did not move. The database side is an in-memory stand-in here;
 * the integration suites run the real one.
 */
const instrument = {
  id: 1,
  code: 'EURUSD',
  showCode: 'EUR/USD',
  quoteCurrency: 'USD',
  pricePrecision: 5,
  contractSize: dec('100000'),
} as InstrumentInfo;
const quotes = new Map<number, Quote>();
const quote = (bid: string, ask: string): Quote => {
  const q = {
    instrumentId: 1,
    code: 'EURUSD',
    bid,
    ask,
    open: bid,
    high: bid,
    low: bid,
    changePct: '0',
    volume: '0',
    time: 0,
    marketOpen: true,
  };
  quotes.set(1, q);
  return q;
};
const market = {
  listInstruments: () => [instrument],
  getInstrument: () => instrument,
  getQuote: (id: number) => quotes.get(id),
  usdRate: () => dec(1),
} as unknown as MarketService;
const position = {
  id: 41,
  userId: 7,
  instrumentId: 1,
  side: 1,
  status: OrderStatus.holding,
  lots: '0.1',
  leverage: 100,
  openPrice: '1.10000',
  placedPrice: '1.10000',
  targetPrice: null,
  takeProfit: null,
  stopLoss: null,
  margin: '110.000000',
} as OrderRow;

describe('FOREX_TRADE coalescing', () => {
  let engine: RiskEngine;
  afterEach(() => engine.stop());

  it('sends one push per round with the latest prices, only to logged-in owners, only when something moved', async () => {
    const bus = new InMemoryEventBus();
    const pushes: { userId: number; topic: string; data: unknown }[] = [];
    bus.subscribe('realtime.user', (event) => pushes.push(event));
    let online: number[] = [];
    engine = new RiskEngine({
      trading: {
        settings: async () => ({ feeType: 2, stopOutLevel: dec(50), marginCallLevel: dec(100), demoStartBalance: dec(0) }),
        openOrderOwners: async () => [7],
        openAccounts: async () => ({ wallets: new Map([[7, { balance: '1000.00', version: 1 }]]), orders: [position] }),
      } as unknown as TradingService,
      wallet: {} as WalletService,
      market,
      bus,
      log: pino({ level: 'silent' }),
      onlineUsers: () => online,
    });
    quote('1.10000', '1.10008');
    await engine.start();

    for (const bid of ['1.10010', '1.10020', '1.10050']) engine.onQuote(quote(bid, '1.10060'));
    engine.pushRound();
    expect(pushes).toEqual([]); // nobody logged in

    online = [7];
    for (const bid of ['1.10060', '1.10080', '1.10100']) engine.onQuote(quote(bid, '1.10108'));
    engine.pushRound();
    expect(pushes).toEqual([
      {
        userId: 7,
        topic: 'FOREX_TRADE',
        data: {
          ProfitsTotal: 10,
          HazardRate: 10.89,
          CautionMoneyAll: 110,
          TransOrder: [{ Id: 41, UpdatePrice: 1.101, FactProfits: 10 }],
        },
      },
    ]);
    engine.pushRound();
    expect(pushes).toHaveLength(1); // no tick since the last round
  });
});
