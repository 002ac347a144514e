import { Dec, dec, type DecimalInput } from '../money.js';

/**
 * The figures a copy-trading provider is compared by (docs/architecture.md, "Copy trading figures"):
 * time-weighted returns, the return index and its drawdown, the risk score, and the trading habits read
 * from closed positions. Pure functions on Decimal, unrounded: callers round where a figure leaves.
 * Percentages are percent points (12.5 means 12.5 %); daily rates are fractions (0.125).
 */

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** Snapshots are taken every calendar day, weekends included, so a year holds 365 daily returns. */
const DAYS_PER_YEAR = 365;
/** The value the return index starts from. */
export const RETURN_INDEX_BASE = 100;

/** The account's equity at 00:00 UTC of `day` (YYYY-MM-DD). */
export interface EquitySnapshot {
  day: string;
  equity: DecimalInput;
}

/**
 * Money put in (positive) or taken out (negative) from outside trading: deposits, withdrawals, grants.
 * `at` is the moment it was booked.
 */
export interface CashFlow {
  at: Date | number;
  amount: DecimalInput;
}

/** The return of the period from the snapshot of `from` to the next one, `to`, as a fraction. */
export interface PeriodReturn {
  from: string;
  to: string;
  rate: Dec;
}

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Milliseconds of 00:00 UTC of a YYYY-MM-DD day; a malformed day is a caller's bug, not user input. */
export function dayStart(day: string): number {
  const match = DAY_TEXT.exec(day);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) throw new RangeError(`not a day: ${day}`);
  return ms;
}

/** The UTC day (YYYY-MM-DD) a moment falls in. */
export const dayOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 10);

/**
 * The day `months` calendar months before `day`, clamped to the end of a shorter month (31 March less
 * one month is 28 or 29 February).
 */
export function monthsBefore(day: string, months: number): string {
  const start = new Date(dayStart(day));
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() - months;
  const lastOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return dayOf(Date.UTC(year, month, Math.min(start.getUTCDate(), lastOfMonth)));
}

/**
 * The return of each period between consecutive snapshots (one a day, as the engine writes them):
 * r = (E_end − E_start − net_flow) ÷ (E_start + inflow), where the flows are those booked in
 * [start, end) and inflow is their positive part. A deposit raises E_end and net_flow alike, so it is not
 * counted as a gain, and it joins the capital the day's result is measured against. A period with no
 * capital at risk (E_start + inflow ≤ 0) returns 0. Snapshots must be in strictly increasing days.
 */
export function periodReturns(snapshots: readonly EquitySnapshot[], flows: readonly CashFlow[]): PeriodReturn[] {
  const starts = snapshots.map((snapshot) => dayStart(snapshot.day));
  for (let i = 1; i < starts.length; i++) {
    if (starts[i]! <= starts[i - 1]!) throw new RangeError(`snapshots out of order at ${snapshots[i]!.day}`);
  }
  const booked = flows.map((flow) => ({ at: +flow.at, amount: dec(flow.amount) })).sort((a, b) => a.at - b.at);
  let next = 0;
  const returns: PeriodReturn[] = [];
  for (let i = 0; i + 1 < snapshots.length; i++) {
    while (next < booked.length && booked[next]!.at < starts[i]!) next++;
    let net = dec(0);
    let inflow = dec(0);
    for (; next < booked.length && booked[next]!.at < starts[i + 1]!; next++) {
      const amount = booked[next]!.amount;
      net = net.plus(amount);
      if (amount.gt(0)) inflow = inflow.plus(amount);
    }
    const startEquity = dec(snapshots[i]!.equity);
    const capital = startEquity.plus(inflow);
    const rate = capital.lte(0)
      ? dec(0)
      : dec(snapshots[i + 1]!.equity)
          .minus(startEquity)
          .minus(net)
          .dividedBy(capital);
    returns.push({ from: snapshots[i]!.day, to: snapshots[i + 1]!.day, rate });
  }
  return returns;
}

/** Chained returns as a fraction: Π(1 + r) − 1. */
export const compoundRate = (returns: readonly PeriodReturn[]): Dec =>
  returns.reduce((growth, period) => growth.times(period.rate.plus(1)), dec(1)).minus(1);

