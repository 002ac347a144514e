import { barOpenTime, KLINE_PERIODS, PERIOD_SECONDS, type KlinePeriod, type KlinePointView } from '@pipwise/domain';
import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { instruments, klines } from '../../db/schema.js';

/**
 * A bar in memory. Prices are numbers that were already rounded to the instrument's precision (the
 * feed hands them over as fixed-point text), so comparing them is exact; they are written back as
 * fixed-point text with that precision.
 */
export interface Bar {
  /** Open time, seconds since the epoch (UTC), aligned to the period. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface StoredBar extends Bar {
  instrumentId: number;
  period: KlinePeriod;
}

/** Folds a price or a finer bar into the bar it belongs to. */
export function mergeInto(bar: Bar, high: number, low: number, close: number, volume: number) {
  if (high > bar.high) bar.high = high;
  if (low < bar.low) bar.low = low;
  bar.close = close;
  bar.volume += volume;
}

/**
 * The current bar of every period for one instrument. Finer input (ticks, one-minute bars) is folded
 * into each period's bar; when input falls into a later bar, the finished one is handed to `onClose`.
 * Input earlier than the current bar (a clock set back) is folded into the current bar.
 */
export class BarSet {
  readonly current = new Map<KlinePeriod, Bar>();

  constructor(private readonly onClose: (period: KlinePeriod, bar: Bar) => void) {}

  /** Folds input into every period at least as long as `finest` (history made of coarser steps skips the fine ones). */
  add(timeMs: number, open: number, high: number, low: number, close: number, volume: number, finest: KlinePeriod = '1min') {
    const finestSeconds = PERIOD_SECONDS[finest];
    for (const period of KLINE_PERIODS) {
      if (PERIOD_SECONDS[period] < finestSeconds) continue;
      const time = barOpenTime(period, timeMs);
      const bar = this.current.get(period);
      if (bar && time <= bar.time) {
        mergeInto(bar, high, low, close, volume);
        continue;
      }
      if (bar) this.onClose(period, bar);
      this.current.set(period, { time, open, high, low, close, volume });
    }
  }

  get(period: KlinePeriod): Bar | undefined {
    return this.current.get(period);
  }
}

/** Aggregates ascending finer bars into `period` bars (the import CLI and tests use it). */
export function aggregate(bars: Bar[], period: KlinePeriod): Bar[] {
  const seconds = PERIOD_SECONDS[period];
  const result: Bar[] = [];
  let current: Bar | undefined;
  for (const bar of bars) {
    const time = Math.floor(bar.time / seconds) * seconds;
    if (current && current.time === time) {
      mergeInto(current, bar.high, bar.low, bar.close, bar.volume);
    } else {
      current = { time, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume };
      result.push(current);
    }
  }
  return result;
}

const UPSERT_CHUNK = 20_000;

/** A PostgreSQL array literal of values that need no quoting (numbers, fixed-point text, period names). */
const arrayLiteral = (values: (string | number)[]) => `{${values.join(',')}}`;

/**
 * Inserts or replaces bars with one statement per 20,000 rows: eight array parameters unnested into
 * rows, which both PGlite and PostgreSQL ingest far faster than a VALUES list with a parameter per cell.
 * `precisionOf` gives each instrument's price precision for the fixed-point text.
 */
export async function upsertBars(db: Executor, input: StoredBar[], precisionOf: (instrumentId: number) => number) {
  // One statement may not touch a row twice; the later version of a bar wins.
  const unique = new Map<string, StoredBar>();
  for (const bar of input) unique.set(`${bar.instrumentId}|${bar.period}|${bar.time}`, bar);
  const bars = [...unique.values()];
  for (let start = 0; start < bars.length; start += UPSERT_CHUNK) {
    const chunk = bars.slice(start, start + UPSERT_CHUNK);
    const column = (pick: (bar: StoredBar) => string | number) => arrayLiteral(chunk.map(pick));
    const price = (pick: (bar: StoredBar) => number) => column((bar) => pick(bar).toFixed(precisionOf(bar.instrumentId)));
    await db.execute(sql`
      INSERT INTO ${klines} (instrument_id, period, open_time, open, high, low, close, volume)
      SELECT * FROM unnest(
        ${column((bar) => bar.instrumentId)}::int[], ${column((bar) => bar.period)}::text[],
        ${column((bar) => bar.time)}::bigint[], ${price((bar) => bar.open)}::numeric[],
        ${price((bar) => bar.high)}::numeric[], ${price((bar) => bar.low)}::numeric[],
        ${price((bar) => bar.close)}::numeric[], ${column((bar) => bar.volume.toFixed(2))}::numeric[])
      ON CONFLICT (instrument_id, period, open_time) DO UPDATE SET
        open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume`);
  }
}

const toBar = (row: { openTime: number; open: string; high: string; low: string; close: string; volume: string }): Bar => ({
  time: row.openTime,
  open: Number(row.open),
  high: Number(row.high),
  low: Number(row.low),
  close: Number(row.close),
  volume: Number(row.volume),
});

/** The latest `limit` bars opening before `before` (seconds), oldest first. */
export async function readBars(
  db: Executor,
  instrumentId: number,
  period: KlinePeriod,
  limit: number,
  before?: number,
): Promise<Bar[]> {
  const rows = await db
    .select({
      openTime: klines.openTime,
      open: klines.open,
      high: klines.high,
      low: klines.low,
      close: klines.close,
      volume: klines.volume,
    })
    .from(klines)
    .where(
      and(
        eq(klines.instrumentId, instrumentId),
        eq(klines.period, period),
        before === undefined ? undefined : lt(klines.openTime, before),
      ),
    )
    .orderBy(desc(klines.openTime))
    .limit(limit);
  return rows.reverse().map(toBar);
}

/** Rows of a raw statement; both drivers answer `execute` with `{ rows }`. */
export async function selectRows<T>(db: Executor, statement: SQL): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}

