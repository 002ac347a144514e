import { bookProfit, dec, exitPrice, OrderStatus, type Dec, type OrderSideValue } from '@pipwise/domain';
import { sql, type SQL } from 'drizzle-orm';
import { orders } from '../db/schema.js';
import type { MarketService, Quote } from '../modules/market/api.js';

/** What an account's holding positions add up to at the current quotes. */
export interface Exposure {
  floating: Dec;
  usedMargin: Dec;
}

/**
 * An account's positions in one instrument and side, summed: all their floating P&L needs. One
 * position is a book of one (`bookOf`).
 */
export interface Book {
  instrumentId: number;
  side: OrderSideValue;
  lots: Dec;
  lotsTimesEntry: Dec;
  margin: Dec;
}

/** A holding position as a book of its own. */
export const bookOf = (position: {
  instrumentId: number;
  side: number;
  lots: string;
  openPrice: string | null;
  margin: string;
}): Book => ({
  instrumentId: position.instrumentId,
  side: position.side as OrderSideValue,
  lots: dec(position.lots),
  lotsTimesEntry: dec(position.lots).times(position.openPrice ?? 0),
  margin: dec(position.margin),
});

/**
 * The one reckoning of an account's exposure at the current quotes, used by the order path, the money
 * paths, the lists and the engine's pushes alike: every book's margin is used margin; a book whose
 * instrument has no quote adds no floating P&L. `each` is told every quoted book's P&L and the price
 * it would close at.
 */
export function exposureOf<B extends Book>(
  market: MarketService,
  books: Iterable<B>,
  each?: (book: B, pnl: Dec, exit: Dec, quote: Quote) => void,
): Exposure {
  let floating = dec(0);
  let usedMargin = dec(0);
  for (const book of books) {
    usedMargin = usedMargin.plus(book.margin);
    const instrument = market.getInstrument(book.instrumentId);
    const quote = market.getQuote(book.instrumentId);
    if (!instrument || !quote) continue;
    const exit = exitPrice(book.side, quote);
    const pnl = bookProfit({ ...book, contractSize: instrument.contractSize }, exit, market.usdRate(instrument.quoteCurrency));
    floating = floating.plus(pnl);
    each?.(book, pnl, exit, quote);
  }
  return { floating, usedMargin };
}

export function addToBook(
  books: Map<string, Book>,
  instrumentId: number,
  side: OrderSideValue,
  add: Pick<Book, 'lots' | 'lotsTimesEntry' | 'margin'>,
) {
  const key = `${instrumentId}:${side}`;
  const book = books.get(key);
  books.set(
    key,
    book
      ? {
          ...book,
          lots: book.lots.plus(add.lots),
          lotsTimesEntry: book.lotsTimesEntry.plus(add.lotsTimesEntry),
          margin: book.margin.plus(add.margin),
        }
      : { instrumentId, side, ...add },
  );
}

/**
 * One row per book of the user `user` names: positions summed per instrument and side, so the cost of
 * an account's figures does not grow with its number of positions.
 */
export const booksOf = (user: SQL) => sql`
  SELECT instrument_id, side, sum(lots) AS lots, sum(lots * open_price) AS lots_times_entry, sum(margin) AS margin
  FROM ${orders} WHERE user_id = ${user} AND status = ${OrderStatus.holding}
  GROUP BY instrument_id, side`;

export function addRowToBooks(books: Map<string, Book>, row: Record<string, unknown>) {
  addToBook(books, Number(row.instrument_id), Number(row.side) as OrderSideValue, {
    lots: dec(row.lots as string),
    lotsTimesEntry: dec(row.lots_times_entry as string),
    margin: dec(row.margin as string),
  });
}
