import type { BacktestView } from '../answers/copy.js';
import { Dec, dec, roundBalance, roundPrice, roundProfit, toJsonNumber, type DecimalInput } from '../money.js';
import {
  entryPrice,
  exitPrice,
  orderCharges,
  orderRefusal,
  OrderSide,
  profit,
  stopReached,
  stopsError,
  type BidAsk,
  type LotRules,
  type OrderSideValue,
} from '../trading.js';
import { dayOf, dayStart, maxDrawdownPct, periodReturns, returnIndex, winRatePct, type IndexPoint } from './figures.js';
import {
  STRATEGY_LOOKBACK,
  STRATEGY_SIGNALS,
  strategyLots,
  type StrategyBar,
  type StrategyKind,
  type StrategySignal,
  type WantedPosition,
} from './strategies.js';

const DAY_MS = 86_400_000;

/** What a backtest trades with: the instrument's terms and the account it starts from. */
export interface BacktestTerms {
  /** ask − bid. */
  spread: DecimalInput;
  contractSize: DecimalInput;
  marginMode: number;
  feeType: number;
  feeRate: DecimalInput;
  /** USD per unit of the quote currency, held at today's rate over the whole history. */
  usdRate: DecimalInput;
  leverage: DecimalInput;
  lots: LotRules;
  startBalance: DecimalInput;
  /** The bars' period. */
  barSeconds: number;
  /** The instrument's price precision, which levels are rounded to. */
  pricePrecision: number;
}

export interface BacktestTrade {
  side: OrderSideValue;
  lots: Dec;
  entry: Dec;
  exit: Dec;
  /** Milliseconds: the close of the bar it opened at, and the moment it closed. */
  openedAt: number;
  closedAt: number;
  /** Realised P&L as stored on an order (6 decimals), fee not included. */
  profit: Dec;
  fee: Dec;
  reason: 'signal' | 'take_profit' | 'stop_loss';
}

export interface BacktestResult {
  index: IndexPoint[];
  /** The index's gain over the whole run, in percent. */
  returnPct: Dec;
  maxDrawdownPct: Dec;
  trades: BacktestTrade[];
  winRatePct: Dec | null;
  balance: Dec;
}

interface Holding {
  side: OrderSideValue;
  lots: Dec;
  entry: Dec;
  fee: Dec;
  takeProfit: Dec | null;
  stopLoss: Dec | null;
  openedAt: number;
}

const sideOf = (position: WantedPosition): OrderSideValue => (position === 'long' ? OrderSide.buy : OrderSide.sell);
const wantedOf = (holding: Holding | null): WantedPosition =>
  holding === null ? 'flat' : holding.side === OrderSide.buy ? 'long' : 'short';

/**
 * The signal's levels as an order carries them: rounded to the instrument's price precision, and a level
 * already on the wrong side of `reference` (the price the position closes at now) dropped rather than the
 * order refused, live and here alike.
 */
export function acceptedStops(
  side: OrderSideValue,
  reference: DecimalInput,
  signal: Pick<StrategySignal, 'takeProfit' | 'stopLoss'>,
  precision: number,
): { takeProfit: Dec | null; stopLoss: Dec | null } {
  const takeProfit = signal.takeProfit && roundPrice(signal.takeProfit, precision);
  const stopLoss = signal.stopLoss && roundPrice(signal.stopLoss, precision);
  return {
    takeProfit: takeProfit && !stopsError(side, reference, { takeProfit }) ? takeProfit : null,
    stopLoss: stopLoss && !stopsError(side, reference, { stopLoss }) ? stopLoss : null,
  };
}

/**
 * Runs a strategy over closed bars (bid prices, oldest first) as the live account trades it: at each
 * bar's close the signal is read with the position held, and positions open and close at that close,
 * buys at the ask (bid + spread) and sells at the bid, charged margin and fee by `orderCharges`, refused
 * by `orderRefusal`, credited their P&L by `profit` rounded as a close is. Inside a bar, a held position's
 * stop loss and take profit fire where the bar's range reaches them (at the bar's open when it opens
 * beyond them; the stop loss first when the range reaches both, since the order inside a bar is
 * unknown). Equity (balance + floating at the close) is taken at the end of each UTC day with bars and
 * becomes the next day's 00:00 snapshot, from which the return index and its drawdown are computed as
 * for a live account. A balance never stays below 0 (the write-off of a live account).
 */