/**
 * The newest stored bar of every (instrument, period): where live building and back-filling resume.
 * One index probe per pair (LATERAL … LIMIT 1), so start-up does not scan years of bars.
 */
export async function readLatestBars(db: Executor): Promise<StoredBar[]> {
  const periods = sql.join(
    KLINE_PERIODS.map((period) => sql`(${period})`),
    sql`, `,
  );
  const rows = await selectRows<{
    instrument_id: number;
    period: string;
    open_time: string | number;
    open: string;
    high: string;
    low: string;
    close: string;
    volume: string;
  }>(
    db,
    sql`SELECT i.id AS instrument_id, p.period, k.open_time, k.open, k.high, k.low, k.close, k.volume
         FROM ${instruments} i
         CROSS JOIN (VALUES ${periods}) AS p(period)
         CROSS JOIN LATERAL (
           SELECT open_time, open, high, low, close, volume FROM ${klines}
           WHERE instrument_id = i.id AND period = p.period
           ORDER BY open_time DESC LIMIT 1
         ) k`,
  );
  return rows.map((row) => ({
    instrumentId: Number(row.instrument_id),
    period: row.period as KlinePeriod,
    ...toBar({
      openTime: Number(row.open_time),
      open: row.open,
      high: row.high,
      low: row.low,
      close: row.close,
      volume: row.volume,
    }),
  }));
}

/** Deletes fine bars older than their retention; coarse periods are kept for good. */
export const BAR_RETENTION_DAYS: Partial<Record<KlinePeriod, number>> = { '1min': 30, '5min': 180, '15min': 365 };

export async function pruneBars(db: Executor, nowMs: number) {
  for (const [period, days] of Object.entries(BAR_RETENTION_DAYS)) {
    const before = Math.floor(nowMs / 1000) - days * 86400;
    await db.delete(klines).where(and(eq(klines.period, period), lt(klines.openTime, before)));
  }
}

/** A bar as the API sends it: prices rounded to the instrument's precision as JSON numbers. */
export function barView(bar: Bar, precision: number): KlinePointView {
  // The bars are floats already; their text at the precision is the rounded value the API sends.
  return {
    Time: bar.time,
    Open: Number(bar.open.toFixed(precision)),
    High: Number(bar.high.toFixed(precision)),
    Low: Number(bar.low.toFixed(precision)),
    Close: Number(bar.close.toFixed(precision)),
    Volume: Number(bar.volume.toFixed(2)),
  };
}
