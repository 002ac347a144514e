import {
  dec,
  isMarketSession,
  isSessionOpen,
  klineTopic,
  KLINE_PERIODS,
  notFound,
  SocketTopic,
  SPARKLINE_POINTS,
  toJsonNumber,
  type CategoryView,
  type Dec,
  type DayMarketView,
  type KlinePeriod,
  type KlinePointView,
  type KlineUpdateView,
  type Language,
  type SparklineView,
  type TradePairView,
} from '@pipwise/domain';
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { CoreDeps } from '../../context.js';
import { categories, instruments, klines } from '../../db/schema.js';
import type { InstrumentInfo, MarketService, Quote } from './api.js';
import type { FeedInstrument, MarketDataSource, Tick } from './feed.js';
import { backfillHistory, type BackfillReport, type HistoryInstrument } from './history.js';
import { barView, BarSet, pruneBars, readBars, readLatestBars, upsertBars, type Bar, type StoredBar } from './klines.js';
import { QuoteState } from './quotes.js';
import { seedMarket } from './seed.js';

export interface MarketEngineOptions {
  source: MarketDataSource;
  /** Generate missing history with the source on start (first start: the full back-fill). */
  backfill: boolean;
  /** At most one DAY_MARKET per instrument in this many ms of market time (0: every tick). */
  dayMarketIntervalMs: number;
  /** Whether this process runs the source (ROLE all or engine) or follows quotes from the bus (gateway). */
  runsFeed: boolean;
}

interface Entry {
  /** Replaced whole when an operator changes the instrument, so a reader never sees half a change. */
  info: InstrumentInfo;
  /** Shared with the running source, so its fields are changed in place (the next tick uses them). */
  feed: FeedInstrument;
  sort: number;
  quote: QuoteState;
  bars: BarSet;
  lastDayMarket: number;
  open: boolean;
}

const FLUSH_INTERVAL_MS = 2_000;
const USD_RATE_DIGITS = 12;
const SESSION_CHECK_MS = 1_000;
const SPARKLINE_TTL_MS = 60_000;
const PRUNE_INTERVAL_MS = 6 * 3600_000;
/**
 * Redis pub/sub drops what is published while a subscriber reconnects: without any event the catalogue
 * is still read again this often, so a missed change is late by at most this, never lost.
 */
export const CATALOGUE_MAX_AGE_MS = 60_000;

type InstrumentRow = typeof instruments.$inferSelect;

function infoOf(row: InstrumentRow): InstrumentInfo {
  return {
    id: row.id,
    code: row.code,
    showCode: row.showCode,
    name: row.name,
    logo: row.logo,
    categoryId: row.categoryId,
    baseCurrency: row.baseCurrency,
    quoteCurrency: row.quoteCurrency,
    pricePrecision: row.pricePrecision,
    lotStep: dec(row.lotStep),
    minLots: dec(row.minLots),
    maxLots: dec(row.maxLots),
    contractSize: dec(row.contractSize),
    feeRate: dec(row.feeRate),
    marginMode: row.marginMode,
    leverages: row.leverages,
    spread: dec(row.spread),
    session: row.session,
    enabled: row.enabled,
  };
}

const bySort = (a: Entry, b: Entry) => a.sort - b.sort || a.info.id - b.info.id;

/**
 * The market: instruments, the in-memory quote table, the current bars, and the tick pipeline
 * (quote → bars → `market.quote` → DAY_MARKET and KLINE.<code> through `realtime.topic`). Bars are
 * written in batches every two seconds and when they close, never once per tick.
 */
