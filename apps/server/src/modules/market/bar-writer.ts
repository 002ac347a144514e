import type { CoreDeps } from '../../context.js';
import type { InstrumentTable } from './instrument-table.js';
import { pruneBars, upsertBars, type StoredBar } from './klines.js';

/**
 * Writes bars in batches, never once per tick: the bars closed and the current bars of the instruments
 * that ticked since the last flush. A failed write is kept for the next flush.
 */
export class BarWriter {
  private closedBars: StoredBar[] = [];
  private dirty = new Set<number>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: Pick<CoreDeps, 'database' | 'clock' | 'log'>,
    private readonly table: InstrumentTable,
  ) {}

  /** A bar a newer one replaced as current: it is written with the next flush. */
  closed(bar: StoredBar) {
    this.closedBars.push(bar);
  }

  /** An instrument ticked: its current bars go with the next flush, which starts now if a bar closed. */
  touched(instrumentId: number) {
    this.dirty.add(instrumentId);
    if (this.closedBars.length > 0) void this.flush();
  }

  /** Writes closed bars and the current bars touched since the last flush; flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const closed = this.closedBars;
      const touched = [...this.dirty];
      this.closedBars = [];
      this.dirty.clear();
      const rows = [...closed];
      for (const id of touched) {
        const entry = this.table.get(id);
        if (!entry) continue;
        for (const [period, bar] of entry.bars.current) rows.push({ ...bar, instrumentId: id, period });
      }
      if (rows.length === 0) return;
      try {
        await upsertBars(this.deps.database.db, rows, this.table.precisionOf);
      } catch (error) {
        this.deps.log.error({ err: error }, 'writing bars failed; retrying with the next flush');
        this.closedBars.unshift(...closed);
        for (const id of touched) this.dirty.add(id);
      }
    });
    return this.flushing;
  }

  async prune() {
    try {
      await pruneBars(this.deps.database.db, this.deps.clock.now().getTime());
    } catch (error) {
      this.deps.log.error({ err: error }, 'pruning old bars failed');
    }
  }
}
