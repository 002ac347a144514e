import { describe, expect, it } from 'vitest';
import { dec } from '../money.js';
import { OrderSide } from '../trading.js';
import { acceptedStops, backtest, backtestView, type BacktestTerms } from './backtest.js';
import type { StrategyBar } from './strategies.js';

const DAY = 86_400;
const JAN_1 = Date.UTC(2026, 0, 1) / 1000;

/** Daily bars from 1 January 2026: [open, high, low, close]. */
const daily = (rows: [number, number, number, number][]): StrategyBar[] =>
  rows.map(([open, high, low, close], i) => ({ time: JAN_1 + i * DAY, open, high, low, close }));

/** One unit per lot, margin = notional ÷ 10, fee = 1 % of the margin, whole lots, 0.1 of spread. */
const terms: BacktestTerms = {
  spread: '0.1',
  contractSize: '1',
  marginMode: 2,
  feeType: 2,
  feeRate: '0.01',
  usdRate: '1',
  leverage: 10,
  lots: { minLots: '1', lotStep: '1', maxLots: '1000' },
  startBalance: '1000',
  barSeconds: DAY,
  pricePrecision: 2,
};

describe('backtest', () => {
  // 20 quiet days around 10, a breakout to 12, a day higher, then a fall through the stop.
  const bars = daily([
    ...Array.from({ length: 20 }, (): [number, number, number, number] => [10, 10.5, 9.5, 10]),
    [10, 12, 10, 12],
    [12, 13, 11.9, 13],
    [13, 13, 9, 9.8],
  ]);

  it('trades the breakout at the close with spread, margin and fee, and stops out inside a bar', () => {
    const result = backtest('breakout', bars, terms);
    // Day 21 closes at 12 above the 20-day high of 10.5: buy at the ask 12.1. Lots = 1,000 ÷ 12.1 = 82.6… → 82;
    // margin 82 × 12.1 ÷ 10 = 99.22, fee 1 % = 0.9922 → 0.99. Stop: the lowest low of the last 10 days, 9.5.
    // Day 23 falls to 9 (bid): the stop fires at 9.5; P&L (9.5 − 12.1) × 82 = −213.2.
    expect(result.trades).toHaveLength(1);
    const [trade] = result.trades;
    expect(trade).toMatchObject({ side: OrderSide.buy, reason: 'stop_loss' });
    expect([trade!.lots, trade!.entry, trade!.exit, trade!.fee, trade!.profit].map((value) => value.toFixed())).toEqual([
      '82',
      '12.1',
      '9.5',
      '0.99',
      '-213.2',
    ]);
    // 1,000 − 0.99 − 213.2.
    expect(result.balance.toFixed()).toBe('785.81');
    expect(result.winRatePct?.toFixed()).toBe('0');
  });

  it('marks each day to market at its close for a 100-based daily index', () => {
    const result = backtest('breakout', bars, terms);
    const index = result.index.map((point) => [point.day, point.value.toFixed()]);
    // 100 from 1 January (the start) through 21 January (the day before the buy's first close).
    expect(index.slice(0, 21).every(([, value]) => value === '100')).toBe(true);
    expect(index.slice(20)).toEqual([
      ['2026-01-21', '100'],
      // End of day 21: 999.01 + (12 − 12.1) × 82 = 990.81.
      ['2026-01-22', '99.081'],
      // End of day 22: 999.01 + (13 − 12.1) × 82 = 1,072.81.
      ['2026-01-23', '107.281'],
      // End of day 23: flat at 785.81.
      ['2026-01-24', '78.581'],
    ]);
    expect(result.returnPct.toFixed()).toBe('-21.419');
    // From the peak 107.281 to 78.581: 28.7 ÷ 107.281 × 100 = 26.7521…
    expect(result.maxDrawdownPct.toFixed(4)).toBe('26.7522');
    expect(backtestView(result)).toMatchObject({
      from: '2026-01-01',
      to: '2026-01-24',
      return_all: -21.42,
      max_drawdown: 26.75,
      trades: 1,
      win_rate: 0,
    });
    expect(backtestView(result)?.index.at(-2)).toEqual({ day: '2026-01-23', value: 107.28 });
  });

  it('takes profit at the mean, and reverses at the close on the other signal', () => {
    // Mean reversion: 4 days at 95, 15 at 98, then 90 (z −3.5): buy at 90.1, take profit at the mean 97, stop 89.
    const reverting = daily([
      ...Array.from({ length: 4 }, (): [number, number, number, number] => [95, 95, 95, 95]),
      ...Array.from({ length: 15 }, (): [number, number, number, number] => [98, 98, 98, 98]),
      [98, 98, 90, 90],
      [90, 97.5, 90, 97.5],
    ]);
    const result = backtest('reversion', reverting, terms);
    // Lots 1,000 ÷ 90.1 = 11.09… → 11; margin 99.11, fee 0.9911 → 0.99. Day 21 reaches 97 (bid) on its way to
    // 97.5: profit (97 − 90.1) × 11 = 75.9.
    expect(result.trades.map((trade) => [trade.reason, trade.exit.toFixed(), trade.profit.toFixed()])).toEqual([
      ['take_profit', '97', '75.9'],
    ]);
    expect(result.balance.toFixed()).toBe('1074.91');
    expect(result.winRatePct?.toFixed()).toBe('100');
  });

  it('rounds the levels to the price precision and drops one already on the wrong side', () => {
    expect(acceptedStops(OrderSide.buy, '10', { takeProfit: null, stopLoss: null }, 2)).toEqual({
      takeProfit: null,
      stopLoss: null,
    });
    // A buy closing at 10: a stop at 10.2 would be refused; the take profit at 11.005 stands, at 11.01.
    const levels = acceptedStops(OrderSide.buy, '10', { takeProfit: dec('11.005'), stopLoss: dec('10.2') }, 2);
    expect([levels.takeProfit?.toFixed(), levels.stopLoss]).toEqual(['11.01', null]);
    // A sell closing at 10: its stop at 10.004 rounds to 10.00, no longer above the price, and is dropped.
    expect(acceptedStops(OrderSide.sell, '10', { takeProfit: null, stopLoss: dec('10.004') }, 2).stopLoss).toBeNull();
  });

  it('has nothing to show without bars', () => {
    const result = backtest('trend', [], terms);
    expect(result.index).toEqual([]);
    expect(backtestView(result)).toBeNull();
  });
});
