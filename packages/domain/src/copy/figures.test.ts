import { describe, expect, it } from 'vitest';
import { dec } from '../money.js';
import {
  averageHoldingMs,
  compoundRate,
  maxDrawdownPct,
  monthlyReturns,
  monthsBefore,
  periodReturns,
  providerFigures,
  returnIndex,
  riskScore,
  tradesPerWeek,
  volatilityPct,
  windowReturn,
  winRatePct,
  type ClosedPosition,
  type EquitySnapshot,
} from './figures.js';

const at = (text: string) => new Date(text);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Daily snapshots from `first`, one equity a day. */
function daily(first: string, equities: string[]): EquitySnapshot[] {
  return equities.map((equity, i) => ({ day: new Date(Date.parse(first) + i * DAY).toISOString().slice(0, 10), equity }));
}

/** The rates of the periods, as exact text. */
const rates = (snapshots: EquitySnapshot[], flows: Parameters<typeof periodReturns>[1] = []) =>
  periodReturns(snapshots, flows).map((period) => period.rate.toFixed());

describe('time-weighted return', () => {
  it('does not count a deposit or a withdrawal as return', () => {
    const snapshots = daily('2026-03-01', ['1000', '1010', '2030.10', '1530.10']);
    const flows = [
      { at: at('2026-03-02T12:00:00Z'), amount: '1000' },
      { at: at('2026-03-03T09:00:00Z'), amount: '-500' },
    ];
    // Day 1: (1010 − 1000 − 0) ÷ (1000 + 0) = 0.01.
    // Day 2, 1000 deposited: (2030.10 − 1010 − 1000) ÷ (1010 + 1000) = 20.10 ÷ 2010 = 0.01.
    // Day 3, 500 withdrawn: (1530.10 − 2030.10 − (−500)) ÷ (2030.10 + 0) = 0 ÷ 2030.10 = 0.
    expect(rates(snapshots, flows)).toEqual(['0.01', '0.01', '0']);
    // 1.01 × 1.01 × 1 − 1 = 0.0201: 2.01 %, where equity alone went from 1000 to 1530.10 (+53.01 %).
    expect(windowReturn(periodReturns(snapshots, flows), null)?.pct.toFixed()).toBe('2.01');
  });

  it('books a flow at 00:00 in the day that starts then, and ignores flows outside the snapshots', () => {
    const snapshots = daily('2026-03-01', ['1000', '1000', '1100']);
    const flows = [
      { at: at('2026-02-28T23:59:59Z'), amount: '5000' },
      { at: at('2026-03-02T00:00:00Z'), amount: '100' },
      { at: at('2026-03-03T00:00:00Z'), amount: '7000' },
    ];
    // Day 1: (1000 − 1000) ÷ 1000 = 0. Day 2 holds the 100 booked at its 00:00: (1100 − 1000 − 100) ÷ 1100 = 0.
    expect(rates(snapshots, flows)).toEqual(['0', '0']);
  });

  it('counts a first deposit into an empty account as capital, not gain, and a day with no capital as 0', () => {
    const snapshots = daily('2026-03-01', ['0', '0', '1010']);
    // Day 1: no capital (0 + 0): 0. Day 2: (1010 − 0 − 1000) ÷ (0 + 1000) = 0.01.
    expect(rates(snapshots, [{ at: at('2026-03-02T08:00:00Z'), amount: '1000' }])).toEqual(['0', '0.01']);
  });

  it('refuses snapshots out of order', () => {
    expect(() =>
      periodReturns(
        [
          { day: '2026-03-02', equity: 1 },
          { day: '2026-03-01', equity: 1 },
        ],
        [],
      ),
    ).toThrow(RangeError);
  });

  it('chains returns over 1M, 3M, 12M and all, by calendar months back from the last snapshot', () => {
    // 1 January to 1 April 2026: 90 daily periods at 1000, except three days.
    const equities: string[] = [];
    let equity = '1000';
    for (let i = 0; i <= 90; i++) {
      const day = new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
      if (day === '2026-01-11') equity = '1100'; // period 10 → 11 January: +10 %
      if (day === '2026-03-16') equity = '990'; // period 15 → 16 March: −10 %
      if (day === '2026-03-21') equity = '1039.5'; // period 20 → 21 March: 990 × 1.05, +5 %
      equities.push(equity);
    }
    const returns = periodReturns(daily('2026-01-01', equities), []);
    expect(returns).toHaveLength(90);
    // 1M: periods from 1 March: 0.9 × 1.05 − 1 = −0.055.
    expect(windowReturn(returns, 1)).toMatchObject({ from: '2026-03-01', to: '2026-04-01', complete: true });
    expect(windowReturn(returns, 1)?.pct.toFixed()).toBe('-5.5');
    // 3M: from 1 January, the whole history: 1.1 × 0.9 × 1.05 − 1 = 0.0395.
    expect(windowReturn(returns, 3)).toMatchObject({ from: '2026-01-01', complete: true });
    expect(windowReturn(returns, 3)?.pct.toFixed()).toBe('3.95');
    // 12M would start on 1 April 2025: the history covers only its last three months.
    expect(windowReturn(returns, 12)).toMatchObject({ from: '2026-01-01', complete: false });
    expect(windowReturn(returns, 12)?.pct.toFixed()).toBe('3.95');
    expect(windowReturn(returns, null)?.pct.toFixed()).toBe('3.95');
    // Months: January +10 %, February 0, March 0.9 × 1.05 − 1 = −5.5 % (31 March → 1 April is March's).
    expect(monthlyReturns(returns).map(({ month, pct }) => [month, pct.toFixed()])).toEqual([
      ['2026-01', '10'],
      ['2026-02', '0'],
      ['2026-03', '-5.5'],
    ]);
    expect(windowReturn([], 1)).toBeNull();
  });

  it('counts months back to the same day, clamped to a shorter month', () => {
    expect(monthsBefore('2026-03-31', 1)).toBe('2026-02-28');
    expect(monthsBefore('2024-03-31', 1)).toBe('2024-02-29');
    expect(monthsBefore('2026-01-15', 1)).toBe('2025-12-15');
    expect(monthsBefore('2026-04-01', 12)).toBe('2025-04-01');
    expect(monthsBefore('2026-05-31', 3)).toBe('2026-02-28');
  });
});

