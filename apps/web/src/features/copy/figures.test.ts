import { describe, expect, it } from 'vitest';
import { activeFilters, chartPoints, DEFAULT_FILTER, monthlyTable, priceDecimals, providerListParams, riskTone } from './figures';

describe('the provider filter as the list query', () => {
  it('sends only the filters set: "any" sends none', () => {
    expect(providerListParams(DEFAULT_FILTER)).toEqual({ sort: 'return' });
    expect(providerListParams({ riskMax: 5, minMonths: 6, sort: 'copiers' })).toEqual({
      sort: 'copiers',
      risk_max: 5,
      min_months: 6,
    });
    expect(providerListParams({ riskMax: null, minMonths: 0, sort: 'drawdown' })).toEqual({ sort: 'drawdown' });
  });

  it('counts the filters that narrow the list', () => {
    expect(activeFilters(DEFAULT_FILTER)).toBe(0);
    expect(activeFilters({ riskMax: 3, minMonths: 12, sort: 'return' })).toBe(2);
  });
});

describe('figures', () => {
  it('colours the risk score by band', () => {
    expect([null, 1, 3, 4, 6, 7, 10].map(riskTone)).toEqual(['none', 'low', 'low', 'mid', 'mid', 'high', 'high']);
  });

  it('lays monthly returns out by year, newest first, and chains the year’s months', () => {
    const table = monthlyTable([
      { month: '2025-12', return: 10 },
      { month: '2026-01', return: 10 },
      { month: '2026-03', return: -10 },
    ]);
    expect(table.map((row) => row.year)).toEqual(['2026', '2025']);
    expect(table[0]!.months.slice(0, 4)).toEqual([10, null, -10, null]);
    // 1.1 × 0.9 − 1 = −1 %, not the sum 0 %.
    expect(table[0]!.total).toBeCloseTo(-1, 10);
    expect(table[1]!.months[11]).toBe(10);
  });

  it('gives the chart each day once, in order', () => {
    expect(
      chartPoints([
        { day: '2026-01-02', value: 101 },
        { day: '2026-01-01', value: 100 },
        { day: '2026-01-02', value: 102 },
      ]),
    ).toEqual([
      { time: '2026-01-01', value: 100 },
      { time: '2026-01-02', value: 102 },
    ]);
  });

  it('shows a price as precisely as it was sent, at most 5 decimals', () => {
    expect([1.0845, 65000, 1.234567].map(priceDecimals)).toEqual([4, 0, 5]);
  });
});
