/**
 * Risk-engine tick cost: 100,000 holding positions (BENCH_POSITIONS) across 10,000 accounts
 * (BENCH_ACCOUNTS) and 25 instruments, all in
 * the engine's memory (the real RiskEngine and PositionWatch). The database side of the actions is
 * replaced by an in-memory store here — this measures the tick path (index lookups, stop-out
 * screening, dispatch and the account reloads that follow an action), not the transactions, which
 * bench/orders measures against PostgreSQL.
 *
 *   npm run engine -w @pipwise/bench
 *
 * BENCH_POSITIONS, BENCH_ACCOUNTS, BENCH_TICKS (quiet ticks), BENCH_TRIGGER_TICKS and BENCH_SEED change the run.
 */
import { performance } from 'node:perf_hooks';
import { dec, OrderStatus, type Dec } from '@pipwise/domain';
import pino from 'pino';
import type { InstrumentInfo, MarketService, Quote } from '../apps/server/src/modules/market/api.js';
import { RiskEngine } from '../apps/server/src/modules/trading/engine.js';
import type { ActionResult, EngineAction, OrderRow, TradingService } from '../apps/server/src/modules/trading/service.js';
import type { WalletService } from '../apps/server/src/modules/wallet/service.js';
import { InMemoryEventBus } from '../apps/server/src/realtime/bus.js';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10_000);
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 100_000);
if (!(Number.isInteger(ACCOUNTS) && Number.isInteger(POSITIONS) && ACCOUNTS > 0 && POSITIONS >= ACCOUNTS))
  throw new Error('BENCH_POSITIONS and BENCH_ACCOUNTS must be whole numbers, at least one position per account');
const INSTRUMENTS = 25;
const TICKS = Number(process.env.BENCH_TICKS ?? 20_000);
let seed = Number(process.env.BENCH_SEED ?? 7);
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

const instruments: InstrumentInfo[] = Array.from({ length: INSTRUMENTS }, (_, i) => ({
  id: i + 1,
  code: `SYM${i + 1}`,
  showCode: `SYM${i + 1}`,
  name: `Symbol ${i + 1}`,
  logo: '',
  categoryId: 1,
  baseCurrency: `B${i}`,
  quoteCurrency: 'USD',
  pricePrecision: 5,
  lotStep: dec('0.01'),
  minLots: dec('0.01'),
  maxLots: dec('50'),
  contractSize: dec('1000'),
  feeRate: dec('0.001'),
  marginMode: 2,
  leverages: [100],
  spread: dec('0.0001'),
  session: 'crypto',
  enabled: true,
}));
const prices = instruments.map(() => 1);
const quotes = new Map<number, Quote>();

function quoteOf(instrumentId: number, bid: number): Quote {
  const quote: Quote = {
    instrumentId,
    code: `SYM${instrumentId}`,
    bid: bid.toFixed(5),
    ask: (bid + 0.0001).toFixed(5),
    open: '1',
    high: '1',
    low: '1',
    changePct: '0',
    volume: '0',
    time: 0,
    marketOpen: true,
  };
  quotes.set(instrumentId, quote);
  return quote;
}
for (const instrument of instruments) quoteOf(instrument.id, 1);

const market: MarketService = {
  listInstruments: () => instruments,
  getInstrument: (id) => instruments[id - 1],
  getInstrumentByCode: (code) => instruments.find((i) => i.code === code),
  getQuote: (id) => quotes.get(id),
  getTickedQuote: (id) => quotes.get(id),
  isOpen: () => true,
  usdRate: (): Dec => dec(1),
};

/** The store the stub trading service reads and "closes" in: orders by user. */
const ordersByUser = new Map<number, OrderRow[]>();
let nextId = 1;
const now = new Date(0);
for (let p = 0; p < POSITIONS; p++) {
  // By default ten positions per account on random instruments: ~3,400 accounts hold each instrument.
  const userId = Math.floor((p * ACCOUNTS) / POSITIONS) + 1;
  const instrumentId = Math.floor(random() * INSTRUMENTS) + 1;
  const side = random() < 0.5 ? 1 : 2;
  // Protective levels 3–8 % away: no tick of the no-trigger phase reaches them.
  const away = 0.03 + random() * 0.05;
  const row: OrderRow = {
    id: nextId++,
    userId,
    instrumentId,
    side,
    status: OrderStatus.holding,
    lots: '0.1',
    leverage: 100,
    targetPrice: null,
    placedPrice: '1',
    openPrice: '1.00000',
    closePrice: null,
    stopLoss: (side === 1 ? 1 - away : 1 + away).toFixed(5),
    takeProfit: (side === 1 ? 1 + away : 1 - away).toFixed(5),
    margin: '1.000000',
    fee: '0.00',
    reserved: '0',
    profit: null,
    closeReason: null,
    createdAt: now,
    openedAt: now,
    closedAt: null,
  };
  const list = ordersByUser.get(userId) ?? [];
  list.push(row);
  ordersByUser.set(userId, list);
}
const allOrders = () => [...ordersByUser.values()].flat();
let actions = 0;
let stopOuts = 0;