describe('risk: volatility, score and drawdown of a known series', () => {
  // Daily returns +2 %, −1 %, +1 %, −2 %, 0 with no flows:
  // 1000 → 1020 → 1009.8 → 1019.898 → 999.50004 → 999.50004.
  const snapshots = daily('2026-06-01', ['1000', '1020', '1009.8', '1019.898', '999.50004', '999.50004']);
  const returns = periodReturns(snapshots, []);

  it('has the returns it was built from', () => {
    expect(returns.map((period) => period.rate.toFixed())).toEqual(['0.02', '-0.01', '0.01', '-0.02', '0']);
  });

  it('gives the sample standard deviation, annualised over 365 days', () => {
    // Mean 0; squares 0.0004 + 0.0001 + 0.0001 + 0.0004 + 0 = 0.001; ÷ (5 − 1) = 0.00025 (daily variance).
    // Annualised: √(0.00025 × 365) = √0.09125 = 0.3020761493… → 30.207615 %.
    expect(volatilityPct(returns)?.toFixed(6)).toBe('30.207615');
    // 25 < 30.21 ≤ 35: score 7.
    expect(riskScore(volatilityPct(returns))).toBe(7);
  });

  it('gives the largest fall of the return index from its peak', () => {
    const index = returnIndex(returns);
    // 100 × 1.02 = 102, × 0.99 = 100.98, × 1.01 = 101.9898, × 0.98 = 99.950004, × 1 = 99.950004.
    expect(index.map((point) => point.value.toFixed())).toEqual(['100', '102', '100.98', '101.9898', '99.950004', '99.950004']);
    expect(index.map((point) => point.day)).toEqual(snapshots.map((snapshot) => snapshot.day));
    // Peak 102 (101.9898 never passed it), trough 99.950004: (102 − 99.950004) ÷ 102 = 2.049996 ÷ 102 = 2.0098 %.
    expect(maxDrawdownPct(index).toFixed()).toBe('2.0098');
    // The index's last value is the time-weighted return: 99.950004 − 100 = −0.049996 %.
    expect(compoundRate(returns).times(100).toFixed()).toBe('-0.049996');
  });

  it('puts each volatility in its band, upper bounds included', () => {
    expect([0, 2, 2.0001, 5, 8, 12, 17, 25, 35, 50, 80, 80.01, 300].map((sigma) => riskScore(sigma))).toEqual([
      1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10,
    ]);
    expect(riskScore(null)).toBeNull();
  });

  it('has no volatility before two returns, and none for a steady series', () => {
    expect(volatilityPct(returns.slice(0, 1))).toBeNull();
    // +1 % every day: every deviation from the mean is 0.
    const steady = periodReturns(daily('2026-06-01', ['100', '101', '102.01', '103.0301']), []);
    expect(volatilityPct(steady)?.toFixed()).toBe('0');
    expect(riskScore(volatilityPct(steady))).toBe(1);
    expect(maxDrawdownPct(returnIndex(steady)).toFixed()).toBe('0');
  });
});

