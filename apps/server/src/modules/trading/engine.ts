import { accountFigures, fillDirection, OrderStatus, type Dec, type OrderSideValue } from '@pipwise/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from '../../realtime/bus.js';
import type { InstrumentInfo, MarketService, Quote } from '../market/api.js';
import type { CashAt, WalletService } from '../wallet/service.js';
import { engineActionsTotal, engineTickSeconds } from '../../observability/metrics.js';
import { presentTradePush } from './present.js';
import { bookOf, exposureOf } from '../../positions/books.js';
import { MARGIN_CALL_SWEEP_MS, MarginCalls } from './outcomes.js';
import type { ClosedNotice, EngineAction, PlacedNotice, TradingService, WatchedFields } from './service.js';
import { PositionWatch, type Trigger, type TriggerKind, type WatchedOrder } from './watch.js';

/** FOREX_TRADE at most this often per user (4 a second). */
export const PUSH_INTERVAL_MS = 250;
/** Wait before re-reading accounts whose reload failed. */
export const RELOAD_RETRY_MS = 1_000;
/** Balances can change outside trading (deposits, withdrawals): re-read them this often. */
export const BALANCE_REFRESH_MS = 5_000;
/** Every this many balance looks, one reads every watched wallet (about every 5 minutes). */
export const FULL_REFRESH_EVERY = 60;
/** Accounts read per page of the start-up load. */
const LOAD_PAGE_ACCOUNTS = 250;

/** Within a tick: stop-losses before take-profits and pending fills (stop-outs go before all three). */
const EXECUTION_RANK: Record<TriggerKind, number> = { stop_loss: 0, take_profit: 1, fill: 1 };
const byExecutionOrder = (a: Trigger, b: Trigger) => EXECUTION_RANK[a.kind] - EXECUTION_RANK[b.kind];

export interface EngineDeps {
  trading: TradingService;
  market: MarketService;
  wallet: WalletService;
  bus: EventBus;
  log: FastifyBaseLogger;
  /** The users with a logged-in socket (FOREX_TRADE goes only to them). */
  onlineUsers: () => Iterable<number>;
}

/** Lot sizes repeat across a book: one string each instead of one per order. */
const lotTexts = new Map<string, string>();
const internLots = (lots: string) => {
  const known = lotTexts.get(lots);
  if (known !== undefined) return known;
  lotTexts.set(lots, lots);
  return lots;
};
const level = (price: string | null) => (price === null ? null : Number(price));

export function toWatched(order: WatchedFields, contractSize: number): WatchedOrder | null {
  if (order.status !== OrderStatus.holding && order.status !== OrderStatus.pending) return null;
  return {
    id: order.id,
    userId: order.userId,
    instrumentId: order.instrumentId,
    side: order.side as OrderSideValue,
    status: order.status,
    lots: internLots(order.lots),
    margin: order.margin,
    openPrice: order.openPrice,
    contractSize,
    targetPrice: level(order.targetPrice),
    fillDirection:
      order.status === OrderStatus.pending && order.targetPrice !== null
        ? fillDirection(order.targetPrice, order.placedPrice ?? order.targetPrice)
        : null,
    takeProfit: level(order.takeProfit),
    stopLoss: level(order.stopLoss),
  };
}

/**
 * The risk engine: on every `market.quote` it asks the position watch what the tick reached (pending
 * fills, TP, SL) and which accounts may be at the stop-out level, and hands those actions to the
 * trading service in the order they must happen — a tick's stop-outs first (the largest floating loss
 * first), then its stop-losses, then its take-profits and fills — where they are written in batches,
 * one batch at a time, so that a later tick's actions wait behind an earlier tick's and nothing is
 * lost or done twice. Its memory is only an index: the database is the truth, loaded at start and
 * re-read for an account after anything about it changes (`trading.changed`) unless the change is a
 * notice of new orders that follows, by wallet version, what is watched; so a crash or restart loses
 * nothing and a taken trigger whose action did not happen is simply put back.
 */
