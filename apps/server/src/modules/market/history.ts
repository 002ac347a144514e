import { KLINE_PERIODS, PERIOD_SECONDS, type KlinePeriod } from '@pipwise/domain';
import type { Executor } from '../../db/client.js';
import type { FeedInstrument, MarketDataSource } from './feed.js';
import { BarSet, upsertBars, type Bar, type StoredBar } from './klines.js';

/** How far back the first start generates, so even the daily chart of a 5-day market has ≥ 500 bars. */
export const HISTORY_DAYS = 760;

/**
 * Bars kept per period from a back-fill: at least 500 each (a chart's first screens), no more, since
 * writing them (index and foreign-key check per row) is most of a first start's time.
 */
export const HISTORY_RETENTION: Record<KlinePeriod, number> = {
  '1min': 600,
  '5min': 600,
  '15min': 600,
  '30min': 600,
  '60min': 600,
  '1day': 600,
};

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const periodMs = (period: KlinePeriod) => PERIOD_SECONDS[period] * 1000;

/**
 * Calendar time that holds the kept bars of `period` even for the thinnest session (European cash
 * hours: 14 h on weekdays, about 42 % of the calendar), with a weekend to spare.
 */
const spanMs = (period: KlinePeriod) => HISTORY_RETENTION[period] * periodMs(period) * 2.5 + 3 * DAY_MS;

export interface HistoryStretch {
  from: number;
  to: number;
  /** The step of the generated bars; they feed this period and every longer one. */
  step: KlinePeriod;
}

/**
 * Splits [fromMs, nowMs) into stretches generated at the finest period kept there: one-minute steps for
 * the last days, five-minute steps before that, … and hourly steps for the past that only the daily
 * chart shows. Each stretch starts on a boundary of the next longer period, so every stored bar is the
 * exact aggregate of the stored bars of any shorter period that cover it. Generating two years at one
 * minute would be 50 times the work for bars nobody keeps.
 */
export function planHistory(fromMs: number, nowMs: number): HistoryStretch[] {
  const steps: KlinePeriod[] = ['1min', '5min', '15min', '30min', '60min'];
  const stretches: HistoryStretch[] = [];
  let end = nowMs;
  for (const [index, step] of steps.entries()) {
    const coarser = steps[index + 1] ?? '1day';
    const wanted = step === '60min' ? nowMs - HISTORY_DAYS * DAY_MS : nowMs - spanMs(step);
    const start = Math.floor(wanted / periodMs(coarser)) * periodMs(coarser);
    if (end > start) stretches.unshift({ from: start, to: end, step });
    end = Math.min(end, start);
  }
  // A restart resumes mid-stretch: the part before the stretch's first full step goes minute by minute.
  const result: HistoryStretch[] = [];
  for (const stretch of stretches) {
    if (stretch.to <= fromMs) continue;
    if (stretch.from >= fromMs) {
      result.push(stretch);
      continue;
    }
    const aligned = Math.min(stretch.to, Math.ceil(fromMs / periodMs(stretch.step)) * periodMs(stretch.step));
    if (aligned > fromMs) result.push({ from: fromMs, to: aligned, step: '1min' });
    if (stretch.to > aligned) result.push({ from: aligned, to: stretch.to, step: stretch.step });
  }
  return result;
}

export interface HistoryInstrument extends FeedInstrument {
  id: number;
}

export interface BackfillReport {
  instruments: number;
  barsGenerated: number;
  rowsWritten: number;
}

/**
 * Fills each instrument's bars from its newest stored one-minute bar (or from HISTORY_DAYS ago on an
 * empty database) up to the current minute, with bars from the source aggregated into every period.
 * The newest stored bar of each period is continued, not replaced, so a restart after a pause closes
 * the gap seamlessly. One transaction per instrument: an interrupted first start resumes with the
 * instruments it had not finished.
 */
export async function backfillHistory(
  db: Executor,
  source: MarketDataSource,
  instruments: HistoryInstrument[],
  latest: StoredBar[],
  nowMs: number,
  precisionOf: (instrumentId: number) => number,
  /** Instruments written at once: PostgreSQL writes on other cores while the next one is generated. */
  concurrency = 1,
): Promise<BackfillReport> {
  const report: BackfillReport = { instruments: 0, barsGenerated: 0, rowsWritten: 0 };
  const history = source.history?.bind(source);
  if (!history) return report;
  const now = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
  const earliest = Math.floor((now - HISTORY_DAYS * DAY_MS) / DAY_MS) * DAY_MS;

  const queue = [...instruments];
  const worker = async () => {
    for (let instrument = queue.shift(); instrument; instrument = queue.shift()) await fill(instrument);
  };
  const fill = async (instrument: HistoryInstrument) => {
    const stored = latest.filter((bar) => bar.instrumentId === instrument.id);
    const lastMinuteBar = stored.find((bar) => bar.period === '1min');
    const from = Math.max(earliest, lastMinuteBar ? lastMinuteBar.time * 1000 + MINUTE_MS : earliest);
    if (from >= now) return;

    const kept = new Map<KlinePeriod, Bar[]>(KLINE_PERIODS.map((period) => [period, []]));
    const bars = new BarSet((period, bar) => {
      const list = kept.get(period)!;
      list.push(bar);
      if (list.length > 2 * HISTORY_RETENTION[period]) list.splice(0, list.length - HISTORY_RETENTION[period]);
    });
    for (const bar of stored) bars.current.set(bar.period, { ...bar });

    let price = lastMinuteBar?.close ?? instrument.basePrice;
    for (const stretch of planHistory(from, now)) {
      for (const bar of history(instrument, stretch.from, stretch.to, periodMs(stretch.step), price)) {
        bars.add(bar.time, bar.open, bar.high, bar.low, bar.close, bar.volume, stretch.step);
        price = bar.close;
        report.barsGenerated++;
      }
    }

    const rows: StoredBar[] = [];
    for (const [period, list] of kept) {
      for (const bar of list.slice(-HISTORY_RETENTION[period])) rows.push({ ...bar, instrumentId: instrument.id, period });
    }
    for (const [period, bar] of bars.current) rows.push({ ...bar, instrumentId: instrument.id, period });
    await db.transaction(async (tx) => upsertBars(tx, rows, precisionOf));
    report.instruments++;
    report.rowsWritten += rows.length;
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return report;
}
