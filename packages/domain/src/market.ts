/** Chart periods (docs/api.md) with their length in seconds; every length divides a day, so bars align to UTC. */
export const KLINE_PERIODS = ['1min', '5min', '15min', '30min', '60min', '1day'] as const;
export type KlinePeriod = (typeof KLINE_PERIODS)[number];

export const PERIOD_SECONDS: Record<KlinePeriod, number> = {
  '1min': 60,
  '5min': 300,
  '15min': 900,
  '30min': 1800,
  '60min': 3600,
  '1day': 86400,
};

/** Open time (seconds since the epoch, UTC) of the `period` bar that contains `timeMs`. */
export function barOpenTime(period: KlinePeriod, timeMs: number): number {
  const seconds = PERIOD_SECONDS[period];
  return Math.floor(timeMs / 1000 / seconds) * seconds;
}

/**
 * Trading sessions as weekly windows in UTC, minutes from Sunday 00:00 (end exclusive).
 * - forex: Sunday 22:00 → Friday 22:00 without a break (the interbank week).
 * - crypto: always open.
 * - cfd (metals, energy, US and Japanese index CFDs): Sunday 23:00 → Friday 22:00 with a daily
 *   22:00–23:00 break, as the futures they follow pause for their daily settlement.
 * - europe (European cash-index CFDs): Monday to Friday 07:00–21:00.
 */
export const MARKET_SESSIONS = ['forex', 'crypto', 'cfd', 'europe'] as const;
export type MarketSession = (typeof MARKET_SESSIONS)[number];

const DAY = 1440;
const WEEK = 7 * DAY;
const at = (day: number, hour: number) => day * DAY + hour * 60;
const weekdays = [1, 2, 3, 4, 5];

export const SESSION_WINDOWS: Record<MarketSession, ReadonlyArray<readonly [number, number]>> = {
  forex: [[at(0, 22), at(5, 22)]],
  crypto: [[0, WEEK]],
  cfd: [0, 1, 2, 3, 4].map((day) => [at(day, 23), at(day + 1, 22)] as const),
  europe: weekdays.map((day) => [at(day, 7), at(day, 21)] as const),
};

/** 1970-01-01 was a Thursday: minute 0 of the epoch is minute 4 × 1440 of its week. */
const EPOCH_MINUTE_OF_WEEK = 4 * DAY;

/** One flag per minute of the week, built once per session so the history generator can ask per minute. */
const openMinutes = new Map<MarketSession, Uint8Array>();
function minutesOf(session: MarketSession): Uint8Array {
  let table = openMinutes.get(session);
  if (!table) {
    table = new Uint8Array(WEEK);
    for (const [start, end] of SESSION_WINDOWS[session]) table.fill(1, start, end);
    openMinutes.set(session, table);
  }
  return table;
}

export function isMarketSession(value: string): value is MarketSession {
  return (MARKET_SESSIONS as readonly string[]).includes(value);
}

/** Whether `session` trades during the minute `epochMinute` (minutes since the epoch, UTC). */
export function isSessionOpenAtMinute(session: MarketSession, epochMinute: number): boolean {
  const minuteOfWeek = (((epochMinute + EPOCH_MINUTE_OF_WEEK) % WEEK) + WEEK) % WEEK;
  return minutesOf(session)[minuteOfWeek] === 1;
}

export function isSessionOpen(session: MarketSession, timeMs: number): boolean {
  return isSessionOpenAtMinute(session, Math.floor(timeMs / 60_000));
}

/**
 * When `session` next opens after `timeMs` (milliseconds since the epoch, UTC): the start of its first
 * window later than the minute of `timeMs`, so a closed market can say when trading resumes. Null for a
 * session that never closes.
 */
export function nextSessionOpen(session: MarketSession, timeMs: number): number | null {
  const windows = SESSION_WINDOWS[session];
  if (minutesOf(session).every((open) => open === 1)) return null;
  const epochMinute = Math.floor(timeMs / 60_000);
  const minuteOfWeek = (((epochMinute + EPOCH_MINUTE_OF_WEEK) % WEEK) + WEEK) % WEEK;
  const weekStart = epochMinute - minuteOfWeek;
  const starts = windows.map(([start]) => start).sort((a, b) => a - b);
  const later = starts.find((start) => start > minuteOfWeek);
  const opening = later === undefined ? weekStart + WEEK + starts[0]! : weekStart + later;
  return opening * 60_000;
}

/** The kline query's page sizes. */
export const KLINE_DEFAULT_LIMIT = 500;
export const KLINE_MAX_LIMIT = 1500;

/** Points in a sparkline series. */
export const SPARKLINE_POINTS = 96;

// ── API views (docs/api.md) ─────────────────────────────────────────────────────────────────────────────

export interface KlinePointView {
  /** Open time, seconds since the epoch (UTC). */
  Time: number;
  Open: number;
  High: number;
  Low: number;
  Close: number;
  Volume: number;
}

/** The `KLINE.<code>` socket payload: the current bar of one period. */
export interface KlineUpdateView extends KlinePointView {
  Period: KlinePeriod;
}

export interface ForexQuotationView {
  Open: number;
  Close: number;
  /** 24-hour change in percent, 2 decimals. */
  Change: number;
  High: number;
  Low: number;
  Volume: number;
  Ask: number;
  Bid: number;
}

export interface TradePairView {
  Id: number;
  Code: string;
  ShowCode: string;
  Name: string;
  Logo: string;
  CategoryId: number;
  /** 1 open, 0 closed. */
  MarketStatus: 0 | 1;
  /** The weekly trading hours it follows: with `nextSessionOpen`, when a closed market opens again. */
  Session: MarketSession;
  PricePrecision: number;
  /** Lot step. */
  Pip: number;
  ForexMinCont: number;
  ForexMaxCont: number;
  ForexContNum: number;
  ForexFeeRate: number;
  MarginMode: number;
  HasForexMultiple: { Value: number }[];
  ForexQuotations: ForexQuotationView;
  /** The currency prices are quoted in: margins and P&L are converted from it into USD. */
  QuoteCurrency: string;
  /**
   * USD per unit of the quote currency at this quote, the rate orders are charged at; decimal text,
   * so the order ticket's estimate converts exactly as the server does.
   */
  UsdRate: string;
}

export interface CategoryView {
  Id: number;
  NameShowTrans: string;
}

/** `{type:'DAY_MARKET', data}`: one instrument's quote. */
export interface DayMarketView {
  id: number;
  symbol: string;
  /** Last price (the bid). */
  close: number;
  bid: number;
  ask: number;
  open: number;
  high: number;
  low: number;
  /** 24-hour change in percent, 2 decimals. */
  change: number;
  volume: number;
  /** 1 open, 0 closed. */
  status: 0 | 1;
  /** When the quote was made, milliseconds since the epoch. */
  time: number;
  /** USD per unit of the quote currency at this quote (TradePairView.UsdRate). */
  usd_rate: string;
}

export interface SparklineView {
  Id: number;
  Code: string;
  Period: KlinePeriod;
  /** [Time (seconds), Close] pairs, oldest first. */
  Points: [number, number][];
}
