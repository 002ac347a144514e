import { isSessionOpen, klineTopic, KLINE_PERIODS, SocketTopic, type KlineUpdateView } from '@pipwise/domain';
import { and, asc, eq, gte } from 'drizzle-orm';
import type { CoreDeps } from '../../context.js';
import { klines } from '../../db/schema.js';
import type { Quote } from './api.js';
import type { BarWriter } from './bar-writer.js';
import type { Tick } from './feed.js';
import { startQuote, type InstrumentTable } from './instrument-table.js';
import { barView, readLatestBars } from './klines.js';
import type { MarketReads } from './market-reads.js';

/**
 * The tick pipeline: quote → bars → `market.quote` → DAY_MARKET and KLINE.<code> through
 * `realtime.topic`. It continues the stored bars and quotes at start; a gateway follows the engine's
 * quotes instead of ticking, and every process announces sessions opening and closing.
 */
export class TickPipeline {
  constructor(
    private readonly deps: Pick<CoreDeps, 'database' | 'bus' | 'clock'>,
    /** At most one DAY_MARKET per instrument in this many ms of market time (0: every tick). */
    private readonly dayMarketIntervalMs: number,
    private readonly table: InstrumentTable,
    private readonly bars: BarWriter,
    private readonly reads: MarketReads,
  ) {}

  /** Continues the stored bars and sets every quote from its last close and the last 24 hours. */
  async restore(now: number) {
    const { db } = this.deps.database;
    this.continueBars(await readLatestBars(db));
    // Read again after a back-fill: a minute already counted must not count twice.
    for (const entry of this.table.values()) entry.quote.forgetWindow();
    // Hourly bars of the last three days give the 24-hour figures (and, after a weekend, the last close).
    const since = Math.floor(now / 1000) - 3 * 86400;
    const hourly = await db
      .select()
      .from(klines)
      .where(and(eq(klines.period, '60min'), gte(klines.openTime, since)))
      .orderBy(asc(klines.openTime));
    for (const row of hourly) {
      this.table
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
    for (const entry of this.table.values()) {
      const minuteBar = entry.bars.get('1min');
      if (minuteBar) startQuote(entry, minuteBar.close, minuteBar.time * 1000);
      entry.open = isSessionOpen(entry.feed.session, now);
    }
  }

  /**
   * On taking the feed over: the current bars as stored (the old leader wrote them every two seconds),
   * and each price from the newer of its stored close and the quote this process followed.
   */
  async resume() {
    this.continueBars(await readLatestBars(this.deps.database.db));
    for (const entry of this.table.values()) {
      const minuteBar = entry.bars.get('1min');
      if (minuteBar && minuteBar.time * 1000 > entry.quote.time) startQuote(entry, minuteBar.close, minuteBar.time * 1000);
      else if (entry.quote.time > 0) entry.feed.lastPrice = Number(entry.quote.bid);
    }
  }

  private continueBars(latest: Awaited<ReturnType<typeof readLatestBars>>) {
    for (const bar of latest) {
      const entry = this.table.get(bar.instrumentId);
      if (!entry) continue;
      const { instrumentId: _id, period, ...rest } = bar;
      entry.bars.current.set(period, rest);
    }
  }

  onTick(tick: Tick): Quote | undefined {
    const entry = this.table.getByCode(tick.code);
    if (!entry) return undefined;
    entry.quote.update(tick.bid, tick.ask, tick.time, tick.volume);
    entry.feed.lastPrice = Number(tick.bid);
    const price = Number(tick.bid);
    entry.bars.add(tick.time, price, price, price, price, tick.volume);
    this.bars.touched(entry.info.id);

    const open = isSessionOpen(entry.feed.session, tick.time);
    entry.open = open;
    const quote = entry.quote.snapshot(tick.time, open);
    const { bus } = this.deps;
    bus.publish('market.quote', quote);
    if (tick.time - entry.lastDayMarket >= this.dayMarketIntervalMs) {
      entry.lastDayMarket = tick.time;
      bus.publish('realtime.topic', { topic: SocketTopic.dayMarket, data: this.reads.dayMarketView(entry, quote) });
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
  follow(quote: Quote) {
    const entry = this.table.get(quote.instrumentId);
    if (!entry || quote.time < entry.quote.time) return;
    entry.quote.update(quote.bid, quote.ask, quote.time, 0);
    entry.open = quote.marketOpen;
  }

  /** A DAY_MARKET with the new status when a session opens or closes, so lists switch to "closed". */
  checkSessions() {
    const now = this.deps.clock.now().getTime();
    for (const entry of this.table.values()) {
      const open = isSessionOpen(entry.feed.session, now);
      if (open === entry.open) continue;
      entry.open = open;
      this.deps.bus.publish('realtime.topic', {
        topic: SocketTopic.dayMarket,
        data: this.reads.dayMarketView(entry, entry.quote.snapshot(now, open)),
      });
    }
  }
}
