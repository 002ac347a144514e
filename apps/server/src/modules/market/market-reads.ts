import {
  dec,
  isSessionOpen,
  toJsonNumber,
  type CategoryView,
  type Dec,
  type DayMarketView,
  type Language,
  type TradePairView,
} from '@pipwise/domain';
import type { CoreDeps } from '../../context.js';
import type { InstrumentInfo, MarketService, Quote } from './api.js';
import type { Entry, InstrumentTable } from './instrument-table.js';

const USD_RATE_DIGITS = 12;

/**
 * What is read of the market in memory: the instruments, quotes, sessions and USD rates other modules
 * use (`MarketService`), and the shapes the API and the socket send (trade list, categories, DAY_MARKET).
 */
export class MarketReads implements MarketService {
  constructor(
    private readonly deps: Pick<CoreDeps, 'clock'>,
    private readonly table: InstrumentTable,
  ) {}

  listInstruments(): InstrumentInfo[] {
    return [...this.table.values()].map((entry) => entry.info);
  }

  getInstrument(id: number): InstrumentInfo | undefined {
    return this.table.get(id)?.info;
  }

  getInstrumentByCode(code: string): InstrumentInfo | undefined {
    return this.table.getByCode(code)?.info;
  }

  getQuote(instrumentId: number): Quote | undefined {
    const entry = this.table.get(instrumentId);
    if (!entry) return undefined;
    return entry.quote.snapshot(this.deps.clock.now().getTime(), this.isOpen(instrumentId));
  }

  getTickedQuote(instrumentId: number): Quote | undefined {
    return this.table.get(instrumentId)?.quote.ticked ? this.getQuote(instrumentId) : undefined;
  }

  isOpen(instrumentId: number, at?: Date): boolean {
    const entry = this.table.get(instrumentId);
    if (!entry) return false;
    return isSessionOpen(entry.feed.session, (at ?? this.deps.clock.now()).getTime());
  }

  usdRate(currency: string): Dec {
    if (currency === 'USD') return dec(1);
    const direct = this.table.getByCode(`${currency}USD`);
    if (direct) return dec(direct.quote.bid);
    const inverse = this.table.getByCode(`USD${currency}`);
    // A rate is a quote: 12 significant digits are far finer than any amount it converts, and keep the
    // decimal text that trade pairs and DAY_MARKET carry to the order ticket short.
    if (inverse) return dec(1).div(inverse.quote.bid).toSignificantDigits(USD_RATE_DIGITS);
    throw new Error(`no quote converts ${currency} into USD`);
  }

  // ── API views ─────────────────────────────────────────────────────────────────────────────────────

  categories(lang: Language): CategoryView[] {
    return this.table.categories().map((row) => ({ Id: row.id, NameShowTrans: row.names[lang] ?? row.names.en ?? '' }));
  }

  tradeList(search: string | undefined): TradePairView[] {
    const now = this.deps.clock.now().getTime();
    const term = search?.toLowerCase();
    const result: TradePairView[] = [];
    for (const entry of this.table.values()) {
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
        Session: entry.feed.session,
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

  /** The DAY_MARKET frame of an instrument at `quote`. */
  dayMarketView(entry: Entry, quote: Quote): DayMarketView {
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
}
