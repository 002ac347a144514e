import {
  acceptedStops,
  AppError,
  backtest,
  backtestView,
  barOpenTime,
  Dec,
  dec,
  entryPrice,
  exitPrice,
  OrderSide,
  OrderStatus,
  PERIOD_SECONDS,
  STRATEGY_LOOKBACK,
  STRATEGY_SIGNALS,
  strategyLots,
  ZSetStopPriceRequest,
  ZSubmitOrderRequest,
  type BacktestView,
  type KlinePeriod,
  type KlinePointView,
  type OrderSideValue,
  type StrategyBar,
  type StrategyKind,
  type StrategySignal,
  type WantedPosition,
} from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { strategyAccounts } from '../../db/schema.js';
import { translate } from '../../i18n/catalog.js';
import type { EventBus } from '../../realtime/bus.js';
import type { AccountsService } from '../accounts/service.js';
import type { InstrumentInfo, MarketService, Quote } from '../market/api.js';
import type { SettingsService } from '../settings/service.js';
import type { TradingService, WatchedFields } from '../trading/service.js';
import { BACKTEST_BARS, STRATEGIES, STRATEGY_PERIOD, type StrategyDefinition } from './definitions.js';

/** Lists an account as a copy-trading provider marked automated (the copy module's service). */
export interface AutomatedProviders {
  becomeProvider(
    userId: number,
    profile: { nickname: string; bio: string; fee_pct: number },
    options: { automated: true },
  ): Promise<unknown>;
}

/** What the strategies read of the market: instruments, quotes, and the stored bars (the market engine's klines). */
export interface StrategyMarket extends Pick<MarketService, 'getInstrumentByCode' | 'getQuote' | 'usdRate'> {
  klines(instrumentId: number, period: KlinePeriod, limit: number, end?: number): Promise<KlinePointView[]>;
}

export interface StrategiesDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  settings: Pick<SettingsService, 'get'>;
  /** Demo accounts are made as the app makes them for a visitor. */
  accounts: Pick<AccountsService, 'demo' | 'resolveToken' | 'revokeSessions' | 'publishRevoked'>;
  /** Every order goes through the service a person's requests go through. */
  trading: Pick<TradingService, 'submit' | 'close' | 'setStops' | 'holdingOrders' | 'figures' | 'settings'>;
  market: StrategyMarket;
  providers: AutomatedProviders;
}

/** A strategy at work, while this process leads: its bars as they close. */
interface Runner {
  definition: StrategyDefinition;
  instrument: InstrumentInfo;
  /** Closed bars, oldest first, as many as its signal reads. */
  closed: StrategyBar[];
  /** The bar the ticks are building now. */
  current: StrategyBar | null;
}

/** How long a miss of `backtestOf` waits before the accounts and empty backtests are read again. */
const REFRESH_MS = 60_000;

/** Where a demo account made by the server says it comes from. */
const MAKER = { ip: '127.0.0.1', userAgent: 'pipwise automated strategies', lang: 'en' as const };

const wantedOf = (order: WatchedFields | undefined): WantedPosition =>
  order === undefined ? 'flat' : order.side === OrderSide.buy ? 'long' : 'short';

const barOf = (point: KlinePointView): StrategyBar => ({
  time: point.Time,
  open: point.Open,
  high: point.High,
  low: point.Low,
  close: point.Close,
});

/** The same level, or none on both sides. */
const sameLevel = (stored: string | null, wanted: Dec | null) =>
  stored === null || wanted === null ? stored === wanted : dec(stored).eq(wanted);

/**
 * The broker's automated demo strategies (docs/architecture.md, "Automated strategies and their
 * backtest"): on the engine leader, on the simulated feed, each follows the hourly bars of its
 * instrument, and when a bar closes reads its signal (the domain's) and trades its demo account through
 * the trading service as a person would. Each action carries an Idempotency-Key made of the strategy,
 * the bar and the action, so deciding a bar again (after a restart, which decides the last closed bar
 * once more) never trades twice. Operators turn them off with `copy_strategies_enabled`: a strategy then
 * closes what it holds at the next bar and opens nothing. Every process (gateways too, which serve the
 * profiles) knows the accounts and computes the backtests once, from the stored bars.
 */
