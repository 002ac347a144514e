import { describe, expect, it } from 'vitest';
import { dec } from '../money.js';
import {
  breakoutSignal,
  reversionSignal,
  sma,
  stdDev,
  strategyLots,
  trendSignal,
  type StrategyBar,
  type StrategySignal,
} from './strategies.js';

const HOUR = 3600;

/** Hourly bars closing at `closes`, each with a range of ± `half` around its close. */
const barsOf = (closes: (number | string)[], half = 0): StrategyBar[] =>
  closes.map((close, i) => ({
    time: i * HOUR,
    open: close,
    high: dec(close).plus(half).toFixed(),
    low: dec(close).minus(half).toFixed(),
    close,
  }));

const repeat = (value: number, times: number) => Array.from({ length: times }, () => value);

/** The signal with its levels as text, for exact comparisons. */
const shown = (signal: StrategySignal) => ({
  position: signal.position,
  takeProfit: signal.takeProfit?.toFixed() ?? null,
  stopLoss: signal.stopLoss?.toFixed() ?? null,
});

describe('averages', () => {
  it('takes the mean and the population deviation of the last n values', () => {
    const values = [100, 2, 4, 4, 4, 5, 5, 7, 9].map(dec);
    // The last 8: mean (2 + 4 + 4 + 4 + 5 + 5 + 7 + 9) ÷ 8 = 5; squares 9 + 1 + 1 + 1 + 0 + 0 + 4 + 16 = 32, ÷ 8 = 4, σ 2.
    expect(sma(values, 8).toFixed()).toBe('5');
    expect(stdDev(values, 8).toFixed()).toBe('2');
  });
});

describe('trend follower (SMA 10/30)', () => {
  it('wants nothing before 30 bars', () => {
    expect(shown(trendSignal(barsOf(repeat(10, 29)), 'flat'))).toEqual({ position: 'flat', takeProfit: null, stopLoss: null });
  });

  it('goes long when the fast average is above the slow one, its stop 2 σ under the slow average', () => {
    // 15 closes at 10 then 15 at 14: fast = 14, slow = 12; every close is 2 from 12, so σ = 2; stop 12 − 2 × 2 = 8.
    const bars = barsOf([...repeat(10, 15), ...repeat(14, 15)]);
    expect(shown(trendSignal(bars, 'flat'))).toEqual({ position: 'long', takeProfit: null, stopLoss: '8' });
  });

  it('goes short when the fast average is below, its stop 2 σ over the slow average', () => {
    const bars = barsOf([...repeat(14, 15), ...repeat(10, 15)]);
    expect(shown(trendSignal(bars, 'long'))).toEqual({ position: 'short', takeProfit: null, stopLoss: '16' });
  });

  it('keeps the position held while the averages are equal', () => {
    // All 30 at 10: fast = slow = 10, σ = 0, so the stop is the slow average itself.
    expect(shown(trendSignal(barsOf(repeat(10, 30)), 'short'))).toEqual({ position: 'short', takeProfit: null, stopLoss: '10' });
    expect(trendSignal(barsOf(repeat(10, 30)), 'flat').position).toBe('flat');
  });
});

