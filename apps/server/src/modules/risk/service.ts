import {
  BALANCE_DECIMALS,
  dec,
  DepositStatus,
  OrderSide,
  OrderStatus,
  toJsonNumber,
  WithdrawalStatus,
  type Dec,
  type OrderSideValue,
  type RiskView,
} from '@pipwise/domain';
import { and, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { deposits, orders, users, wallets, withdrawals } from '../../db/schema.js';
import type { MarketService } from '../market/api.js';
import { addToBook, exposureOf, type Book } from '../../positions/books.js';
import type { PositionWatch } from '../trading/watch.js';

/** Lots are shown with the instruments' finest lot step. */
const LOTS_DECIMALS = 4;
/** Accounts listed as nearest to stop-out. */
export const NEAREST_STOP_OUT = 10;
/** Several operators polling every 2 s share one computation. */
const SNAPSHOT_TTL_MS = 1_000;
/** Today's cashier figures scan the day's records: a few seconds' staleness is fine for a dashboard. */
const TODAY_TTL_MS = 5_000;

/** One account's positions, summed per instrument and side, and its cash. */
interface AccountBooks {
  userId: number;
  balance: Dec;
  books: Map<string, Book>;
}

export interface RiskDeps {
  db: Db;
  clock: Clock;
  market: MarketService;
  /** The stop-out level (percent), the setting the engine applies. */
  stopOutLevel: () => Promise<Dec>;
  /** The engine's in-memory book where the engine runs in this process; null on a gateway. */
  watch: () => PositionWatch | null;
}

interface InstrumentTotals {
  long: Dec;
  short: Dec;
  floating: Dec;
}

/**
 * The book as the dealing desk watches it: per instrument the clients' long, short and net lots, net
 * exposure in USD and floating P&L (the broker, as the clients' counterparty, holds the negative), the
 * accounts nearest stop-out, and today's cash flows. Positions come from the risk engine's memory where
 * it runs (no query), otherwise from one grouped query; prices and USD rates from the market service.
 */
export class RiskService {
  private snapshot: { at: number; value: Promise<RiskView> } | null = null;
  private today: { at: number; day: number; value: Promise<TodayFigures> } | null = null;

  constructor(private readonly deps: RiskDeps) {}

  overview(): Promise<RiskView> {
    const now = this.deps.clock.now().getTime();
    if (!this.snapshot || now - this.snapshot.at >= SNAPSHOT_TTL_MS) {
      const value = this.compute();
      this.snapshot = { at: now, value };
      // A failed computation is not kept: the next poll tries again.
      value.catch(() => {
        if (this.snapshot?.value === value) this.snapshot = null;
      });
    }
    return this.snapshot.value;
  }

  private async compute(): Promise<RiskView> {
    const [accounts, level, today] = await Promise.all([this.accounts(), this.deps.stopOutLevel(), this.todayFigures()]);
    const { market } = this.deps;
    const perInstrument = new Map<number, InstrumentTotals>();
    const levels: { userId: number; equity: Dec; usedMargin: Dec; marginLevel: Dec }[] = [];
    let clientsFloating = dec(0);
    for (const account of accounts) {
      for (const book of account.books.values()) {
        const totals = perInstrument.get(book.instrumentId) ?? { long: dec(0), short: dec(0), floating: dec(0) };
        if (book.side === OrderSide.buy) totals.long = totals.long.plus(book.lots);
        else totals.short = totals.short.plus(book.lots);
        perInstrument.set(book.instrumentId, totals);
      }
      const { floating, usedMargin } = exposureOf(market, account.books.values(), (book, pnl) => {
        const totals = perInstrument.get(book.instrumentId)!;
        totals.floating = totals.floating.plus(pnl);
      });
      clientsFloating = clientsFloating.plus(floating);
      if (usedMargin.gt(0)) {
        const equity = account.balance.plus(floating);
        levels.push({ userId: account.userId, equity, usedMargin, marginLevel: equity.dividedBy(usedMargin).times(100) });
      }
    }

    let clientsExposure = dec(0);
    const instruments = [...perInstrument]
      .map(([instrumentId, totals]) => {
        const instrument = market.getInstrument(instrumentId);
        const quote = market.getQuote(instrumentId);
        const net = totals.long.minus(totals.short);
        // Notional at the mid price, converted from the quote currency: the base currency the clients are net long of.
        const exposure =
          instrument && quote
            ? net
                .times(instrument.contractSize)
                .times(dec(quote.bid).plus(quote.ask).dividedBy(2))
                .times(market.usdRate(instrument.quoteCurrency))
            : null;
        if (exposure) clientsExposure = clientsExposure.plus(exposure);
        return {
          code: instrument?.code ?? String(instrumentId),
          long_lots: toJsonNumber(totals.long, LOTS_DECIMALS),
          short_lots: toJsonNumber(totals.short, LOTS_DECIMALS),
          net_lots: toJsonNumber(net, LOTS_DECIMALS),
          net_exposure_usd: exposure === null ? null : toJsonNumber(exposure, BALANCE_DECIMALS),
          floating_pnl: toJsonNumber(totals.floating, BALANCE_DECIMALS),
        };
      })
      .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

    levels.sort((a, b) => a.marginLevel.comparedTo(b.marginLevel) || a.userId - b.userId);
    const nearest = levels.slice(0, NEAREST_STOP_OUT);
    const uids = await this.uidsOf(nearest.map((entry) => entry.userId));
    return {
      instruments,
      book: {
        net_exposure_usd: toJsonNumber(clientsExposure.negated(), BALANCE_DECIMALS),
        floating_pnl: toJsonNumber(clientsFloating.negated(), BALANCE_DECIMALS),
        clients_net_exposure_usd: toJsonNumber(clientsExposure, BALANCE_DECIMALS),
        clients_floating_pnl: toJsonNumber(clientsFloating, BALANCE_DECIMALS),
      },
      stop_out_level: toJsonNumber(level, 2),
      nearest_stop_out: nearest.map((entry) => ({
        uid: uids.get(entry.userId) ?? null,
        equity: toJsonNumber(entry.equity, BALANCE_DECIMALS),
        used_margin: toJsonNumber(entry.usedMargin, BALANCE_DECIMALS),
        margin_level: toJsonNumber(entry.marginLevel, 2),
      })),
      today: {
        deposits: { count: today.deposits.count, amount: toJsonNumber(today.deposits.amount, BALANCE_DECIMALS) },
        withdrawals: { count: today.withdrawals.count, amount: toJsonNumber(today.withdrawals.amount, BALANCE_DECIMALS) },
        new_users: today.newUsers,
      },
      at: new Date(this.deps.clock.now().getTime()).toISOString(),
    };
  }

  /** Every account holding positions, from the engine's memory, or from the database on a gateway. */
  private async accounts(): Promise<AccountBooks[]> {
    const watch = this.deps.watch();
    if (watch) {
      const accounts: AccountBooks[] = [];
      for (const userId of watch.userIds()) {
        const books = new Map<string, Book>();
        for (const order of watch.ordersOf(userId)) {
          if (order.status !== OrderStatus.holding || order.openPrice === null) continue;
          addToBook(books, order.instrumentId, order.side, {
            lots: dec(order.lots),
            lotsTimesEntry: dec(order.lots).times(order.openPrice),
            margin: dec(order.margin),
          });
        }
        if (books.size > 0) accounts.push({ userId, balance: dec(watch.balanceOf(userId) ?? '0'), books });
      }
      return accounts;
    }
    const rows = rowsOf(
      await this.deps.db.execute(sql`
        SELECT o.user_id, o.instrument_id, o.side, sum(o.lots) AS lots, sum(o.lots * o.open_price) AS lots_times_entry,
               sum(o.margin) AS margin, min(w.balance) AS balance
        FROM ${orders} o JOIN ${wallets} w ON w.user_id = o.user_id
        WHERE o.status = ${OrderStatus.holding}
        GROUP BY o.user_id, o.instrument_id, o.side`),
    );
    const byUser = new Map<number, AccountBooks>();
    for (const row of rows) {
      const userId = Number(row.user_id);
      let account = byUser.get(userId);
      if (!account) {
        account = { userId, balance: dec(row.balance as string), books: new Map() };
        byUser.set(userId, account);
      }
      addToBook(account.books, Number(row.instrument_id), Number(row.side) as OrderSideValue, {
        lots: dec(row.lots as string),
        lotsTimesEntry: dec(row.lots_times_entry as string),
        margin: dec(row.margin as string),
      });
    }
    return [...byUser.values()];
  }

  private async uidsOf(userIds: number[]) {
    if (userIds.length === 0) return new Map<number, number>();
    const rows = await this.deps.db.select({ id: users.id, uid: users.uid }).from(users).where(inArray(users.id, userIds));
    return new Map(rows.map((row) => [row.id, row.uid]));
  }

  /** Deposits finished and withdrawals completed since midnight UTC, and real accounts opened. */
  private todayFigures(): Promise<TodayFigures> {
    const now = this.deps.clock.now().getTime();
    const day = Math.floor(now / 86_400_000);
    if (!this.today || this.today.day !== day || now - this.today.at >= TODAY_TTL_MS) {
      const value = this.readToday(new Date(day * 86_400_000));
      this.today = { at: now, day, value };
      value.catch(() => {
        if (this.today?.value === value) this.today = null;
      });
    }
    return this.today.value;
  }

  private async readToday(since: Date): Promise<TodayFigures> {
    const { db } = this.deps;
    const [[paidIn], [paidOut], [joined]] = await Promise.all([
      db
        .select({ n: count(), sum: sql<string | null>`sum(coalesce(${deposits.creditedAmount}, ${deposits.amount}))` })
        .from(deposits)
        .where(and(eq(deposits.status, DepositStatus.finished), gte(deposits.decidedAt, since))),
      db
        .select({ n: count(), sum: sql<string | null>`sum(${withdrawals.amount})` })
        .from(withdrawals)
        .where(and(eq(withdrawals.status, WithdrawalStatus.completed), gte(withdrawals.decidedAt, since))),
      db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.isDemo, 0), gte(users.createdAt, since))),
    ]);
    return {
      deposits: { count: Number(paidIn?.n ?? 0), amount: dec(paidIn?.sum ?? '0') },
      withdrawals: { count: Number(paidOut?.n ?? 0), amount: dec(paidOut?.sum ?? '0') },
      newUsers: Number(joined?.n ?? 0),
    };
  }
}

interface TodayFigures {
  deposits: { count: number; amount: Dec };
  withdrawals: { count: number; amount: Dec };
  newUsers: number;
}
