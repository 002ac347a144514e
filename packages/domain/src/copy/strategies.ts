import { Dec, dec, type DecimalInput } from '../money.js';
import type { LotRules } from '../trading.js';

/**
 * The broker's automated demo strategies (docs/architecture.md, "Automated strategies and their
 * backtest"): each reads the closed bars of one instrument and says which position it wants and where
 * its take profit and stop loss stand. The server's live runner and the backtest call the same functions,
 * so the backtest shows what the live account does with these rules. Prices are bids, as the bars are.
 */

export type WantedPosition = 'long' | 'short' | 'flat';

/** A closed bar: open time in seconds (UTC) and bid prices. */
export interface StrategyBar {
  time: number;
  open: DecimalInput;
  high: DecimalInput;
  low: DecimalInput;
  close: DecimalInput;
}

export interface StrategySignal {
  position: WantedPosition;
  /** Levels for the wanted position (null: none); a flat signal has none. */
  takeProfit: Dec | null;
  stopLoss: Dec | null;
}

export type StrategyKind = 'trend' | 'reversion' | 'breakout';

const FLAT: StrategySignal = { position: 'flat', takeProfit: null, stopLoss: null };

/** Trend follower: the fast and slow simple moving averages of closes. */
export const TREND_FAST = 10;
export const TREND_SLOW = 30;
/** Its stop loss stands this many standard deviations of the slow window beyond the slow average. */
export const TREND_STOP_SIGMAS = 2;
/** Mean reversion: the average and deviation window, the entry |z| and the stop |z|. */
export const REVERSION_WINDOW = 20;
export const REVERSION_ENTRY_Z = 2;
export const REVERSION_STOP_Z = 4;
/** Breakout: a close beyond the previous 20 bars' extreme enters, one beyond the previous 10 bars' other extreme exits. */
export const BREAKOUT_ENTRY = 20;
export const BREAKOUT_EXIT = 10;

/** How many closed bars each strategy reads (the breakout compares the last close with the bars before it). */
export const STRATEGY_LOOKBACK: Record<StrategyKind, number> = {
  trend: TREND_SLOW,
  reversion: REVERSION_WINDOW,
  breakout: BREAKOUT_ENTRY + 1,
};

const closes = (bars: readonly StrategyBar[]) => bars.map((bar) => dec(bar.close));

/** The mean of the last `n` values. */
export function sma(values: readonly Dec[], n: number): Dec {
  const window = values.slice(-n);
  return window.reduce((sum, value) => sum.plus(value), dec(0)).dividedBy(window.length);
}

/** The population standard deviation of the last `n` values (the window is all there is, not a sample). */
export function stdDev(values: readonly Dec[], n: number): Dec {
  const window = values.slice(-n);
  const mean = sma(window, n);
  return window
    .reduce((sum, value) => sum.plus(value.minus(mean).pow(2)), dec(0))
    .dividedBy(window.length)
    .sqrt();
}

/**
 * SMA 10/30 crossover, always in the market once 30 bars exist: long while the fast average is above the
 * slow one, short while below, unchanged when equal. No take profit (a trend is let run); the stop loss
 * trails 2 σ of the slow window beyond the slow average, so it follows the trend bar by bar.
 */
export function trendSignal(bars: readonly StrategyBar[], held: WantedPosition): StrategySignal {
  if (bars.length < TREND_SLOW) return FLAT;
  const values = closes(bars);
  const fast = sma(values, TREND_FAST);
  const slow = sma(values, TREND_SLOW);
  const position = fast.gt(slow) ? 'long' : fast.lt(slow) ? 'short' : held;
  if (position === 'flat') return FLAT;
  const gap = stdDev(values, TREND_SLOW).times(TREND_STOP_SIGMAS);
  return { position, takeProfit: null, stopLoss: position === 'long' ? slow.minus(gap) : slow.plus(gap) };
}

/**
 * Mean reversion on z = (close − SMA 20) ÷ σ 20: flat, it buys below z −2 and sells above z +2; holding,
 * it exits when z crosses 0 (to the other side at once when z is already past the other entry). Take
 * profit at the mean (z 0), stop loss at z ∓4; both follow the mean bar by bar.
 */
