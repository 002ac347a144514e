import type { IndexPointView, MonthReturnView, ProviderSort } from '@pipwise/domain';
import type { ProviderListParams } from '../../api/queries/copy';

/** What the provider list's filter sheet holds: null is "any". */
export interface ProviderFilter {
  riskMax: number | null;
  minMonths: number | null;
  sort: ProviderSort;
}

export const DEFAULT_FILTER: ProviderFilter = { riskMax: null, minMonths: null, sort: 'return' };

/** The choices the filter offers: a risk score cap and a track record of at least so many months. */
export const RISK_CHOICES = [3, 5, 7] as const;
export const MONTH_CHOICES = [1, 3, 6, 12] as const;

/** The list's query: only the filters set, so "any" asks the server's default rather than a made-up bound. */
export function providerListParams(filter: ProviderFilter): ProviderListParams {
  return {
    sort: filter.sort,
    ...(filter.riskMax !== null ? { risk_max: filter.riskMax } : {}),
    ...(filter.minMonths !== null && filter.minMonths > 0 ? { min_months: filter.minMonths } : {}),
  };
}

/** How many filters narrow the list (the badge on the filter button). */
export const activeFilters = (filter: ProviderFilter) => (filter.riskMax !== null ? 1 : 0) + (filter.minMonths ? 1 : 0);

/** The risk score's colour band: calm 1–3, moderate 4–6, wild 7–10; none before a score exists. */
export function riskTone(score: number | null): 'low' | 'mid' | 'high' | 'none' {
  if (score === null) return 'none';
  if (score <= 3) return 'low';
  return score <= 6 ? 'mid' : 'high';
}

/** One year of the monthly table: the twelve months (null where there was no history) and the year's chained return. */
export interface YearRow {
  year: string;
  months: (number | null)[];
  total: number;
}

/**
 * The monthly returns laid out by year, newest year first, January to December; the year's return chains
 * its months (1.1 × 0.9 − 1, never their sum), as the domain chains days into months.
 */
export function monthlyTable(monthly: readonly MonthReturnView[]): YearRow[] {
  const years = new Map<string, (number | null)[]>();
  for (const { month, return: value } of monthly) {
    const [year, number] = month.split('-');
    if (!year || !number) continue;
    const row = years.get(year) ?? Array<number | null>(12).fill(null);
    row[Number(number) - 1] = value;
    years.set(year, row);
  }
  return [...years.entries()]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([year, months]) => ({
      year,
      months,
      total: (months.reduce<number>((product, value) => product * (1 + (value ?? 0) / 100), 1) - 1) * 100,
    }));
}

/** A return index as the chart's points: lightweight-charts takes business days as `YYYY-MM-DD`, in order, once each. */
export function chartPoints(index: readonly IndexPointView[]): { time: string; value: number }[] {
  const byDay = new Map(index.map((point) => [point.day, point.value]));
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([time, value]) => ({ time, value }));
}

/** The copy stop-loss slider's range and step, percent of the amount (the domain's bounds). */
export const STOP_LOSS_STEP = 5;
export const DEFAULT_STOP_LOSS_PCT = 40;

/** A price as precise as the server sent it, at most 5 decimals (instruments quote with 0 to 5). */
export const priceDecimals = (price: number) => Math.min(5, (String(price).split('.')[1] ?? '').length);

/**
 * A value set apart from the sentence it is put in (first strong isolate … pop directional isolate): a
 * Latin name, a pair's code or a figure keeps its own direction inside an Arabic sentence.
 */
export const isolate = (value: string) => `\u2068${value}\u2069`;