export class StrategiesService {
  /** Each strategy's account, as recorded. */
  private readonly accounts = new Map<StrategyKind, number>();
  /** Listed as a provider: no need to look again. */
  private readonly listed = new Set<StrategyKind>();
  private readonly backtests = new Map<StrategyKind, BacktestView | null>();
  /** When the accounts and the missing backtests were last read (clock ms), and the read under way. */
  private refreshedAt = -Infinity;
  private refreshing: Promise<void> | null = null;
  /** The strategies at work, while this process leads. */
  private readonly runners: Runner[] = [];
  private unsubscribe: (() => void) | null = null;
  /** Decisions, one at a time: two bars of one strategy must not read the same position. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: StrategiesDeps) {}

  /** At start, on every process: the accounts recorded and the backtests over the stored history. */
  load(): Promise<void> {
    return this.refresh();
  }

  /**
   * Taking the engine's lead: follows the bars from the stored history, makes the accounts (when on) and
   * decides each strategy's last closed bar again.
   */
  async lead() {
    const heard: Quote[] = [];
    // Ticks heard while the history loads are folded in after it, so no bar close is missed.
    this.unsubscribe = this.deps.bus.subscribe('market.quote', (quote) => heard.push(quote), { thisProcessOnly: true });
    const currentTime = barOpenTime(STRATEGY_PERIOD, this.deps.clock.now().getTime());
    for (const definition of STRATEGIES) {
      const instrument = this.deps.market.getInstrumentByCode(definition.instrument);
      if (!instrument) continue;
      const lookback = STRATEGY_LOOKBACK[definition.kind];
      const history = (await this.deps.market.klines(instrument.id, STRATEGY_PERIOD, lookback + 1)).map(barOf);
      this.runners.push({
        definition,
        instrument,
        closed: history.filter((bar) => bar.time < currentTime).slice(-lookback),
        current: history.find((bar) => bar.time === currentTime) ?? null,
      });
    }
    this.unsubscribe();
    this.unsubscribe = this.deps.bus.subscribe('market.quote', (quote) => this.onQuote(quote), { thisProcessOnly: true });
    for (const quote of heard) this.onQuote(quote);
    if (await this.enabled()) for (const runner of this.runners) this.enqueue(() => this.ensureAccount(runner));
    for (const runner of this.runners) {
      const last = runner.closed.at(-1);
      const bars = [...runner.closed];
      if (last) this.enqueue(() => this.decide(runner, bars, last.time));
    }
    await this.settled();
  }

  /** Losing or handing over the lead: no more decisions here; the one under way finishes. */
  async resign() {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.settled();
    this.runners.length = 0;
  }

  /** Resolves when no decision and no read is under way (tests wait on it). */
  async settled() {
    for (;;) {
      const { queue, refreshing } = this;
      await queue;
      // A failed read was logged where it started; waiting for it is all that is wanted here.
      await refreshing?.catch(() => undefined);
      if (queue === this.queue && refreshing === this.refreshing) return;
    }
  }

  /**
   * The backtest of the strategy trading `userId` over the stored history, computed once; null for any
   * other account. An account not known here yet (made by the leader since this process read them) or a
   * backtest without history yet is looked for again, at most once a minute.
   */
  backtestOf(userId: number): BacktestView | null {
    const kind = this.kindOf(userId);
    const view = kind === null ? null : (this.backtests.get(kind) ?? null);
    if (view === null) this.refreshSoon();
    return view;
  }

  /** The strategy's description in `lang`, for the automated account `userId`; null for any other account. */
  bioOf(userId: number, lang: string): string | null {
    const kind = this.kindOf(userId);
    const definition = STRATEGIES.find((candidate) => candidate.kind === kind);
    return definition ? translate(lang, definition.bioKey) : null;
  }

  private kindOf(userId: number): StrategyKind | null {
    for (const [kind, id] of this.accounts) if (id === userId) return kind;
    return null;
  }

  private refreshSoon() {
    if (this.refreshing !== null || this.deps.clock.now().getTime() - this.refreshedAt < REFRESH_MS) return;
    this.refresh().catch((error: unknown) => this.deps.log.error({ err: error }, 'reading the automated strategies failed'));
  }