export function reversionSignal(bars: readonly StrategyBar[], held: WantedPosition): StrategySignal {
  if (bars.length < REVERSION_WINDOW) return FLAT;
  const values = closes(bars);
  const mean = sma(values, REVERSION_WINDOW);
  const sigma = stdDev(values, REVERSION_WINDOW);
  // Closes all equal: the close is the mean (z 0), where a position exits and none enters.
  if (sigma.isZero()) return FLAT;
  const z = values.at(-1)!.minus(mean).dividedBy(sigma);
  let position: WantedPosition = held;
  if (z.lt(-REVERSION_ENTRY_Z)) position = 'long';
  else if (z.gt(REVERSION_ENTRY_Z)) position = 'short';
  else if ((held === 'long' && z.gte(0)) || (held === 'short' && z.lte(0))) position = 'flat';
  if (position === 'flat') return FLAT;
  const stop = sigma.times(REVERSION_STOP_Z);
  return {
    position,
    takeProfit: mean,
    stopLoss: position === 'long' ? mean.minus(stop) : mean.plus(stop),
  };
}

/**
 * 20-bar breakout: a close above the highest high of the 20 bars before it buys, below their lowest low
 * sells; a held position exits on a close beyond the other extreme of the 10 bars before it. No take
 * profit; the stop loss is that 10-bar exit extreme, so an intrabar break exits too.
 */
export function breakoutSignal(bars: readonly StrategyBar[], held: WantedPosition): StrategySignal {
  if (bars.length < BREAKOUT_ENTRY + 1) return FLAT;
  const close = dec(bars.at(-1)!.close);
  const before = bars.slice(-(BREAKOUT_ENTRY + 1), -1);
  const highest = (window: readonly StrategyBar[]) => Dec.max(...window.map((bar) => dec(bar.high)));
  const lowest = (window: readonly StrategyBar[]) => Dec.min(...window.map((bar) => dec(bar.low)));
  const exitWindow = before.slice(-BREAKOUT_EXIT);
  let position: WantedPosition = held;
  if (close.gt(highest(before))) position = 'long';
  else if (close.lt(lowest(before))) position = 'short';
  else if (held === 'long' && close.lt(lowest(exitWindow))) position = 'flat';
  else if (held === 'short' && close.gt(highest(exitWindow))) position = 'flat';
  if (position === 'flat') return FLAT;
  // The exit extreme including the last bar: the level a later bar's break crosses.
  const recent = bars.slice(-BREAKOUT_EXIT);
  return { position, takeProfit: null, stopLoss: position === 'long' ? lowest(recent) : highest(recent) };
}

export const STRATEGY_SIGNALS: Record<StrategyKind, (bars: readonly StrategyBar[], held: WantedPosition) => StrategySignal> = {
  trend: trendSignal,
  reversion: reversionSignal,
  breakout: breakoutSignal,
};

/** Each strategy's positions are sized to this multiple of its equity in notional (USD). */
export const STRATEGY_EXPOSURE = 1;

/**
 * Lots whose notional (lots × contract size × price, in USD) is `exposure` × equity, rounded down onto
 * the instrument's lot grid (min, min + step, …) and capped under the maximum; null below the minimum
 * (or without equity), where the strategy cannot trade.
 */
export function strategyLots(input: {
  equity: DecimalInput;
  price: DecimalInput;
  contractSize: DecimalInput;
  usdRate: DecimalInput;
  lots: LotRules;
  exposure?: DecimalInput;
}): Dec | null {
  const unitUsd = dec(input.contractSize).times(input.price).times(input.usdRate);
  if (dec(input.equity).lte(0) || unitUsd.lte(0)) return null;
  const wanted = dec(input.equity)
    .times(input.exposure ?? STRATEGY_EXPOSURE)
    .dividedBy(unitUsd);
  const min = dec(input.lots.minLots);
  if (wanted.lt(min)) return null;
  const capped = Dec.min(wanted, input.lots.maxLots);
  const step = dec(input.lots.lotStep);
  if (step.lte(0)) return capped;
  return min.plus(capped.minus(min).dividedToIntegerBy(step).times(step));
}
