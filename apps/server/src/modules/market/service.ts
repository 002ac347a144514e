import type { CategoryView, Dec, KlinePeriod, KlinePointView, Language, SparklineView, TradePairView } from '@pipwise/domain';
import type { CoreDeps } from '../../context.js';
import type { Leadership } from '../../leadership/leadership.js';
import type { InstrumentInfo, MarketService, Quote } from './api.js';
import { BarWriter } from './bar-writer.js';
import { ChartReads } from './chart-reads.js';
import type { MarketDataSource } from './feed.js';
import { backfillHistory, type BackfillReport, type HistoryInstrument } from './history.js';
import { InstrumentTable } from './instrument-table.js';
import { readLatestBars } from './klines.js';
import { MarketReads } from './market-reads.js';
import { seedMarket } from './seed.js';
import { TickPipeline } from './tick-pipeline.js';

export interface MarketEngineOptions {
  source: MarketDataSource;
  /** Generate missing history with the source on start (first start: the full back-fill). */
  backfill: boolean;
  /** At most one DAY_MARKET per instrument in this many ms of market time (0: every tick). */
  dayMarketIntervalMs: number;
  /** Whether this process may run the source (ROLE all or engine) or only follows quotes from the bus (gateway). */
  runsFeed: boolean;
  /** The source runs only while this process leads the engine; until then it follows the leader's quotes. */
  leadership: Leadership;
}

const FLUSH_INTERVAL_MS = 2_000;
export const SESSION_CHECK_MS = 1_000;
const PRUNE_INTERVAL_MS = 6 * 3600_000;
/**
 * Redis pub/sub drops what is published while a subscriber reconnects: without any event the catalogue
 * is still read again this often, so a missed change is late by at most this, never lost.
 */
export const CATALOGUE_MAX_AGE_MS = 60_000;

/**
 * The market: instruments, the in-memory quote table, the current bars, and the tick pipeline
 * (quote → bars → `market.quote` → DAY_MARKET and KLINE.<code> through `realtime.topic`). Bars are
 * written in batches every two seconds and when they close, never once per tick. Each concern is a
 * part (`instrument-table.ts`, `tick-pipeline.ts`, `bar-writer.ts`, `market-reads.ts`,
 * `chart-reads.ts`); the engine starts and stops them and answers other modules (`MarketService`), the
 * routes and the operators' changes.
 */