describe('mean reversion (z of close against SMA 20)', () => {
  // 4 closes at 95, 15 at 98, last 90: mean (380 + 1470 + 90) ÷ 20 = 97; squares 4 × 4 + 15 × 1 + 49 = 80, ÷ 20 = 4, σ = 2;
  // z = (90 − 97) ÷ 2 = −3.5.
  const stretched = [...repeat(95, 4), ...repeat(98, 15), 90];

  it('buys below z −2, taking profit at the mean and stopping at z −4', () => {
    expect(shown(reversionSignal(barsOf(stretched), 'flat'))).toEqual({ position: 'long', takeProfit: '97', stopLoss: '89' });
  });

  it('sells above z +2, mirrored', () => {
    // Mirrored around 100: 4 at 105, 15 at 102, last 110: mean 103, σ 2, z +3.5.
    const bars = barsOf([...repeat(105, 4), ...repeat(102, 15), 110]);
    expect(shown(reversionSignal(bars, 'flat'))).toEqual({ position: 'short', takeProfit: '103', stopLoss: '111' });
  });

  it('holds until z crosses 0, then exits', () => {
    // 4 at 95, 15 at 98, last 96: mean 97, squares 16 + 15 + 1 = 32, ÷ 20 = 1.6: z = −1 ÷ √1.6 ≈ −0.79, still below the mean.
    const below = barsOf([...repeat(95, 4), ...repeat(98, 15), 96]);
    expect(reversionSignal(below, 'long').position).toBe('long');
    expect(reversionSignal(below, 'flat').position).toBe('flat');
    // Last 98: mean 97.1, above it (z > 0): the long exits, a short (z < +2) holds.
    const above = barsOf([...repeat(95, 4), ...repeat(98, 15), 98]);
    expect(reversionSignal(above, 'long').position).toBe('flat');
    expect(reversionSignal(above, 'short').position).toBe('short');
  });

  it('wants nothing when every close is the same (z 0)', () => {
    expect(reversionSignal(barsOf(repeat(97, 20)), 'long').position).toBe('flat');
  });
});

describe('breakout (20-bar highs and lows)', () => {
  // 20 bars closing at 10 with highs 10.5 and lows 9.5.
  const range = repeat(10, 20);

  it('buys a close above the 20 bars before it, its stop at the lowest low of the last 10', () => {
    const bars = barsOf([...range, 11], 0.5);
    // 11 > 10.5; the last 10 bars' lows: 9.5 (nine times) and 10.5.
    expect(shown(breakoutSignal(bars, 'flat'))).toEqual({ position: 'long', takeProfit: null, stopLoss: '9.5' });
  });

  it('sells a close below their lowest low, its stop at the highest high of the last 10', () => {
    expect(shown(breakoutSignal(barsOf([...range, 9], 0.5), 'flat'))).toEqual({
      position: 'short',
      takeProfit: null,
      stopLoss: '10.5',
    });
  });

  it('holds inside the channel and exits beyond the 10-bar extreme against it', () => {
    // Inside [9.5, 10.5]: nothing changes.
    expect(breakoutSignal(barsOf([...range, 10.2], 0.5), 'long').position).toBe('long');
    expect(breakoutSignal(barsOf([...range, 10.2], 0.5), 'flat').position).toBe('flat');
    // 10 bars at 12 (lows 11.5) after 11 at 10: a close of 11 is under the last 10 lows (11.5) but not the 20-bar low (9.5).
    const risen = barsOf([...repeat(10, 11), ...repeat(12, 10), 11], 0.5);
    expect(breakoutSignal(risen, 'long').position).toBe('flat');
    expect(breakoutSignal(risen, 'short').position).toBe('short');
  });

  it('wants nothing before 21 bars', () => {
    expect(breakoutSignal(barsOf(range, 0.5), 'flat').position).toBe('flat');
  });
});

describe('strategy lots', () => {
  const lots = { minLots: '0.01', lotStep: '0.01', maxLots: '50' };

  it('sizes the notional to the equity, rounded down onto the lot grid', () => {
    // 100,000 ÷ (100,000 × 1.1) = 0.9090… lots → 0.90.
    expect(strategyLots({ equity: '100000', price: '1.1', contractSize: '100000', usdRate: '1', lots })?.toFixed()).toBe('0.9');
    // A JPY-quoted pair: the notional in yen × USD per yen. 100,000 ÷ (100,000 × 150 × 0.0066) = 1.0101… → 1.01.
    expect(strategyLots({ equity: '100000', price: '150', contractSize: '100000', usdRate: '0.0066', lots })?.toFixed()).toBe(
      '1.01',
    );
  });

  it('caps at the maximum and refuses below the minimum or without equity', () => {
    expect(strategyLots({ equity: '1e9', price: '1', contractSize: '1', usdRate: '1', lots })?.toFixed()).toBe('50');
    expect(strategyLots({ equity: '100', price: '1.1', contractSize: '100000', usdRate: '1', lots })).toBeNull();
    expect(strategyLots({ equity: '0', price: '1.1', contractSize: '100000', usdRate: '1', lots })).toBeNull();
  });
});