export interface IndexPoint {
  day: string;
  value: Dec;
}

/**
 * The return index: 100 at the first snapshot, then multiplied by (1 + r) at each following one. What
 * the index gained is the time-weighted return, whatever money came in or went out.
 */
export function returnIndex(returns: readonly PeriodReturn[]): IndexPoint[] {
  if (returns.length === 0) return [];
  let value = dec(RETURN_INDEX_BASE);
  const points: IndexPoint[] = [{ day: returns[0]!.from, value }];
  for (const period of returns) {
    value = value.times(period.rate.plus(1));
    points.push({ day: period.to, value });
  }
  return points;
}

/** The largest fall of the index from a previous peak, in percent of that peak; 0 when it never fell. */
export function maxDrawdownPct(index: readonly IndexPoint[]): Dec {
  let peak: Dec | null = null;
  let worst = dec(0);
  for (const point of index) {
    if (peak === null || point.value.gt(peak)) peak = point.value;
    if (peak.gt(0)) {
      const drawdown = peak.minus(point.value).dividedBy(peak).times(100);
      if (drawdown.gt(worst)) worst = drawdown;
    }
  }
  return worst;
}

export interface WindowReturn {
  /** Time-weighted return over the window, in percent. */
  pct: Dec;
  /** The first day the return counts from: the window's start, or the first snapshot if later. */
  from: string;
  /** The last snapshot's day. */
  to: string;
  /** Whether the history reaches back to the window's start (false: the return covers less time). */
  complete: boolean;
}

/** The windows returns are shown for: months back from the last snapshot, or the whole history. */
export const RETURN_WINDOWS = { '1m': 1, '3m': 3, '12m': 12, all: null } as const;
export type ReturnWindow = keyof typeof RETURN_WINDOWS;

/**
 * The time-weighted return of the periods starting on or after `months` calendar months before the last
 * snapshot (all of them for null). Null without any period.
 */
export function windowReturn(returns: readonly PeriodReturn[], months: number | null): WindowReturn | null {
  const last = returns.at(-1);
  if (!last) return null;
  const start = months === null ? returns[0]!.from : monthsBefore(last.to, months);
  const inWindow = returnsSince(returns, start);
  if (inWindow.length === 0) return null;
  return {
    pct: compoundRate(inWindow).times(100),
    from: inWindow[0]!.from,
    to: last.to,
    complete: returns[0]!.from <= start,
  };
}

/** The periods starting on or after `day`. */
const returnsSince = (returns: readonly PeriodReturn[], day: string) => returns.filter((period) => period.from >= day);

/** The months of history the risk score reads: how a provider trades now, not years ago. */
export const RISK_WINDOW_MONTHS = 12;

/**
 * The annualised volatility in percent: the sample standard deviation of the daily returns (n − 1 in the
 * denominator) × √365 × 100. Null with fewer than two returns, where no spread can be measured.
 */
export function volatilityPct(returns: readonly PeriodReturn[]): Dec | null {
  if (returns.length < 2) return null;
  const mean = returns.reduce((sum, period) => sum.plus(period.rate), dec(0)).dividedBy(returns.length);
  const squares = returns.reduce((sum, period) => sum.plus(period.rate.minus(mean).pow(2)), dec(0));
  return squares
    .dividedBy(returns.length - 1)
    .sqrt()
    .times(Dec.sqrt(DAYS_PER_YEAR))
    .times(100);
}

/** Upper bounds (inclusive, annualised volatility in percent) of risk scores 1 to 9; above the last is 10. */
export const RISK_SCORE_BANDS = [2, 5, 8, 12, 17, 25, 35, 50, 80] as const;

/** The risk score 1–10 of an annualised volatility in percent; null when there is no volatility yet. */
export function riskScore(volatility: DecimalInput | null): number | null {
  if (volatility === null) return null;
  const value = dec(volatility);
  const band = RISK_SCORE_BANDS.findIndex((bound) => value.lte(bound));
  return band === -1 ? RISK_SCORE_BANDS.length + 1 : band + 1;
}

export interface MonthReturn {
  /** YYYY-MM. */
  month: string;
  pct: Dec;
}

