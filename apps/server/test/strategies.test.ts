import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { idempotencyKeys, orders, strategyAccounts, users } from '../src/db/schema.js';
import { createAccountsModule } from '../src/modules/accounts/module.js';
import type { MarketEngine } from '../src/modules/market/service.js';
import { createStrategiesModule, type AutomatedProviders } from '../src/modules/strategies/module.js';
import type { TradingService } from '../src/modules/trading/service.js';
import { WalletService } from '../src/modules/wallet/service.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS, startTestServer } from './harness.js';
import { tradingServer, type TradingServer } from './trading-helpers.js';

/** Tuesday 23:30 UTC: gold (a CFD) trades from 23:00 until its daily break at 22:00 the next day. */
const START = Date.parse('2026-11-17T23:30:00Z');
const HOUR = 3_600_000;

/**
 * The breakout strategy on gold, on a crafted series of hourly bars fed through the manual feed: it trades
 * its demo account through the trading service, a restart that decides the same bar again trades nothing
 * more, and with `copy_strategies_enabled` off it closes what it holds and opens nothing.
 */
describe.each(DB_KINDS)('automated strategies on %s', (kind) => {
  let server: TradingServer;
  let clock: ManualClock;
  const stops: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    clock = new ManualClock(START);
    server = tradingServer(await startTestServer(kind, { clock }), clock);
  });
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    await expectLedgerInvariants(server.database.db);
    await server.close();
  });

  /** The module as the server would run it on the simulated feed, with a recording copy service. */
  async function startStrategies(options: { listingFailures?: number } = {}) {
    let failures = options.listingFailures ?? 0;
    const listed: Parameters<AutomatedProviders['becomeProvider']>[] = [];
    const submits: (string | undefined)[] = [];
    const trading = (server.ctx.modules.find((module) => module.name === 'trading') as unknown as { service: TradingService })
      .service;
    const accounts = createAccountsModule(server.ctx, {
      wallet: new WalletService(server.database.db),
      settings: server.ctx.settings,
    }).service;
    const strategies = createStrategiesModule(
      server.ctx,
      {
        accounts,
        trading: {
          ...bound(trading, ['close', 'setStops', 'holdingOrders', 'figures', 'settings']),
          submit: (userId, body, key) => {
            submits.push(key);
            return trading.submit(userId, body, key);
          },
        },
        market: server.ctx.market as MarketEngine,
        settings: server.ctx.settings,
        providers: {
          becomeProvider: async (...call) => {
            if (failures-- > 0) throw new Error('copy service unavailable');
            listed.push(call);
          },
        },
        leadership: server.ctx.leadership,
      },
      { simulatedFeed: true },
    );
    await strategies.module.start!();
    stops.push(() => strategies.module.stop!());
    return { ...strategies, listed, submits };
  }

  /**
   * A tick of gold `hours` after the start, once the engine and the strategies have acted on it, and the
   * engine has taken in what the strategies placed.
   */
  async function goldAt(hours: number, bid: string, strategies: { service: { settled(): Promise<void> } }) {
    clock.set(START + hours * HOUR);
    await server.tick('XAUUSD', bid);
    await strategies.service.settled();
    await server.engine.settled();
  }

  /** Twenty hourly bars at 4,000, then one closing at 4,010: a close above the 20-bar high. */
  async function breakOut(strategies: { service: { settled(): Promise<void> } }) {
    for (let hour = 0; hour < 20; hour++) await goldAt(hour, '4000.00', strategies);
    await goldAt(20, '4010.00', strategies);
    // The first tick of the next hour closes the 4,010 bar: the strategy decides and buys.
    await goldAt(21, '4012.00', strategies);
  }

  const ordersOf = (userId: number) => server.database.db.select().from(orders).where(eq(orders.userId, userId));
  const breakoutAccount = async () =>
    (await server.database.db.select().from(strategyAccounts).where(eq(strategyAccounts.strategy, 'breakout')))[0]!.userId;

  it('makes a demo account per strategy, lists it as automated, and trades the breakout through the trading service', async () => {
    const strategies = await startStrategies();
    expect(strategies.listed.map(([, profile, options]) => [profile.nickname, profile.fee_pct, options.automated])).toEqual([
      ['Trend Follower BTC', 0, true],
      ['Mean Reversion EUR', 0, true],
      ['Breakout Gold', 0, true],
    ]);
    const userId = await breakoutAccount();
    const [account] = await server.database.db.select().from(users).where(eq(users.id, userId));
    expect(account!.isDemo).toBe(1);
    expect(strategies.listed[2]![0]).toBe(userId);

    await breakOut(strategies);
    const placed = await ordersOf(userId);
    expect(placed).toHaveLength(1);
    // A buy at the ask 4,012.25: 100,000 of equity ÷ (4,012.25 × 100 per lot) = 0.249… lots → 0.24, at the highest
    // leverage offered (200); margin 0.24 × 100 × 4,012.25 ÷ 200 = 481.47, fee 0.5 % = 2.41. The stop loss is the
    // lowest low of the last 10 bars (4,000); no take profit.
    expect(placed[0]).toMatchObject({
      instrumentId: server.instrumentId('XAUUSD'),
      side: 1,
      status: 1,
      leverage: 200,
      takeProfit: null,
    });
    expect([placed[0]!.lots, placed[0]!.openPrice, placed[0]!.stopLoss, placed[0]!.margin, placed[0]!.fee].map(Number)).toEqual([
      0.24, 4012.25, 4000, 481.47, 2.41,
    ]);
    const barTime = (START + 20 * HOUR - 30 * 60_000) / 1000;
    const keys = await server.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
    expect(keys.map((key) => key.key)).toEqual([`strategy:breakout:${barTime}:open`]);

    // Through the stop loss: the engine closes it, as any trader's.
    await goldAt(21.25, '3999.00', strategies);
    expect((await ordersOf(userId))[0]).toMatchObject({ status: 3, closeReason: 'stop_loss' });
  });

  it('moves the levels of a held position as its signal moves them', async () => {
    const strategies = await startStrategies();
    const euroAt = async (hours: number, bid: string) => {
      clock.set(START + hours * HOUR);
      await server.tick('EURUSD', bid);
      await strategies.service.settled();
      await server.engine.settled();
    };
    // Mean reversion: 4 bars at 1.0950, 15 at 1.0980, then 1.0900: mean 1.0970, σ 0.0020, z −3.5. It buys at the
    // next tick, taking profit at the mean and stopping at z −4: 1.0970 − 4 × 0.0020 = 1.0890.
    for (let hour = 0; hour < 4; hour++) await euroAt(hour, '1.09500');
    for (let hour = 4; hour < 19; hour++) await euroAt(hour, '1.09800');
    await euroAt(19, '1.09000');
    await euroAt(20, '1.09050');
    const userId = (
      await server.database.db.select().from(strategyAccounts).where(eq(strategyAccounts.strategy, 'reversion'))
    )[0]!.userId;
    const [bought] = await ordersOf(userId);
    expect([bought!.side, bought!.takeProfit, bought!.stopLoss].map(Number)).toEqual([1, 1.097, 1.089]);

    // The bar closes at 1.0920: mean (3 × 1.0950 + 15 × 1.0980 + 1.0900 + 1.0920) ÷ 20 = 1.09685; squares of the
    // gaps 3 × 0.00185² + 15 × 0.00115² + 0.00685² + 0.00485² = 0.00010095, ÷ 20, √ = 0.0022422…; z = −2.16, still
    // long. Take profit 1.09685, stop 1.09685 − 4 × 0.0022422… = 1.087881… → 1.08788.
    await euroAt(20.25, '1.09200');
    await euroAt(21, '1.09250');
    const [moved] = await ordersOf(userId);
    expect([moved!.id, moved!.status, moved!.takeProfit, moved!.stopLoss].map(Number)).toEqual([bought!.id, 1, 1.09685, 1.08788]);
  });

  it('trades while its listing fails, and lists it at a later bar', async () => {
    // The three listings at the lead fail.
    const strategies = await startStrategies({ listingFailures: 3 });
    expect(strategies.listed).toEqual([]);
    await breakOut(strategies);
    const userId = await breakoutAccount();
    expect(await ordersOf(userId)).toMatchObject([{ status: 1, side: 1 }]);
    // Each bar of gold decided tried again; the first after the failures listed it.
    expect(strategies.listed.map(([id, profile]) => [id, profile.nickname])).toEqual([[userId, 'Breakout Gold']]);
    const [row] = await server.database.db.select().from(strategyAccounts).where(eq(strategyAccounts.userId, userId));
    expect(row!.providerAt).not.toBeNull();
  });

  it('a restart decides the last closed bar again and trades nothing more', async () => {
    const first = await startStrategies();
    await breakOut(first);
    const userId = await breakoutAccount();
    await goldAt(21.25, '3999.00', first);
    expect(await ordersOf(userId)).toMatchObject([{ status: 3, closeReason: 'stop_loss' }]);
    // The closed bars are stored before the restart reads them.
    const market = server.ctx.market as MarketEngine;
    await vi.waitFor(async () => expect(await market.klines(server.instrumentId('XAUUSD'), '60min', 50)).toHaveLength(22));
    await stops.pop()!();

    // Flat again, the new process reads the 4,010 close as a breakout and wants to buy: with the same key.
    const second = await startStrategies();
    expect(second.submits).toEqual(first.submits);
    expect(await ordersOf(userId)).toHaveLength(1);
    // Its account was found, not made again, and not listed twice.
    expect(await server.database.db.select().from(strategyAccounts)).toHaveLength(3);
    expect(second.listed).toEqual([]);

    // Its backtest, over the 21 stored bars by the same rules: the 4,010 close buys at 4,010.25, 0.24 lots
    // (fee 2.41); Wednesday ends marked at 4,010: 100,000 − 2.41 − 0.25 × 0.24 × 100 = 99,991.59, an index of 99.99159.
    expect(second.service.backtestOf(userId)).toEqual({
      from: '2026-11-17',
      to: '2026-11-19',
      index: [
        { day: '2026-11-17', value: 100 },
        { day: '2026-11-18', value: 100 },
        { day: '2026-11-19', value: 99.99 },
      ],
      return_all: -0.01,
      max_drawdown: 0.01,
      trades: 0,
      win_rate: null,
    });
    expect(second.service.backtestOf(0)).toBeNull();
  });

  it('turned off, it closes what it holds at the next bar and opens nothing', async () => {
    const strategies = await startStrategies();
    await breakOut(strategies);
    const userId = await breakoutAccount();
    expect(await ordersOf(userId)).toMatchObject([{ status: 1 }]);

    await server.ctx.settings.set({ copy_strategies_enabled: '0' });
    // A new high closes the 4,012 bar: on, it would hold the buy; off, it sells out.
    await goldAt(22, '4020.00', strategies);
    expect(await ordersOf(userId)).toMatchObject([{ status: 3, closeReason: 'manual' }]);
    expect(strategies.submits).toHaveLength(1);
  });
});

/** The service's methods, bound to it, so a test can replace one and keep the others. */
function bound<K extends keyof TradingService>(service: TradingService, names: K[]): Pick<TradingService, K> {
  return Object.fromEntries(
    names.map((name) => [name, (service[name] as (...args: unknown[]) => unknown).bind(service)]),
  ) as Pick<TradingService, K>;
}