  /** Reads the accounts recorded and computes the backtests not computed yet (or that had no bars). */
  private refresh(): Promise<void> {
    this.refreshedAt = this.deps.clock.now().getTime();
    this.refreshing ??= (async () => {
      for (const row of await this.deps.db.select().from(strategyAccounts)) {
        this.accounts.set(row.strategy as StrategyKind, row.userId);
        if (row.providerAt !== null) this.listed.add(row.strategy as StrategyKind);
      }
      for (const definition of STRATEGIES) {
        const instrument = this.deps.market.getInstrumentByCode(definition.instrument);
        if (instrument && !this.backtests.get(definition.kind)) {
          this.backtests.set(definition.kind, await this.computeBacktest(definition, instrument));
        }
      }
    })().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private enabled() {
    return this.deps.settings.get('copy_strategies_enabled').then((value) => value === '1');
  }

  private enqueue(work: () => Promise<unknown>) {
    this.queue = this.queue
      .then(async () => {
        await work();
      })
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'automated strategy failed'));
  }

  /** Folds a tick into its strategy's bar; a tick in a later hour closes the bar, and the strategy decides on it. */
  private onQuote(quote: Quote) {
    const runner = this.runners.find((candidate) => candidate.instrument.id === quote.instrumentId);
    if (!runner) return;
    const time = barOpenTime(STRATEGY_PERIOD, quote.time);
    const bid = dec(quote.bid);
    const current = runner.current;
    if (current !== null && time <= current.time) {
      current.high = Dec.max(current.high, bid);
      current.low = Dec.min(current.low, bid);
      current.close = bid;
      return;
    }
    if (current !== null) {
      runner.closed.push(current);
      runner.closed.splice(0, runner.closed.length - STRATEGY_LOOKBACK[runner.definition.kind]);
      const bars = [...runner.closed];
      this.enqueue(() => this.decide(runner, bars, current.time));
    }
    runner.current = { time, open: bid, high: bid, low: bid, close: bid };
  }

  /**
   * The account of the strategy, made once: a demo account as a visitor gets one (its session, which
   * nobody holds, revoked at once), recorded, then listed as an automated provider (once that succeeded).
   */
  private async ensureAccount(runner: Runner): Promise<number> {
    const { db } = this.deps;
    const { kind, nickname, bioKey } = runner.definition;
    let userId = this.accounts.get(kind);
    if (userId === undefined) {
      const made = await this.deps.accounts.demo(undefined, MAKER);
      const principal = await this.deps.accounts.resolveToken(made.token);
      if (!principal) throw new Error(`the demo account of strategy ${kind} has no session`);
      this.deps.accounts.publishRevoked(principal.userId, await this.deps.accounts.revokeSessions(db, principal.userId));
      await db.insert(strategyAccounts).values({ strategy: kind, userId: principal.userId }).onConflictDoNothing();
      const [row] = await db.select().from(strategyAccounts).where(eq(strategyAccounts.strategy, kind));
      userId = row!.userId;
      this.accounts.set(kind, userId);
    }
    if (!this.listed.has(kind)) {
      try {
        const profile = { nickname, bio: translate('en', bioKey), fee_pct: 0 };
        await this.deps.providers.becomeProvider(userId, profile, { automated: true });
        await db.update(strategyAccounts).set({ providerAt: this.deps.clock.now() }).where(eq(strategyAccounts.strategy, kind));
        this.listed.add(kind);
      } catch (error) {
        // Trading goes on unlisted; the next bar tries to list it again.
        this.deps.log.error({ err: error, strategy: kind }, 'listing an automated strategy failed');
      }
    }
    return userId;
  }

  /** What the strategy does at the close of the bar that opened at `barTime` (seconds), the last of `bars`. */
  private async decide(runner: Runner, bars: StrategyBar[], barTime: number) {
    const enabled = await this.enabled();
    const known = this.accounts.get(runner.definition.kind);
    // Off, a strategy never made an account or listed one; it only closes what it holds.
    const userId = enabled ? await this.ensureAccount(runner) : known;
    if (userId === undefined) return;
    const { instrument, definition } = runner;
    const held = (await this.deps.trading.holdingOrders(userId)).filter((order) => order.instrumentId === instrument.id);
    const position = wantedOf(held[0]);
    const signal: StrategySignal = enabled
      ? STRATEGY_SIGNALS[definition.kind](bars, position)
      : { position: 'flat', takeProfit: null, stopLoss: null };
    const key = (action: string) => `strategy:${definition.kind}:${barTime}:${action}`;
    if (signal.position !== position) {
      for (const order of held) await this.attempt(() => this.deps.trading.close(userId, order.id, key(`close:${order.id}`)));
      if (signal.position !== 'flat') await this.attempt(() => this.open(runner, userId, signal, key('open')));
      return;
    }
    for (const order of held) await this.attempt(() => this.moveStops(runner, order, userId, signal));
  }

  /** A market order of the strategy's size at the current quote, with the signal's levels the order accepts. */
  private async open(runner: Runner, userId: number, signal: StrategySignal, idempotencyKey: string) {
    const { instrument } = runner;
    const quote = this.deps.market.getQuote(instrument.id);
    if (!quote) return;
    const side = signal.position === 'long' ? OrderSide.buy : OrderSide.sell;
    const { equity } = await this.deps.trading.figures(userId);
    const lots = strategyLots({
      equity,
      price: entryPrice(side, quote),
      contractSize: instrument.contractSize,
      usdRate: this.deps.market.usdRate(instrument.quoteCurrency),
      lots: instrument,
    });
    if (lots === null) return;
    const stops = acceptedStops(side, exitPrice(side, quote), signal, instrument.pricePrecision);
    const body = ZSubmitOrderRequest.parse({
      type: side,
      cont: lots.toFixed(),
      forex_id: instrument.id,
      status: OrderStatus.holding,
      multiple: Math.max(...instrument.leverages),
      target_profit_price: stops.takeProfit?.toFixed(),
      stop_loss_price: stops.stopLoss?.toFixed(),
    });
    await this.deps.trading.submit(userId, body, idempotencyKey);
  }

  /** A held position's levels follow the signal's (a stop loss that trails, a take profit at a moving mean). */
  private async moveStops(runner: Runner, order: WatchedFields, userId: number, signal: StrategySignal) {
    const quote = this.deps.market.getQuote(order.instrumentId);
    if (!quote) return;
    const side = order.side as OrderSideValue;
    const stops = acceptedStops(side, exitPrice(side, quote), signal, runner.instrument.pricePrecision);
    if (sameLevel(order.takeProfit, stops.takeProfit) && sameLevel(order.stopLoss, stops.stopLoss)) return;
    const body = ZSetStopPriceRequest.parse({
      id: order.id,
      target_profit_price: stops.takeProfit?.toFixed(),
      stop_loss_price: stops.stopLoss?.toFixed(),
    });
    await this.deps.trading.setStops(userId, body);
  }

  /**
   * Runs one trading action. A refusal ends that action alone: a closed market (the next bar decides
   * again), a short margin, or an Idempotency-Key already used for another request (this bar was acted
   * on before a restart, with sizes that differ now).
   */
  private async attempt(action: () => Promise<unknown>) {
    try {
      await action();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.deps.log.info({ refusal: error.key }, 'automated strategy: order refused');
    }
  }

  /**
   * The strategy's backtest over the stored hourly bars that have closed, with today's instrument terms
   * and demo starting balance; null without bars.
   */
  private async computeBacktest(definition: StrategyDefinition, instrument: InstrumentInfo): Promise<BacktestView | null> {
    const currentTime = barOpenTime(STRATEGY_PERIOD, this.deps.clock.now().getTime());
    const bars = (await this.deps.market.klines(instrument.id, STRATEGY_PERIOD, BACKTEST_BARS))
      .map(barOf)
      .filter((bar) => bar.time < currentTime);
    const { feeType, demoStartBalance } = await this.deps.trading.settings();
    const result = backtest(definition.kind, bars, {
      spread: instrument.spread,
      contractSize: instrument.contractSize,
      marginMode: instrument.marginMode,
      feeType,
      feeRate: instrument.feeRate,
      usdRate: this.deps.market.usdRate(instrument.quoteCurrency),
      leverage: Math.max(...instrument.leverages),
      lots: instrument,
      startBalance: demoStartBalance,
      barSeconds: PERIOD_SECONDS[STRATEGY_PERIOD],
      pricePrecision: instrument.pricePrecision,
    });
    return backtestView(result);
  }
}