export class MarketEngine implements MarketService {
  private readonly table: InstrumentTable;
  private readonly bars: BarWriter;
  private readonly reads: MarketReads;
  private readonly charts: ChartReads;
  private readonly pipeline: TickPipeline;
  private timers: NodeJS.Timeout[] = [];
  /** The timers of the feed, running while this process leads. */
  private feedTimers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void)[] = [];
  private following: (() => void) | undefined;
  lastBackfill: (BackfillReport & { ms: number }) | undefined;

  constructor(
    private readonly deps: CoreDeps,
    private readonly options: MarketEngineOptions,
  ) {
    this.table = new InstrumentTable(deps, (bar) => this.bars.closed(bar));
    this.bars = new BarWriter(deps, this.table);
    this.reads = new MarketReads(deps, this.table);
    this.charts = new ChartReads(deps, this.table);
    this.pipeline = new TickPipeline(deps, options.dayMarketIntervalMs, this.table, this.bars, this.reads);
  }

  // ── lifecycle ─────────────────────────────────────────────────────────────────────────────────────

  async seed() {
    await seedMarket(this.deps.database.db);
    await this.table.load();
  }

  async start() {
    if (this.table.size === 0) await this.table.load();
    const now = this.deps.clock.now().getTime();
    // A process that leads from the start (one process) back-fills before it reads its quotes, as the
    // 24-hour figures come from the history; a standby back-fills when it takes over.
    if (this.options.runsFeed && this.options.leadership.leading) await this.backfill(now);
    await this.pipeline.restore(now);
    this.follow();
    this.unsubscribe.push(
      this.deps.bus.subscribe('market.instrument_changed', ({ id }) => void this.reloadInstrument(id)),
      this.deps.bus.subscribe('market.categories_changed', () => void this.reloadCategories()),
    );
    this.timers.push(setInterval(() => void this.table.reloadCatalogue(), CATALOGUE_MAX_AGE_MS));
    if (this.options.runsFeed) {
      await this.options.leadership.serve({ name: 'market feed', lead: () => this.lead(), resign: () => this.resign() });
    }
  }

  async stop() {
    for (const timer of [...this.timers, ...this.feedTimers]) clearInterval(timer);
    this.timers = [];
    this.feedTimers = [];
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
    this.following?.();
    this.following = undefined;
    this.options.source.stop();
    await this.bars.flush();
  }

  /** Until this process leads (always, on a gateway), its quote table follows the leader's quotes. */
  private follow() {
    this.following ??= this.deps.bus.subscribe('market.quote', (quote) => this.pipeline.follow(quote));
  }

  /**
   * Taking the feed over: the bars continue from the database, each price from the newer of its
   * stored close and the last quote this process followed (the old leader's last tick reached it
   * over the bus), so the walk goes on where the old leader stopped.
   */
  private async lead() {
    this.following?.();
    this.following = undefined;
    const now = this.deps.clock.now().getTime();
    if (this.options.backfill && !this.lastBackfill) {
      const written = await this.backfill(now);
      // The history it wrote (a first start, or a long time without a leader) makes the 24-hour figures.
      if (written > 0) await this.pipeline.restore(now);
    }
    await this.pipeline.resume();
    this.options.source.start(
      [...this.table.values()].map((entry) => entry.feed),
      (tick) => this.pipeline.onTick(tick),
    );
    // The leader alone tells of a session opening or closing: from every process, clients heard it once per process.
    this.feedTimers.push(setInterval(() => this.pipeline.checkSessions(), SESSION_CHECK_MS));
    this.feedTimers.push(setInterval(() => void this.bars.flush(), FLUSH_INTERVAL_MS));
    await this.bars.prune();
    this.feedTimers.push(setInterval(() => void this.bars.prune(), PRUNE_INTERVAL_MS));
  }

  private async resign() {
    this.options.source.stop();
    for (const timer of this.feedTimers.splice(0)) clearInterval(timer);
    await this.bars.flush();
    this.follow();
  }

  /** Generates the missing history up to `now`; answers the rows written. */
  private async backfill(now: number): Promise<number> {
    const { db } = this.deps.database;
    const started = performance.now();
    const report = await backfillHistory(
      db,
      this.options.source,
      [...this.table.values()].map((entry): HistoryInstrument => ({ ...entry.feed, id: entry.info.id })),
      await readLatestBars(db),
      now,
      this.table.precisionOf,
      this.deps.database.kind === 'postgres' ? 3 : 1,
    );
    this.lastBackfill = { ...report, ms: Math.round(performance.now() - started) };
    if (report.rowsWritten > 0) this.deps.log.info(this.lastBackfill, 'market history back-filled');
    return report.rowsWritten;
  }

  // ── operators' changes ────────────────────────────────────────────────────────────────────────────

  reloadInstrument(id: number): Promise<void> {
    return this.table.reloadInstrument(id);
  }

  reloadCategories(): Promise<void> {
    return this.table.reloadCategories();
  }

  // ── MarketService ─────────────────────────────────────────────────────────────────────────────────

  listInstruments(): InstrumentInfo[] {
    return this.reads.listInstruments();
  }

  getInstrument(id: number): InstrumentInfo | undefined {
    return this.reads.getInstrument(id);
  }

  getInstrumentByCode(code: string): InstrumentInfo | undefined {
    return this.reads.getInstrumentByCode(code);
  }

  getQuote(instrumentId: number): Quote | undefined {
    return this.reads.getQuote(instrumentId);
  }

  getTickedQuote(instrumentId: number): Quote | undefined {
    return this.reads.getTickedQuote(instrumentId);
  }

  isOpen(instrumentId: number, at?: Date): boolean {
    return this.reads.isOpen(instrumentId, at);
  }

  usdRate(currency: string): Dec {
    return this.reads.usdRate(currency);
  }

  // ── API views ─────────────────────────────────────────────────────────────────────────────────────

  categories(lang: Language): CategoryView[] {
    return this.reads.categories(lang);
  }

  tradeList(search: string | undefined): TradePairView[] {
    return this.reads.tradeList(search);
  }

  klines(instrumentId: number, period: KlinePeriod, limit: number, end?: number): Promise<KlinePointView[]> {
    return this.charts.klines(instrumentId, period, limit, end);
  }

  sparklines(instrumentId: number | undefined, period: KlinePeriod): Promise<SparklineView[]> {
    return this.charts.sparklines(instrumentId, period);
  }
}