export class MarketEngine implements MarketService {
  private entries = new Map<number, Entry>();
  private byCode = new Map<string, Entry>();
  private categoryRows: { id: number; names: Record<string, string> }[] = [];
  private closedBars: StoredBar[] = [];
  private dirty = new Set<number>();
  private flushing: Promise<void> = Promise.resolve();
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void)[] = [];
  /** Catalogue reads run one after another, so an older read never lands after a newer one. */
  private reloading: Promise<void> = Promise.resolve();
  private sparklineCache = new Map<string, { loadedAt: number; bars: Bar[] }>();
  lastBackfill: (BackfillReport & { ms: number }) | undefined;

  constructor(
    private readonly deps: CoreDeps,
    private readonly options: MarketEngineOptions,
  ) {}

  get source() {
    return this.options.source;
  }

  // ── lifecycle ─────────────────────────────────────────────────────────────────────────────────────

  async seed() {
    await seedMarket(this.deps.database.db);
    await this.load();
  }

  /**
   * Loads categories and every instrument, disabled ones too (they keep quoting for the positions open
   * on them); quotes start at the base price until history is read.
   */
  async load() {
    const { db } = this.deps.database;
    await this.loadCategories();
    const rows = await db.select().from(instruments).orderBy(asc(instruments.sort), asc(instruments.id));
    this.entries.clear();
    this.byCode.clear();
    for (const row of rows) {
      if (!isMarketSession(row.session)) throw new Error(`instrument ${row.code} has unknown session ${row.session}`);
      const info = infoOf(row);
      const basePrice = Number(row.basePrice);
      const feed: FeedInstrument = {
        code: row.code,
        precision: row.pricePrecision,
        spread: row.spread,
        basePrice,
        volatility: Number(row.volatility),
        session: row.session,
        lastPrice: basePrice,
      };
      const entry: Entry = {
        info,
        feed,
        sort: row.sort,
        quote: new QuoteState(row.id, row.code, row.pricePrecision),
        bars: new BarSet((period, bar) => this.closedBars.push({ ...bar, instrumentId: row.id, period })),
        lastDayMarket: -Infinity,
        open: false,
      };
      this.setPrice(entry, basePrice, 0);
      this.entries.set(row.id, entry);
      this.byCode.set(row.code, entry);
    }
  }

  async start() {
    if (this.entries.size === 0) await this.load();
    const { db } = this.deps.database;
    const now = this.deps.clock.now().getTime();
    if (this.options.runsFeed && this.options.backfill) {
      const started = performance.now();
      const report = await backfillHistory(
        db,
        this.source,
        [...this.entries.values()].map((entry): HistoryInstrument => ({ ...entry.feed, id: entry.info.id })),
        await readLatestBars(db),
        now,
        this.precisionOf,
        this.deps.database.kind === 'postgres' ? 3 : 1,
      );
      this.lastBackfill = { ...report, ms: Math.round(performance.now() - started) };
      if (report.rowsWritten > 0) this.deps.log.info(this.lastBackfill, 'market history back-filled');
    }
    await this.restore(now);

    if (this.options.runsFeed) {
      this.source.start(
        [...this.entries.values()].map((entry) => entry.feed),
        (tick) => this.onTick(tick),
      );
      this.timers.push(setInterval(() => void this.flush(), FLUSH_INTERVAL_MS));
      await this.prune();
      this.timers.push(setInterval(() => void this.prune(), PRUNE_INTERVAL_MS));
    } else {
      this.unsubscribe.push(this.deps.bus.subscribe('market.quote', (quote) => this.follow(quote)));
    }
    this.unsubscribe.push(
      this.deps.bus.subscribe('market.instrument_changed', ({ id }) => void this.reloadInstrument(id)),
      this.deps.bus.subscribe('market.categories_changed', () => void this.reloadCategories()),
    );
    this.timers.push(setInterval(() => this.checkSessions(), SESSION_CHECK_MS));
    this.timers.push(setInterval(() => void this.reloadCatalogue(), CATALOGUE_MAX_AGE_MS));
  }

  async stop() {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
    this.source.stop();
    await this.flush();
  }

  // ── operators' changes ────────────────────────────────────────────────────────────────────────────

  private async loadCategories() {
    this.categoryRows = await this.deps.database.db
      .select({ id: categories.id, names: categories.names })
      .from(categories)
      .orderBy(asc(categories.sort), asc(categories.id));
  }

  /** Runs catalogue reads one at a time; a failed read is logged, the next event or refresh retries. */
  private serialised(what: string, read: () => Promise<void>): Promise<void> {
    this.reloading = this.reloading.then(read).catch((error: unknown) => {
      this.deps.log.error({ err: error }, `reading ${what} again failed`);
    });
    return this.reloading;
  }

  /**
   * Takes an operator's change of one instrument in place: its rules and name at once, its spread in the
   * feed (the next tick's ask uses it); quotes and bars go on. An instrument this process has never
   * loaded (added to the table since it started) appears with the next start.
   */
  reloadInstrument(id: number): Promise<void> {
    return this.serialised(`instrument ${id}`, async () => {
      const [row] = await this.deps.database.db.select().from(instruments).where(eq(instruments.id, id));
      if (row) this.apply([row]);
    });
  }

  reloadCategories(): Promise<void> {
    return this.serialised('categories', () => this.loadCategories());
  }

  /** Every instrument and category again: the periodic guard against a missed event. */
  private reloadCatalogue(): Promise<void> {
    return this.serialised('the catalogue', async () => {
      await this.loadCategories();
      this.apply(await this.deps.database.db.select().from(instruments));
    });
  }

  private apply(rows: InstrumentRow[]) {
    let reorder = false;
    for (const row of rows) {
      const entry = this.entries.get(row.id);
      if (!entry) continue;
      entry.info = infoOf(row);
      entry.feed.spread = row.spread;
      if (entry.sort !== row.sort) {
        entry.sort = row.sort;
        reorder = true;
      }
    }
    if (reorder) this.entries = new Map([...this.entries.values()].sort(bySort).map((entry) => [entry.info.id, entry]));
  }

  /** Continues the stored bars and sets every quote from its last close and the last 24 hours. */
  private async restore(now: number) {
    const { db } = this.deps.database;
    const latest = await readLatestBars(db);
    for (const bar of latest) {
      const entry = this.entries.get(bar.instrumentId);
      if (!entry) continue;
      const { instrumentId: _id, period, ...rest } = bar;
      entry.bars.current.set(period, rest);
    }
    // Hourly bars of the last three days give the 24-hour figures (and, after a weekend, the last close).
    const since = Math.floor(now / 1000) - 3 * 86400;
    const hourly = await db
      .select()
      .from(klines)
      .where(and(eq(klines.period, '60min'), gte(klines.openTime, since)))
      .orderBy(asc(klines.openTime));
    for (const row of hourly) {
      this.entries
        .get(row.instrumentId)
        ?.quote.record(
          row.openTime / 60,
          Number(row.open),
          Number(row.high),
          Number(row.low),
          Number(row.close),
          Number(row.volume),
        );
    }
    for (const entry of this.entries.values()) {
      const minuteBar = entry.bars.get('1min');
      if (minuteBar) this.setPrice(entry, minuteBar.close, minuteBar.time * 1000);
      entry.open = isSessionOpen(entry.feed.session, now);
    }
  }

  private async prune() {
    try {
      await pruneBars(this.deps.database.db, this.deps.clock.now().getTime());
    } catch (error) {
      this.deps.log.error({ err: error }, 'pruning old bars failed');
    }
  }

  private setPrice(entry: Entry, bid: number, time: number) {
    const { precision, spread } = entry.feed;
    entry.feed.lastPrice = bid;
    const text = bid.toFixed(precision);
    entry.quote.start(text, dec(text).plus(spread).toFixed(precision), time);
  }

  // ── the tick pipeline ─────────────────────────────────────────────────────────────────────────────

  onTick(tick: Tick): Quote | undefined {
    const entry = this.byCode.get(tick.code);
    if (!entry) return undefined;
    entry.quote.update(tick.bid, tick.ask, tick.time, tick.volume);
    entry.feed.lastPrice = Number(tick.bid);
    const price = Number(tick.bid);
    entry.bars.add(tick.time, price, price, price, price, tick.volume);
    this.dirty.add(entry.info.id);
    if (this.closedBars.length > 0) void this.flush();

    const open = isSessionOpen(entry.feed.session, tick.time);
    entry.open = open;
    const quote = entry.quote.snapshot(tick.time, open);
    const { bus } = this.deps;
    bus.publish('market.quote', quote);
    if (tick.time - entry.lastDayMarket >= this.options.dayMarketIntervalMs) {
      entry.lastDayMarket = tick.time;
      bus.publish('realtime.topic', { topic: SocketTopic.dayMarket, data: this.dayMarketView(entry, quote) });
    }
    const topic = klineTopic(entry.info.code);
    for (const period of KLINE_PERIODS) {
      const bar = entry.bars.get(period);
      if (!bar) continue;
      const data: KlineUpdateView = { Period: period, ...barView(bar, entry.info.pricePrecision) };
      bus.publish('realtime.topic', { topic, data });
    }
    return quote;
  }

  /** Gateway processes keep their quote table from the engine's `market.quote` events. */
  private follow(quote: Quote) {
    const entry = this.entries.get(quote.instrumentId);
    if (!entry || quote.time < entry.quote.time) return;
    entry.quote.update(quote.bid, quote.ask, quote.time, 0);
    entry.open = quote.marketOpen;
  }

  /** A DAY_MARKET with the new status when a session opens or closes, so lists switch to "closed". */
  private checkSessions() {
    const now = this.deps.clock.now().getTime();
    for (const entry of this.entries.values()) {
      const open = isSessionOpen(entry.feed.session, now);
      if (open === entry.open) continue;
      entry.open = open;
      this.deps.bus.publish('realtime.topic', {
        topic: SocketTopic.dayMarket,
        data: this.dayMarketView(entry, entry.quote.snapshot(now, open)),
      });
    }
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
        const entry = this.entries.get(id);
        if (!entry) continue;
        for (const [period, bar] of entry.bars.current) rows.push({ ...bar, instrumentId: id, period });
      }
      if (rows.length === 0) return;
      try {
        await upsertBars(this.deps.database.db, rows, this.precisionOf);
      } catch (error) {
        this.deps.log.error({ err: error }, 'writing bars failed; retrying with the next flush');
        this.closedBars.unshift(...closed);
        for (const id of touched) this.dirty.add(id);
      }
    });
    return this.flushing;
  }

  private readonly precisionOf = (instrumentId: number) => this.entries.get(instrumentId)?.info.pricePrecision ?? 10;

  // ── MarketService ─────────────────────────────────────────────────────────────────────────────────

  listInstruments(): InstrumentInfo[] {
    return [...this.entries.values()].map((entry) => entry.info);
  }

  getInstrument(id: number): InstrumentInfo | undefined {
    return this.entries.get(id)?.info;
  }

  getInstrumentByCode(code: string): InstrumentInfo | undefined {
    return this.byCode.get(code)?.info;
  }

  getQuote(instrumentId: number): Quote | undefined {
    const entry = this.entries.get(instrumentId);
    if (!entry) return undefined;
    return entry.quote.snapshot(this.deps.clock.now().getTime(), this.isOpen(instrumentId));
  }

  isOpen(instrumentId: number, at?: Date): boolean {
    const entry = this.entries.get(instrumentId);
    if (!entry) return false;
    return isSessionOpen(entry.feed.session, (at ?? this.deps.clock.now()).getTime());
  }

  usdRate(currency: string): Dec {
    if (currency === 'USD') return dec(1);
    const direct = this.byCode.get(`${currency}USD`);
    if (direct) return dec(direct.quote.bid);
    const inverse = this.byCode.get(`USD${currency}`);
    // A rate is a quote: 12 significant digits are far finer than any amount it converts, and keep the
    // decimal text that trade pairs and DAY_MARKET carry to the order ticket short.
    if (inverse) return dec(1).div(inverse.quote.bid).toSignificantDigits(USD_RATE_DIGITS);
    throw new Error(`no quote converts ${currency} into USD`);
  }

  // ── API views ─────────────────────────────────────────────────────────────────────────────────────

  categories(lang: Language): CategoryView[] {
    return this.categoryRows.map((row) => ({ Id: row.id, NameShowTrans: row.names[lang] ?? row.names.en ?? '' }));
  }

  tradeList(search: string | undefined): TradePairView[] {
    const now = this.deps.clock.now().getTime();
    const term = search?.toLowerCase();
    const result: TradePairView[] = [];
    for (const entry of this.entries.values()) {
      const { info } = entry;
      if (!info.enabled) continue;
      if (term && !`${info.code}\n${info.showCode}\n${info.name}`.toLowerCase().includes(term)) continue;
      const open = this.isOpen(info.id);
      const quote = entry.quote.snapshot(now, open);
      const p = info.pricePrecision;
      result.push({
        Id: info.id,
        Code: info.code,
        ShowCode: info.showCode,
        Name: info.name,
        Logo: info.logo,
        CategoryId: info.categoryId,
        MarketStatus: open ? 1 : 0,
        PricePrecision: p,
        Pip: info.lotStep.toNumber(),
        ForexMinCont: info.minLots.toNumber(),
        ForexMaxCont: info.maxLots.toNumber(),
        ForexContNum: info.contractSize.toNumber(),
        ForexFeeRate: info.feeRate.toNumber(),
        MarginMode: info.marginMode,
        HasForexMultiple: info.leverages.map((value) => ({ Value: value })),
        ForexQuotations: {
          Open: toJsonNumber(quote.open, p),
          Close: toJsonNumber(quote.bid, p),
          Change: toJsonNumber(quote.changePct, 2),
          High: toJsonNumber(quote.high, p),
          Low: toJsonNumber(quote.low, p),
          Volume: toJsonNumber(quote.volume, 2),
          Ask: toJsonNumber(quote.ask, p),
          Bid: toJsonNumber(quote.bid, p),
        },
        QuoteCurrency: info.quoteCurrency,
        UsdRate: this.usdRate(info.quoteCurrency).toFixed(),
      });
    }
    return result;
  }

  private dayMarketView(entry: Entry, quote: Quote): DayMarketView {
    const p = entry.info.pricePrecision;
    return {
      id: entry.info.id,
      symbol: entry.info.code,
      close: toJsonNumber(quote.bid, p),
      bid: toJsonNumber(quote.bid, p),
      ask: toJsonNumber(quote.ask, p),
      open: toJsonNumber(quote.open, p),
      high: toJsonNumber(quote.high, p),
      low: toJsonNumber(quote.low, p),
      change: toJsonNumber(quote.changePct, 2),
      volume: toJsonNumber(quote.volume, 2),
      status: quote.marketOpen ? 1 : 0,
      time: quote.time,
      usd_rate: this.usdRate(entry.info.quoteCurrency).toFixed(),
    };
  }

  private entryOrThrow(instrumentId: number): Entry {
    const entry = this.entries.get(instrumentId);
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
        ? [...this.entries.values()].filter((entry) => entry.info.enabled)
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

  /** How many bars each period holds for an instrument (operations and tests). */
  async barCounts(instrumentId: number): Promise<Record<KlinePeriod, number>> {
    const rows = await this.deps.database.db
      .select({ period: klines.period, count: sql<number>`count(*)::int` })
      .from(klines)
      .where(eq(klines.instrumentId, instrumentId))
      .groupBy(klines.period);
    const counts = Object.fromEntries(KLINE_PERIODS.map((period) => [period, 0])) as Record<KlinePeriod, number>;
    for (const row of rows) counts[row.period as KlinePeriod] = Number(row.count);
    return counts;
  }
}