describe('trading habits from closed positions', () => {
  const opened = Date.parse('2026-06-01T00:00:00Z');
  const positions: ClosedPosition[] = [
    { openedAt: opened, closedAt: opened + 1 * HOUR, profit: '10' },
    { openedAt: opened, closedAt: opened + 3 * HOUR, profit: '-5' },
    { openedAt: opened + DAY, closedAt: opened + DAY + 2 * HOUR, profit: '0' },
    { openedAt: opened + 9 * DAY, closedAt: opened + 9 * DAY + 2 * HOUR, profit: '3.5' },
  ];

  it('counts wins as positions closed above 0', () => {
    // 10 and 3.5 win; −5 and 0 do not: 2 ÷ 4 = 50 %.
    expect(winRatePct(positions)?.toFixed()).toBe('50');
    expect(winRatePct([])).toBeNull();
  });

  it('averages the holding time', () => {
    // (1 + 3 + 2 + 2) h ÷ 4 = 2 h.
    expect(averageHoldingMs(positions)).toBe(2 * HOUR);
    expect(averageHoldingMs([])).toBeNull();
  });

  it('counts trades per week of the span, a short span counting as one week', () => {
    // 4 closed in 14 days = 2 weeks: 2 a week.
    expect(tradesPerWeek(positions, opened, opened + 14 * DAY).toFixed()).toBe('2');
    // 10 days (from day 0): the same 4 ÷ (10 ÷ 7) = 2.8 a week.
    expect(tradesPerWeek(positions, opened, opened + 10 * DAY).toFixed()).toBe('2.8');
    // 3 days: three positions closed, but the span counts as a week: 3.
    expect(tradesPerWeek(positions, opened, opened + 3 * DAY).toFixed()).toBe('3');
  });
});

describe('providerFigures', () => {
  it('gathers every figure of an account, the deposit excluded from its returns', () => {
    const figures = providerFigures({
      snapshots: daily('2026-06-01', ['1000', '1020', '2009.9']),
      // Day 2, 1000 deposited: (2009.9 − 1020 − 1000) ÷ (1020 + 1000) = −10.1 ÷ 2020 = −0.005.
      flows: [{ at: at('2026-06-02T10:00:00Z'), amount: '1000' }],
      closedPositions: [{ openedAt: at('2026-05-31T20:00:00Z'), closedAt: at('2026-06-01T08:00:00Z'), profit: '20' }],
      now: at('2026-06-03T00:00:00Z'),
    });
    // Day 1: +2 %. All: 1.02 × 0.995 − 1 = 0.0149, 1.49 % (equity alone doubled).
    expect(figures.returns.all?.pct.toFixed()).toBe('1.49');
    expect(figures.returns['1m']).toMatchObject({ from: '2026-06-01', complete: false });
    expect(figures.index.at(-1)?.value.toFixed()).toBe('101.49');
    // The index went 100 → 102 → 101.49: (102 − 101.49) ÷ 102 = 0.51 ÷ 102 = 0.5 %.
    expect(figures.maxDrawdownPct.toFixed()).toBe('0.5');
    expect(figures.winRatePct?.toFixed()).toBe('100');
    expect(figures.averageHoldingMs).toBe(12 * HOUR);
    // The position opened before the first snapshot, so the span starts there: 1 trade in 28 hours, one week.
    expect(figures.tradesPerWeek.toFixed()).toBe('1');
    expect(figures.monthly.map((month) => month.month)).toEqual(['2026-06']);
    expect(figures.riskScore).not.toBeNull();
  });

  it('scores the risk of the last 12 months and measures the drawdown over the whole history', () => {
    // 1 January 2025 → 5 February 2026: 400 daily periods; only the first moves, 1000 → 900 (−10 %).
    const snapshots = daily('2025-01-01', ['1000', ...Array<string>(400).fill('900')]);
    expect(snapshots.at(-1)?.day).toBe('2026-02-05');
    const figures = providerFigures({ snapshots, flows: [], closedPositions: [], now: at('2026-02-05T12:00:00Z') });
    // The 12 months from 5 February 2025 hold only returns of 0: σ = 0, score 1.
    expect(figures.volatilityPct?.toFixed()).toBe('0');
    expect(figures.riskScore).toBe(1);
    // Over the whole history the index fell from 100 to 90: (100 − 90) ÷ 100 = 10 %.
    expect(figures.maxDrawdownPct.toFixed()).toBe('10');
    expect(figures.returns.all?.pct.toFixed()).toBe('-10');
    expect(figures.returns['12m']?.pct.toFixed()).toBe('0');
  });

  it('has nothing to show before two snapshots', () => {
    const figures = providerFigures({
      snapshots: [{ day: '2026-06-01', equity: dec(500) }],
      flows: [],
      closedPositions: [],
      now: 0,
    });
    expect(figures.returns.all).toBeNull();
    expect(figures.index).toEqual([]);
    expect(figures.riskScore).toBeNull();
    expect(figures.maxDrawdownPct.toFixed()).toBe('0');
  });
});
