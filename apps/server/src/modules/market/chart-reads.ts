import {
  notFound,
  SPARKLINE_POINTS,
  toJsonNumber,
  type KlinePeriod,
  type KlinePointView,
  type SparklineView,
} from '@pipwise/domain';
import type { CoreDeps } from '../../context.js';
import type { Entry, InstrumentTable } from './instrument-table.js';
import { barView, readBars, type Bar } from './klines.js';

const SPARKLINE_TTL_MS = 60_000;

/** The charts' reads: stored bars with the live current bar on top, as klines and as list sparklines. */
export class ChartReads {
  private sparklineCache = new Map<string, { loadedAt: number; bars: Bar[] }>();

  constructor(
    private readonly deps: Pick<CoreDeps, 'database' | 'clock'>,
    private readonly table: InstrumentTable,
  ) {}

  private entryOrThrow(instrumentId: number): Entry {
    const entry = this.table.get(instrumentId);
    if (!entry) throw notFound('forex_not_found');
    return entry;
  }

  /** Stored bars with the live current bar on top (it may not be written yet). */
  async klines(instrumentId: number, period: KlinePeriod, limit: number, end?: number): Promise<KlinePointView[]> {
    const entry = this.entryOrThrow(instrumentId);
    const bars = await readBars(this.deps.database.db, instrumentId, period, limit, end);
    this.overlayCurrent(entry, period, bars, end);
    const trimmed = bars.length > limit ? bars.slice(bars.length - limit) : bars;
    return trimmed.map((bar) => barView(bar, entry.info.pricePrecision));
  }

  private overlayCurrent(entry: Entry, period: KlinePeriod, bars: Bar[], end?: number) {
    const current = entry.bars.get(period);
    if (!current || (end !== undefined && current.time >= end)) return;
    const last = bars.at(-1);
    if (last && last.time === current.time) bars[bars.length - 1] = { ...current };
    else if (!last || current.time > last.time) bars.push({ ...current });
  }

  /** Compact series for list sparklines; the stored part is cached for a minute, the last point is live. */
  async sparklines(instrumentId: number | undefined, period: KlinePeriod): Promise<SparklineView[]> {
    const targets =
      instrumentId === undefined
        ? [...this.table.values()].filter((entry) => entry.info.enabled)
        : [this.entryOrThrow(instrumentId)];
    const now = this.deps.clock.now().getTime();
    const result: SparklineView[] = [];
    for (const entry of targets) {
      const key = `${entry.info.id}:${period}`;
      let cached = this.sparklineCache.get(key);
      if (!cached || now - cached.loadedAt > SPARKLINE_TTL_MS || now < cached.loadedAt) {
        cached = { loadedAt: now, bars: await readBars(this.deps.database.db, entry.info.id, period, SPARKLINE_POINTS) };
        this.sparklineCache.set(key, cached);
      }
      const bars = [...cached.bars];
      this.overlayCurrent(entry, period, bars);
      const p = entry.info.pricePrecision;
      result.push({
        Id: entry.info.id,
        Code: entry.info.code,
        Period: period,
        Points: bars.slice(-SPARKLINE_POINTS).map((bar) => [bar.time, toJsonNumber(bar.close.toFixed(p), p)]),
      });
    }
    return result;
  }
}
