import { accountFigures, CloseReason, dec, marginState, OrderStatus, type Dec } from '@pipwise/domain';
import type { EventBus } from '../../realtime/bus.js';
import { bookOf, exposureOf } from '../../positions/books.js';
import type { MarketService } from '../market/api.js';
import type { OrderRow } from './core.js';
import type { PositionWatch } from './watch.js';

/**
 * What the risk engine did to one order, with the figures written to it in the same transaction
 * (close price and profit as stored), for the notices its owner reads.
 */
export interface EngineOrderOutcome {
  userId: number;
  orderId: number;
  /** take_profit, stop_loss, stop_out, margin_short, trading_frozen (close reasons), or filled. */
  reason: string;
  code: string;
  side: number;
  lots: string;
  /** The close or fill price as stored; a retired pending order's target. */
  price: string;
  precision: number;
  /** The closed position's profit as stored; null for a fill or a retired pending order. */
  profit: string | null;
}

/** The reasons for which the engine closes or retires an order (the others are a person's). */
export const ENGINE_CLOSE_REASONS: readonly string[] = [
  CloseReason.takeProfit,
  CloseReason.stopLoss,
  CloseReason.stopOut,
  CloseReason.marginShort,
  CloseReason.tradingFrozen,
];
/** The outcome of a pending order the engine filled. */
export const FILLED = 'filled';

export function outcomeOf(
  order: Pick<OrderRow, 'id' | 'userId' | 'instrumentId' | 'side' | 'lots'>,
  reason: string,
  price: string,
  profit: string | null,
  market: Pick<MarketService, 'getInstrument'>,
): EngineOrderOutcome {
  const instrument = market.getInstrument(order.instrumentId);
  return {
    userId: order.userId,
    orderId: order.id,
    reason,
    code: instrument?.showCode ?? '',
    side: order.side,
    lots: order.lots,
    price,
    precision: instrument?.pricePrecision ?? 5,
    profit,
  };
}

/** An account found at or below the margin-call level, as the engine measured it (exact, in percent). */
export interface MarginCallFigures {
  userId: number;
  marginLevel: string;
  marginCallLevel: string;
  stopOutLevel: string;
}

declare module '../../realtime/bus.js' {
  interface BusEvents {
    /** Orders an engine batch closed, filled or retired, after its commit. */
    'trading.order_outcomes': { outcomes: EngineOrderOutcome[] };
    /**
     * Accounts that reached the margin-call level (`entered`) and those back above it or without
     * positions (`left`) since the engine's last look; with `all`, `entered` is every account in margin
     * call now (an engine's first look after it started) and any other is out of it.
     */
    'trading.margin_calls': { entered: MarginCallFigures[]; left: number[]; all: boolean };
  }
}

/** How often the engine looks for accounts crossing the margin-call level. */
export const MARGIN_CALL_SWEEP_MS = 1_000;
/** Accounts screened between yields to the event loop, so that ticks are not held up by a large book. */
const SWEEP_SLICE = 5_000;

export interface MarginCallDeps {
  watch: PositionWatch;
  market: MarketService;
  bus: EventBus;
  levels: () => Promise<{ marginCallLevel: Dec; stopOutLevel: Dec }>;
}

/**
 * Margin calls: every MARGIN_CALL_SWEEP_MS the accounts that the engine's book, screening with its
 * floats as it evaluates them, holds at or below the margin-call level are measured exactly (Decimal, at the current
 * quotes) before they count. Only changes are published, so a crossing is told once however many
 * ticks it stays there; the notices module makes it once across processes and restarts too.
 */
export class MarginCalls {
  private readonly inCall = new Set<number>();
  private looked = false;
  private running: Promise<void> | null = null;

  constructor(private readonly deps: MarginCallDeps) {}

  /** One look at the whole book (a look already running is joined, not doubled). */
  sweep(): Promise<void> {
    this.running ??= this.look().finally(() => (this.running = null));
    return this.running;
  }

  /** Resolves when no look is running. */
  async settled() {
    await this.running;
  }

  private async look() {
    const levels = await this.deps.levels();
    // The watch draws its bands to these levels: a changed setting takes effect at the next look.
    this.deps.watch.setLevels(levels.stopOutLevel.toNumber(), levels.marginCallLevel.toNumber());
    const callLevel = levels.marginCallLevel.toNumber();
    const now = new Map<number, MarginCallFigures>();
    let screened = 0;
    // The watch keeps the accounts its floats put at or below the margin-call level as it evaluates
    // them: a look costs what is in margin call, not what is open.
    for (const userId of [...this.deps.watch.marginCallCandidates()]) {
      if (++screened % SWEEP_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const figures = this.deps.watch.screened(userId);
      if (!figures || !(figures.usedMargin > 0)) continue;
      // Floats only select: a level within a hair of the setting is measured like one below it.
      const level = ((figures.balance + figures.floating) / figures.usedMargin) * 100;
      if (level > callLevel + Math.max(1e-6, Math.abs(callLevel) * 1e-9)) continue;
      const exact = this.measure(userId);
      if (exact !== null && marginState(exact, levels) !== 'safe') {
        now.set(userId, {
          userId,
          marginLevel: exact.toFixed(2),
          marginCallLevel: levels.marginCallLevel.toFixed(),
          stopOutLevel: levels.stopOutLevel.toFixed(),
        });
      }
    }
    const entered = this.looked ? [...now.values()].filter(({ userId }) => !this.inCall.has(userId)) : [...now.values()];
    const left = [...this.inCall].filter((userId) => !now.has(userId));
    const all = !this.looked;
    this.looked = true;
    this.inCall.clear();
    for (const userId of now.keys()) this.inCall.add(userId);
    if (all || entered.length > 0 || left.length > 0) this.deps.bus.publish('trading.margin_calls', { entered, left, all });
  }

  /** The account's margin level in Decimal from its watched positions and the current quotes. */
  private measure(userId: number): Dec | null {
    const holdings = this.deps.watch.ordersOf(userId).filter((order) => order.status === OrderStatus.holding);
    const { floating, usedMargin } = exposureOf(this.deps.market, holdings.map(bookOf));
    const balance = this.deps.watch.balanceOf(userId) ?? '0';
    return accountFigures({ balance: dec(balance), floating, usedMargin, locked: 0 }).marginLevel;
  }
}