/** The time-weighted return of each calendar month (UTC) a period starts in, oldest first. */
export function monthlyReturns(returns: readonly PeriodReturn[]): MonthReturn[] {
  const months = new Map<string, PeriodReturn[]>();
  for (const period of returns) {
    const month = period.from.slice(0, 7);
    const periods = months.get(month);
    if (periods) periods.push(period);
    else months.set(month, [period]);
  }
  return [...months].map(([month, periods]) => ({ month, pct: compoundRate(periods).times(100) }));
}

/** A position that was opened and closed; `profit` is its realised P&L as the trader sees it. */
export interface ClosedPosition {
  openedAt: Date | number;
  closedAt: Date | number;
  profit: DecimalInput;
}

/** Closed with a profit (above 0) ÷ closed, in percent; null without closed positions. */
export function winRatePct(positions: readonly ClosedPosition[]): Dec | null {
  if (positions.length === 0) return null;
  const wins = positions.filter((position) => dec(position.profit).gt(0)).length;
  return dec(wins).dividedBy(positions.length).times(100);
}

/** The mean time from open to close, in whole milliseconds; null without closed positions. */
export function averageHoldingMs(positions: readonly ClosedPosition[]): number | null {
  if (positions.length === 0) return null;
  const total = positions.reduce((sum, position) => sum + (+position.closedAt - +position.openedAt), 0);
  return Math.round(total / positions.length);
}

/**
 * Positions closed in [from, to) per week of that span. A span shorter than a week counts as one week,
 * so a few days of history are not extrapolated into a weekly rate they never showed.
 */
export function tradesPerWeek(positions: readonly ClosedPosition[], from: Date | number, to: Date | number): Dec {
  const start = +from;
  const end = +to;
  const closed = positions.filter((position) => +position.closedAt >= start && +position.closedAt < end).length;
  return dec(closed)
    .times(WEEK_MS)
    .dividedBy(Math.max(end - start, WEEK_MS));
}

export interface ProviderFiguresInput {
  /** Daily equity snapshots at 00:00 UTC, oldest first. */
  snapshots: readonly EquitySnapshot[];
  flows: readonly CashFlow[];
  closedPositions: readonly ClosedPosition[];
  now: Date | number;
}

export interface ProviderFigures {
  returns: Record<ReturnWindow, WindowReturn | null>;
  maxDrawdownPct: Dec;
  /** Over the last `RISK_WINDOW_MONTHS` months, as the risk score. */
  volatilityPct: Dec | null;
  riskScore: number | null;
  winRatePct: Dec | null;
  averageHoldingMs: number | null;
  /** Over the span from the first snapshot or the first position opened, whichever is earlier, to now. */
  tradesPerWeek: Dec;
  monthly: MonthReturn[];
  index: IndexPoint[];
}

/** Every figure of one account, from its snapshots, flows and closed positions. */
export function providerFigures(input: ProviderFiguresInput): ProviderFigures {
  const returns = periodReturns(input.snapshots, input.flows);
  const index = returnIndex(returns);
  const last = returns.at(-1);
  const volatility = volatilityPct(last ? returnsSince(returns, monthsBefore(last.to, RISK_WINDOW_MONTHS)) : []);
  const first = input.snapshots[0];
  const since = input.closedPositions.reduce(
    (earliest, position) => Math.min(earliest, +position.openedAt),
    first ? dayStart(first.day) : +input.now,
  );
  return {
    returns: {
      '1m': windowReturn(returns, RETURN_WINDOWS['1m']),
      '3m': windowReturn(returns, RETURN_WINDOWS['3m']),
      '12m': windowReturn(returns, RETURN_WINDOWS['12m']),
      all: windowReturn(returns, RETURN_WINDOWS.all),
    },
    maxDrawdownPct: maxDrawdownPct(index),
    volatilityPct: volatility,
    riskScore: riskScore(volatility),
    winRatePct: winRatePct(input.closedPositions),
    averageHoldingMs: averageHoldingMs(input.closedPositions),
    tradesPerWeek: tradesPerWeek(input.closedPositions, since, input.now),
    monthly: monthlyReturns(returns),
    index,
  };
}