export class RiskEngine {
  readonly watch = new PositionWatch(50);
  private readonly unsubscribe: (() => void)[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly reloadQueue = new Set<number>();
  /** The wallet version each account is watched at, where known (an account loaded at start is not). */
  private readonly versions = new Map<number, number>();
  /** Versions the last balance refresh found ahead of the watched ones. */
  private readonly aheadAtRefresh = new Map<number, number>();
  /** Where the next look for changed wallets starts (the database's time), and looks since a full one. */
  private changesSince: string | null = null;
  private looksSinceFull = 0;
  private reloading: Promise<void> | null = null;
  /** The balance refresh in flight: `stop` waits for it, so that nothing reads after the database closes. */
  private refreshing: Promise<void> | null = null;
  private readonly stopOutsRunning = new Set<number>();
  private readonly tickedSincePush = new Set<number>();
  private readonly changedSincePush = new Set<number>();
  private timers: NodeJS.Timeout[] = [];
  /** `loading` from the start until the last page of the book is in (ticks already act on what is). */
  state: 'idle' | 'loading' | 'running' | 'stopped' = 'idle';
  /** Accounts crossing the margin-call level, looked for on a timer (each start looks afresh). */
  marginCalls: MarginCalls;

  constructor(private readonly deps: EngineDeps) {
    this.marginCalls = this.newMarginCalls();
  }

  private newMarginCalls() {
    const { watch } = this;
    const { market, bus, trading } = this.deps;
    return new MarginCalls({ watch, market, bus, levels: () => trading.settings() });
  }

  async start() {
    // Leading again after losing the lead: the database is the truth, not what was watched before.
    for (const userId of [...this.watch.userIds()]) this.watch.removeAccount(userId);
    this.versions.clear();
    this.aheadAtRefresh.clear();
    const { stopOutLevel, marginCallLevel } = await this.deps.trading.settings();
    this.watch.setLevels(stopOutLevel.toNumber(), marginCallLevel.toNumber());
    // Listening before the load: a change committed while it reads (by a gateway) may be missing from
    // what it read, so those accounts are read again once it is done.
    const heardWhileLoading = new Set<number>();
    this.unsubscribe.push(
      this.deps.bus.subscribe('trading.changed', ({ userId, placed, closed }) => {
        if (this.state === 'loading') heardWhileLoading.add(userId);
        else if (placed) this.applyPlaced(userId, placed);
        else if (closed) this.applyClosed(userId, closed);
        else this.requestReload(userId);
      }),
    );
    // The latest quotes first, so that each account is screened once, with every instrument it holds priced.
    for (const instrument of this.deps.market.listInstruments()) {
      const quote = this.deps.market.getQuote(instrument.id);
      if (quote) this.watch.onQuote(instrument.id, Number(quote.bid), Number(quote.ask), this.usdRateOf(instrument), false);
    }
    // Ticks act on the accounts loaded so far while the rest load: a large book takes a while.
    this.state = 'loading';
    // This process's feed only: an old leader that wakes from a pause publishes a tick or two (stale,
    // stamped with its clock now) before it notices, and the engine must not act on them.
    this.unsubscribe.push(this.deps.bus.subscribe('market.quote', (quote) => this.onQuote(quote), { thisProcessOnly: true }));
    await this.loadAll();
    this.state = 'running';
    this.marginCalls = this.newMarginCalls();
    for (const userId of heardWhileLoading) this.requestReload(userId);
    this.timers.push(
      setInterval(() => this.pushRound(), PUSH_INTERVAL_MS),
      setInterval(() => {
        this.refreshing ??= this.refreshBalances()
          .catch((error: unknown) => this.fail(error))
          .finally(() => (this.refreshing = null));
      }, BALANCE_REFRESH_MS),
      setInterval(() => void this.marginCalls.sweep().catch((error: unknown) => this.fail(error)), MARGIN_CALL_SWEEP_MS),
    );
    for (const timer of this.timers) timer.unref();
  }

  async stop() {
    this.state = 'stopped';
    for (const off of this.unsubscribe.splice(0)) off();
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.marginCalls.settled();
    await this.settled();
  }

  /** Resolves when no action or reload is in flight (tests wait on this instead of sleeping). */
  async settled() {
    for (;;) {
      const pending = [...this.inFlight, ...[this.reloading, this.refreshing].filter((work) => work !== null)];
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  private fail(error: unknown) {
    this.deps.log.error({ err: error }, 'risk engine action failed');
  }

  private contractSizeOf(instrumentId: number) {
    return this.deps.market.getInstrument(instrumentId)?.contractSize.toNumber() ?? null;
  }

  private groupByUser(rows: WatchedFields[]) {
    const byUser = new Map<number, WatchedOrder[]>();
    for (const row of rows) {
      const contractSize = this.contractSizeOf(row.instrumentId);
      const watched = contractSize === null ? null : toWatched(row, contractSize);
      if (!watched) continue;
      const list = byUser.get(row.userId) ?? [];
      list.push(watched);
      byUser.set(row.userId, list);
    }
    return byUser;
  }

  /**
   * Every open order of every account, from the database, a page of accounts at a time so that the
   * book never sits in memory twice (as rows and as the index), each page read as a reload reads (with
   * the wallets' versions), so that the notices that follow apply without a read. The next page is
   * read while this one is indexed: the database and the index each keep one core busy. Pages are
   * small so that their rows die young: rows promoted among the book's objects (pages of 2,000
   * accounts) left V8 holding 400 MB of heap for 240 MB live after a load of 1M orders; more pages
   * read ahead did the same.
   */
  async loadAll() {
    const owners = await this.deps.trading.openOrderOwners();
    const pages: number[][] = [];
    for (let start = 0; start < owners.length; start += LOAD_PAGE_ACCOUNTS)
      pages.push(owners.slice(start, start + LOAD_PAGE_ACCOUNTS));
    let reading: ReturnType<RiskEngine['readAccounts']> | undefined;
    for (const [index, page] of pages.entries()) {
      const read = await (reading ?? this.readAccounts(page));
      const following = pages[index + 1];
      reading = following && this.readAccounts(following);
      // A failed read ahead is thrown when its turn comes; until then it must not count as unhandled.
      reading?.catch(() => undefined);
      this.applyAccounts(page, read);
    }
  }

  /**
   * New orders of an account, applied without a read when the account is watched at the version
   * just before theirs; a notice from the past is already reflected; any other gap means a change
   * the engine has not heard of, so the account is read again.
   */
  private applyPlaced(userId: number, placed: PlacedNotice) {
    const known = this.versions.get(userId);
    if (known !== undefined && placed.version <= known) return;
    if (known !== placed.version - 1) {
      this.requestReload(userId);
      return;
    }
    const added: WatchedOrder[] = [];
    for (const order of placed.orders) {
      const contractSize = this.contractSizeOf(order.instrumentId);
      const watched = contractSize === null ? null : toWatched(order, contractSize);
      if (watched) added.push(watched);
    }
    this.watch.addOrders(userId, placed.balance, added);
    this.versions.set(userId, placed.version);
    this.changedSincePush.add(userId);
  }

  /**
   * Orders the engine's own batch closed, applied without a read when the account is watched at the
   * version the batch found; a notice from the past is already reflected, any other gap is read again.
   */
  private applyClosed(userId: number, closed: ClosedNotice) {
    const known = this.versions.get(userId);
    if (known !== undefined && closed.version <= known) return;
    if (known !== closed.from) {
      this.requestReload(userId);
      return;
    }
    this.watch.removeOrders(userId, closed.orderIds, closed.balance);
    this.versions.set(userId, closed.version);
    this.changedSincePush.add(userId);
  }

  /**
   * Re-reads accounts from the database, one statement for the whole batch: the orders as of the
   * wallet version read with them; an account that a notice has meanwhile taken past that version
   * keeps what the notice gave it.
   */
  private async reloadNow(userIds: number[]) {
    this.applyAccounts(userIds, await this.readAccounts(userIds));
  }

  private async readAccounts(userIds: number[]) {
    const { wallets, orders } = await this.deps.trading.openAccounts(userIds);
    return { balances: wallets, orders };
  }

  private applyAccounts(userIds: number[], { balances, orders }: Awaited<ReturnType<RiskEngine['readAccounts']>>) {
    const byUser = this.groupByUser(orders);
    for (const userId of userIds) {
      const wallet = balances.get(userId);
      const known = this.versions.get(userId);
      if (wallet && known !== undefined && wallet.version < known) continue;
      this.watch.setAccount(userId, wallet?.balance ?? '0', byUser.get(userId) ?? []);
      if (wallet) this.versions.set(userId, wallet.version);
      this.changedSincePush.add(userId);
    }
  }

  /**
   * Asks for an account to be re-read. One read runs at a time; requests arriving meanwhile are
   * gathered into the next, so under load many changes cost one pair of queries.
   */
  requestReload(userId: number) {
    this.reloadQueue.add(userId);
    this.reloading ??= this.drainReloads();
  }

  private async drainReloads() {
    while (this.reloadQueue.size > 0) {
      const batch = [...this.reloadQueue];
      this.reloadQueue.clear();
      try {
        await this.reloadNow(batch);
      } catch (error) {
        this.fail(error);
        // The database is the truth: try these accounts again shortly rather than watch stale orders.
        await new Promise((resolve) => setTimeout(resolve, RELOAD_RETRY_MS));
        if (this.state !== 'stopped') for (const userId of batch) this.reloadQueue.add(userId);
      }
    }
    this.reloading = null;
  }

  /** Hands an action over; the account is read again if the action failed or did nothing (a taken level comes back if still open). */
  private run(action: EngineAction, after?: () => void) {
    engineActionsTotal.inc({ kind: action.kind });
    const done: Promise<void> = this.deps.trading
      .act(action)
      .then(
        // What it closed comes back as a notice; a level taken for nothing is put back by a read.
        (result) => {
          if (action.kind !== 'stop_out' && result.closed.length === 0 && result.filled.length === 0)
            this.requestReload(action.userId);
        },
        (error: unknown) => {
          this.fail(error);
          this.requestReload(action.userId);
        },
      )
      .finally(() => {
        this.inFlight.delete(done);
        after?.();
      });
    this.inFlight.add(done);
  }

  /** One tick: the hot path. Everything here is in memory; actions are queued in their order, never awaited. */
  onQuote(quote: Quote) {
    if (this.state !== 'loading' && this.state !== 'running') return;
    const instrument = this.deps.market.getInstrument(quote.instrumentId);
    if (!instrument) return;
    const endTick = engineTickSeconds.startTimer();
    const rate = this.usdRateOf(instrument);
    const outcome = this.watch.onQuote(quote.instrumentId, Number(quote.bid), Number(quote.ask), rate, quote.marketOpen);
    this.tickedSincePush.add(quote.instrumentId);
    const stopOuts = outcome.stopOutCandidates
      .filter((userId) => !this.stopOutsRunning.has(userId))
      .map((userId) => ({ userId, floating: this.watch.screened(userId)?.floating ?? 0 }))
      .sort((a, b) => a.floating - b.floating);
    for (const { userId } of stopOuts) {
      this.stopOutsRunning.add(userId);
      this.run({ kind: 'stop_out', userId }, () => this.stopOutsRunning.delete(userId));
    }
    const triggers = outcome.triggers.length > 1 ? [...outcome.triggers].sort(byExecutionOrder) : outcome.triggers;
    for (const trigger of triggers) this.run({ ...trigger, quote });
    endTick();
  }

  private usdRateOf(instrument: InstrumentInfo) {
    return instrument.quoteCurrency === 'USD' ? 1 : this.deps.market.usdRate(instrument.quoteCurrency).toNumber();
  }

  /**
   * Balances can move without an order event (a deposit). An account found past its watched version
   * at two refreshes in a row (no notice caught it up in between) is read again; one at an unknown
   * version (loaded at start) just takes the new balance.
   */
  /**
   * Balances changed outside the engine's notices (deposits, withdrawals, adjustments): the wallets
   * changed since the last look, and every FULL_REFRESH_EVERY looks every watched wallet, so that this
   * costs what changed, not what is open.
   */
  async refreshBalances() {
    const { stopOutLevel, marginCallLevel } = await this.deps.trading.settings();
    this.watch.setLevels(stopOutLevel.toNumber(), marginCallLevel.toNumber());
    const full = this.changesSince === null || ++this.looksSinceFull >= FULL_REFRESH_EVERY;
    const { changed, next } = await this.deps.wallet.changedSince(this.changesSince);
    this.changesSince = next;
    let wallets = changed;
    if (full) {
      this.looksSinceFull = 0;
      const userIds = [...this.watch.userIds()];
      wallets = userIds.length > 0 ? await this.deps.wallet.balances(userIds) : new Map<number, CashAt>();
    }
    for (const [userId, seen] of this.aheadAtRefresh) {
      if ((this.versions.get(userId) ?? -1) < seen) this.requestReload(userId);
    }
    this.aheadAtRefresh.clear();
    for (const [userId, wallet] of wallets) {
      if (!this.watch.hasAccount(userId)) continue;
      const known = this.versions.get(userId);
      if (known === undefined || wallet.version === known) this.watch.setBalance(userId, wallet.balance);
      else if (wallet.version > known) this.aheadAtRefresh.set(userId, wallet.version);
    }
  }

  /**
   * FOREX_TRADE to logged-in owners whose positions moved (a tick of one of their instruments, or a
   * change of their orders) since the last round; one round every PUSH_INTERVAL_MS caps it at 4/s.
   */
  pushRound() {
    if (this.tickedSincePush.size === 0 && this.changedSincePush.size === 0) return;
    for (const userId of this.deps.onlineUsers()) {
      const orders = this.watch.ordersOf(userId).filter((o) => o.status === OrderStatus.holding);
      const moved = this.changedSincePush.has(userId) || orders.some((o) => this.tickedSincePush.has(o.instrumentId));
      if (!moved) continue;
      const push = this.tradePush(userId, orders);
      if (push) this.deps.bus.publish('realtime.user', { userId, topic: 'FOREX_TRADE', data: push });
    }
    this.tickedSincePush.clear();
    this.changedSincePush.clear();
  }

  /** Exact figures (Decimal) of an account from the watched positions and the current quotes. */
  tradePush(userId: number, holdings = this.watch.ordersOf(userId).filter((o) => o.status === OrderStatus.holding)) {
    const balance = this.watch.balanceOf(userId);
    if (balance === null && holdings.length === 0) return null;
    const positions: { id: number; updatePrice: Dec; precision: number; profit: Dec }[] = [];
    const { floating, usedMargin } = exposureOf(
      this.deps.market,
      holdings.map((order) => ({ ...bookOf(order), id: order.id })),
      (position, pnl, exit) =>
        positions.push({
          id: position.id,
          updatePrice: exit,
          precision: this.deps.market.getInstrument(position.instrumentId)!.pricePrecision,
          profit: pnl,
        }),
    );
    const figures = accountFigures({ balance: balance ?? '0', floating, usedMargin, locked: 0 });
    return presentTradePush(figures, positions);
  }
}