export function backtest(kind: StrategyKind, bars: readonly StrategyBar[], terms: BacktestTerms): BacktestResult {
  const signal = STRATEGY_SIGNALS[kind];
  const lookback = STRATEGY_LOOKBACK[kind];
  const spread = dec(terms.spread);
  const quoteAt = (bid: Dec): BidAsk => ({ bid, ask: bid.plus(spread) });
  let balance = dec(terms.startBalance);
  let holding = null as Holding | null;
  const trades: BacktestTrade[] = [];
  const snapshots = bars.length > 0 ? [{ day: dayOf(bars[0]!.time * 1000), equity: balance }] : [];

  const floating = (bid: Dec) =>
    holding === null
      ? dec(0)
      : profit(
          { side: holding.side, lots: holding.lots, contractSize: terms.contractSize, entry: holding.entry },
          exitPrice(holding.side, quoteAt(bid)),
          terms.usdRate,
        );
  const close = (exit: Dec, at: number, reason: BacktestTrade['reason']) => {
    const open = holding!;
    const result = roundProfit(
      profit({ side: open.side, lots: open.lots, contractSize: terms.contractSize, entry: open.entry }, exit, terms.usdRate),
    );
    balance = Dec.max(balance.plus(roundBalance(result)), 0);
    trades.push({ ...open, exit, closedAt: at, profit: result, reason });
    holding = null;
  };
  const open = (wanted: StrategySignal, bid: Dec, at: number) => {
    const side = sideOf(wanted.position);
    const quote = quoteAt(bid);
    const price = entryPrice(side, quote);
    const lots = strategyLots({
      equity: balance,
      price,
      contractSize: terms.contractSize,
      usdRate: terms.usdRate,
      lots: terms.lots,
    });
    if (lots === null) return;
    const charges = orderCharges({ ...terms, lots, price });
    if (orderRefusal({ freeMargin: balance, balance, charges, pending: false }) !== null) return;
    balance = balance.minus(charges.fee);
    holding = {
      side,
      lots,
      entry: price,
      fee: charges.fee,
      openedAt: at,
      ...acceptedStops(side, exitPrice(side, quote), wanted, terms.pricePrecision),
    };
  };

  for (const [i, bar] of bars.entries()) {
    const closeAt = (bar.time + terms.barSeconds) * 1000;
    if (holding !== null) stopsInside(bar, holding, quoteAt, (exit, reason) => close(exit, closeAt, reason));
    const bid = dec(bar.close);
    if (i + 1 >= lookback) {
      const wanted = signal(bars.slice(i + 1 - lookback, i + 1), wantedOf(holding));
      const held = wantedOf(holding);
      if (holding !== null && wanted.position !== held) close(exitPrice(holding.side, quoteAt(bid)), closeAt, 'signal');
      if (holding === null && wanted.position !== 'flat') open(wanted, bid, closeAt);
      else if (holding !== null)
        Object.assign(holding, acceptedStops(holding.side, exitPrice(holding.side, quoteAt(bid)), wanted, terms.pricePrecision));
    }
    const day = dayOf(bar.time * 1000);
    const next = bars[i + 1];
    if (next === undefined || dayOf(next.time * 1000) !== day) {
      snapshots.push({ day: dayOf(dayStart(day) + DAY_MS), equity: balance.plus(floating(bid)) });
    }
  }
  const index = returnIndex(periodReturns(snapshots, []));
  return {
    index,
    returnPct: index.length > 0 ? index.at(-1)!.value.minus(index[0]!.value) : dec(0),
    maxDrawdownPct: maxDrawdownPct(index),
    trades,
    winRatePct: winRatePct(trades.map((trade) => ({ openedAt: trade.openedAt, closedAt: trade.closedAt, profit: trade.profit }))),
    balance,
  };
}

/** Whether the bar's range reaches the holding's stop loss or take profit, and where it closes if so. */
function stopsInside(
  bar: StrategyBar,
  holding: Holding,
  quoteAt: (bid: Dec) => BidAsk,
  closeAt: (exit: Dec, reason: 'take_profit' | 'stop_loss') => void,
) {
  const stops = { takeProfit: holding.takeProfit, stopLoss: holding.stopLoss };
  const exitAt = (bid: DecimalInput) => exitPrice(holding.side, quoteAt(dec(bid)));
  const buy = holding.side === OrderSide.buy;
  const atOpen = stopReached(holding.side, exitAt(bar.open), stops);
  if (atOpen !== null) return closeAt(exitAt(bar.open), atOpen);
  const adverse = exitAt(buy ? bar.low : bar.high);
  if (holding.stopLoss !== null && stopReached(holding.side, adverse, { stopLoss: holding.stopLoss }) !== null) {
    return closeAt(holding.stopLoss, 'stop_loss');
  }
  const favourable = exitAt(buy ? bar.high : bar.low);
  if (holding.takeProfit !== null && stopReached(holding.side, favourable, { takeProfit: holding.takeProfit }) !== null) {
    return closeAt(holding.takeProfit, 'take_profit');
  }
}

/** The backtest as the provider profile shows it (percent points and index values to 2 decimals); null without bars. */
export function backtestView(result: BacktestResult): BacktestView | null {
  const first = result.index[0];
  const last = result.index.at(-1);
  if (!first || !last) return null;
  return {
    from: first.day,
    to: last.day,
    index: result.index.map((point) => ({ day: point.day, value: toJsonNumber(point.value, 2) })),
    return_all: toJsonNumber(result.returnPct, 2),
    max_drawdown: toJsonNumber(result.maxDrawdownPct, 2),
    trades: result.trades.length,
    win_rate: result.winRatePct === null ? null : toJsonNumber(result.winRatePct, 2),
  };
}
