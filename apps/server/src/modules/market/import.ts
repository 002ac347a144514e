import { KLINE_PERIODS, PERIOD_SECONDS, type KlinePeriod } from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { klines } from '../../db/schema.js';
import { selectRows, upsertBars, type Bar } from './klines.js';

/**
 * Historical bars from CSV (docs/operations.md). Two layouts, times in UTC, an optional header line,
 * separated by commas, semicolons or tabs:
 *   date,time,open,high,low,close,volume     2026.03.02,14:05,1.08412,1.08420,1.08401,1.08415,132
 *   datetime,open,high,low,close,volume      2026-03-02T14:05:00Z,1.08412,… (or Unix seconds)
 * Dates: YYYY.MM.DD, YYYY-MM-DD, YYYY/MM/DD or YYYYMMDD; times: HH:MM, HH:MM:SS or HHMMSS.
 */
export interface RowError {
  line: number;
  reason: string;
}

const NUMBER = /^\d+(\.\d+)?$/;
const DATE = /^(\d{4})[.\-/]?(\d{2})[.\-/]?(\d{2})$/;
const TIME = /^(\d{2}):?(\d{2})(?::?(\d{2}))?$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?(Z|[+-]00:?00)?$/;

function utcSeconds(date: string, time: string): number | undefined {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) return undefined;
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const [hour, minute, second] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return ms / 1000;
}

function parseTime(fields: string[]): { time: number | undefined; rest: string[] } | undefined {
  if (fields.length === 7) return { time: utcSeconds(fields[0]!, fields[1]!), rest: fields.slice(2) };
  if (fields.length !== 6) return undefined;
  const stamp = fields[0]!;
  if (/^\d{9,10}$/.test(stamp)) return { time: Number(stamp), rest: fields.slice(1) };
  if (/^\d{12,13}$/.test(stamp)) return { time: Math.floor(Number(stamp) / 1000), rest: fields.slice(1) };
  const match = DATETIME.exec(stamp);
  return { time: match ? utcSeconds(match[1]!, match[2]!) : undefined, rest: fields.slice(1) };
}

export function detectSeparator(line: string): string {
  if (line.includes('\t')) return '\t';
  if (line.includes(';')) return ';';
  return ',';
}

export const isHeader = (line: string) => /[a-z]/i.test(line) && /open/i.test(line);

/**
 * Checks one data line. Prices are rounded to the instrument's precision (half up, which keeps
 * low ≤ open, close ≤ high); the bar must open on a boundary of `period`.
 */
export function parseBarLine(
  line: string,
  separator: string,
  period: KlinePeriod,
  precision: number,
): { bar: Bar } | { reason: string } {
  const fields = line.split(separator).map((field) => field.trim());
  const parsed = parseTime(fields);
  if (!parsed)
    return { reason: `expected 7 columns (date,time,open,high,low,close,volume) or 6 (datetime,…), found ${fields.length}` };
  if (parsed.time === undefined)
    return { reason: `unreadable date or time "${fields.slice(0, fields.length - 5).join(separator)}"` };
  const names = ['open', 'high', 'low', 'close', 'volume'];
  for (const [index, value] of parsed.rest.entries()) {
    if (!NUMBER.test(value)) return { reason: `${names[index]} "${value}" is not a non-negative number` };
  }
  const factor = 10 ** precision;
  const [open, high, low, close] = parsed.rest.slice(0, 4).map((value) => Math.round(Number(value) * factor) / factor) as [
    number,
    number,
    number,
    number,
  ];
  const volume = Number(parsed.rest[4]);
  if (open <= 0 || high <= 0 || low <= 0 || close <= 0) return { reason: 'prices must be above zero' };
  if (low > Math.min(open, close) || high < Math.max(open, close)) return { reason: 'needs low ≤ open, close ≤ high' };
  if (parsed.time % PERIOD_SECONDS[period] !== 0) return { reason: `time is not on a ${period} boundary` };
  return { bar: { time: parsed.time, open, high, low, close, volume } };
}

/** Periods built from `period` by aggregation: every longer one. */
export const longerPeriods = (period: KlinePeriod) =>
  KLINE_PERIODS.filter((other) => PERIOD_SECONDS[other] > PERIOD_SECONDS[period]);

/**
 * Writes the bars and rebuilds every longer period over the imported range from the stored bars of
 * `period` (so bars already there are merged, not lost), all in one transaction: a failure leaves
 * nothing half-imported.
 */
export async function importBars(
  db: Db,
  instrumentId: number,
  period: KlinePeriod,
  precision: number,
  bars: Bar[],
  onProgress: (written: number, total: number) => void = () => undefined,
): Promise<{ written: number; aggregated: Record<string, number> }> {
  if (bars.length === 0) return { written: 0, aggregated: {} };
  const first = bars[0]!.time;
  const last = bars.at(-1)!.time;
  const aggregated: Record<string, number> = {};
  await db.transaction(async (tx) => {
    const chunk = 5000;
    for (let start = 0; start < bars.length; start += chunk) {
      const slice = bars.slice(start, start + chunk).map((bar) => ({ ...bar, instrumentId, period }));
      await upsertBars(tx, slice, () => precision);
      onProgress(Math.min(bars.length, start + chunk), bars.length);
    }
    for (const longer of longerPeriods(period)) {
      const seconds = PERIOD_SECONDS[longer];
      const from = Math.floor(first / seconds) * seconds;
      const to = Math.floor(last / seconds) * seconds + seconds;
      const rebuilt = await selectRows<{ open_time: number }>(
        tx,
        sql`
        INSERT INTO ${klines} (instrument_id, period, open_time, open, high, low, close, volume)
        SELECT instrument_id, ${longer}, (open_time / ${seconds}) * ${seconds},
               (array_agg(open ORDER BY open_time))[1], max(high), min(low),
               (array_agg(close ORDER BY open_time DESC))[1], sum(volume)
        FROM ${klines}
        WHERE instrument_id = ${instrumentId} AND period = ${period} AND open_time >= ${from} AND open_time < ${to}
        GROUP BY 1, 3
        ON CONFLICT (instrument_id, period, open_time) DO UPDATE SET
          open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume
        RETURNING open_time`,
      );
      aggregated[longer] = rebuilt.length;
    }
  });
  return { written: bars.length, aggregated };
}
