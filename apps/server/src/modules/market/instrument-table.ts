import { dec, isMarketSession } from '@pipwise/domain';
import { asc, eq } from 'drizzle-orm';
import type { CoreDeps } from '../../context.js';
import { categories, instruments } from '../../db/schema.js';
import type { InstrumentInfo } from './api.js';
import type { FeedInstrument } from './feed.js';
import { BarSet, type StoredBar } from './klines.js';
import { QuoteState } from './quotes.js';

/** One instrument as this process holds it: its rules, its feed parameters, its quote and current bars. */
export interface Entry {
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

export interface CategoryRow {
  id: number;
  names: Record<string, string>;
}

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

/** Starts an entry's quote at `bid` (the ask a spread above it), the price its feed continues from. */
export function startQuote(entry: Entry, bid: number, time: number) {
  const { precision, spread } = entry.feed;
  entry.feed.lastPrice = bid;
  const text = bid.toFixed(precision);
  entry.quote.start(text, dec(text).plus(spread).toFixed(precision), time);
}

/**
 * The instruments and categories this process holds, in display order: loaded at start, and read again
 * in place when operators change them (their events, or the periodic re-read that catches a missed one).
 */
export class InstrumentTable {
  private entries = new Map<number, Entry>();
  private entriesByCode = new Map<string, Entry>();
  private categoryRows: CategoryRow[] = [];
  /** Catalogue reads run one after another, so an older read never lands after a newer one. */
  private reloading: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: Pick<CoreDeps, 'database' | 'log'>,
    /** Where a bar goes when a newer one replaces it as current. */
    private readonly onBarClosed: (bar: StoredBar) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(instrumentId: number): Entry | undefined {
    return this.entries.get(instrumentId);
  }

  getByCode(code: string): Entry | undefined {
    return this.entriesByCode.get(code);
  }

  values(): IterableIterator<Entry> {
    return this.entries.values();
  }

  categories(): readonly CategoryRow[] {
    return this.categoryRows;
  }

  readonly precisionOf = (instrumentId: number) => this.entries.get(instrumentId)?.info.pricePrecision ?? 10;

  /**
   * Loads categories and every instrument, disabled ones too (they keep quoting for the positions open
   * on them); quotes start at the base price until history is read.
   */
  async load() {
    const { db } = this.deps.database;
    await this.loadCategories();
    const rows = await db.select().from(instruments).orderBy(asc(instruments.sort), asc(instruments.id));
    this.entries.clear();
    this.entriesByCode.clear();
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
        bars: new BarSet((period, bar) => this.onBarClosed({ ...bar, instrumentId: row.id, period })),
        lastDayMarket: -Infinity,
        open: false,
      };
      startQuote(entry, basePrice, 0);
      this.entries.set(row.id, entry);
      this.entriesByCode.set(row.code, entry);
    }
  }

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
  reloadCatalogue(): Promise<void> {
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
}