const byId = new Map(allOrders().map((o) => [o.id, o]));
const trading = {
  settings: async () => ({ feeType: 2, stopOutLevel: dec(50), marginCallLevel: dec(100), demoStartBalance: dec(100000) }),
  openOrderOwners: async () => [...ordersByUser.keys()],
  openAccounts: async (userIds: number[]) => ({
    wallets: new Map(userIds.map((id) => [id, { balance: '100000.00', version: 0 }])),
    orders: userIds.flatMap((id) => ordersByUser.get(id) ?? []).filter((o) => o.status !== OrderStatus.history),
  }),
  act: async (action: EngineAction): Promise<ActionResult> => {
    if (action.kind === 'stop_out') {
      stopOuts++;
      return { closed: [], filled: [] };
    }
    actions++;
    const row = byId.get(action.orderId);
    if (row) row.status = OrderStatus.history;
    return { closed: [action.orderId], filled: [] };
  },
} as unknown as TradingService;
const wallet = {
  balances: async (userIds: number[]) => new Map(userIds.map((id) => [id, { balance: '100000.00', version: 0 }])),
  changedSince: async () => ({ changed: new Map(), next: new Date().toISOString() }),
} as unknown as WalletService;

const bus = new InMemoryEventBus();
const engine = new RiskEngine({ trading, market, wallet, bus, log: pino({ level: 'silent' }), onlineUsers: () => [] });

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function phase(name: string, ticks: number, nextBid: (instrumentIndex: number, tick: number) => number) {
  const durations: number[] = [];
  const started = performance.now();
  for (let t = 0; t < ticks; t++) {
    const index = t % INSTRUMENTS;
    const quote = quoteOf(index + 1, nextBid(index, t));
    const t0 = performance.now();
    engine.onQuote(quote);
    durations.push(performance.now() - t0);
    if (t % 256 === 255) await engine.settled();
  }
  await engine.settled();
  const elapsed = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  const report = {
    phase: name,
    ticks,
    'ticks/s (incl. actions and reloads)': Math.round(ticks / elapsed),
    'p50 per tick (ms)': Number(percentile(durations, 50).toFixed(4)),
    'p99 per tick (ms)': Number(percentile(durations, 99).toFixed(4)),
    'max per tick (ms)': Number(durations[durations.length - 1]!.toFixed(3)),
    'stop-out checks queued': stopOuts,
  };
  console.log(JSON.stringify(report));
  return report;
}

const loadStarted = performance.now();
await engine.start();
console.log(
  JSON.stringify({
    positions: engine.watch.orderCount,
    accounts: engine.watch.accountCount,
    instruments: INSTRUMENTS,
    'load (ms)': Math.round(performance.now() - loadStarted),
    'RSS after load (MB)': Math.round(process.memoryUsage().rss / 2 ** 20),
  }),
);

// Warm-up, then random walks of ±0.05 % that stay far from every level.
await phase('warm-up', 2_000, (i) => (prices[i] = 1 + (random() - 0.5) * 0.001));
const quiet = await phase('no trigger', TICKS, (i) => (prices[i] = 1 + (random() - 0.5) * 0.001));

// 1 % of all positions get levels this side of the next tick: each triggering tick fires that many.
const TRIGGER_TICKS = Number(process.env.BENCH_TRIGGER_TICKS ?? 50);
const triggered = await (async () => {
  const durations: number[] = [];
  const startActions = actions;
  // From the quote until its actions and the reloads after them are done; the bench's own set-up of
  // the levels between ticks is left out.
  let wall = 0;
  for (let t = 0; t < TRIGGER_TICKS; t++) {
    const instrumentId = (t % INSTRUMENTS) + 1;
    const up = t % 2 === 0;
    // Buys take profit on a rise (bid ≥ TP), sells on a fall (ask ≤ TP).
    const candidates = allOrders().filter(
      (o) => o.instrumentId === instrumentId && o.status === OrderStatus.holding && o.side === (up ? 1 : 2),
    );
    const chosen = candidates.slice(0, Math.round(POSITIONS / 100));
    for (const row of chosen) row.takeProfit = up ? '1.00100' : '0.99900';
    for (const userId of new Set(chosen.map((r) => r.userId))) engine.requestReload(userId);
    await engine.settled();
    const quote = quoteOf(instrumentId, up ? 1.0011 : 0.9989);
    const t0 = performance.now();
    engine.onQuote(quote);
    durations.push(performance.now() - t0);
    await engine.settled();
    wall += performance.now() - t0;
    quoteOf(instrumentId, 1);
  }
  durations.sort((a, b) => a - b);
  return {
    phase: '1 % of positions triggering',
    ticks: TRIGGER_TICKS,
    'actions fired per tick': Math.round((actions - startActions) / TRIGGER_TICKS),
    'p50 per tick (ms)': Number(percentile(durations, 50).toFixed(3)),
    'p99 per tick (ms)': Number(percentile(durations, 99).toFixed(3)),
    'ticks/s (tick path only)': Math.round(1000 / (durations.reduce((a, b) => a + b, 0) / durations.length)),
    'wall time per triggering tick incl. its actions and reloads (ms)': Math.round(wall / TRIGGER_TICKS),
  };
})();
console.log(JSON.stringify(triggered));
console.log(
  `\nno trigger: ${quiet['ticks/s (incl. actions and reloads)']} ticks/s, p99 ${quiet['p99 per tick (ms)']} ms per tick (goal < 0.1 ms)`,
);
console.log(
  `1 % triggering: p99 ${triggered['p99 per tick (ms)']} ms per tick, ${triggered['actions fired per tick']} actions per tick`,
);
await engine.stop();
