import {
  accountFigures,
  dec,
  notFound,
  OrderStatus,
  rejected,
  SocketTopic,
  type AccountFigures,
  type Dec,
} from '@pipwise/domain';
import { and, eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { orders } from '../../db/schema.js';
import type { EventBus } from '../../realtime/bus.js';
import type { InstrumentInfo, MarketService, Quote } from '../market/api.js';
import type { SettingsService } from '../settings/service.js';
import type { WalletAt, WalletService } from '../wallet/service.js';
import { addRowToBooks, booksOf, exposureOf, type Book, type Exposure } from '../../positions/books.js';

export type OrderRow = typeof orders.$inferSelect;

/** What the risk engine watches of an order. */
export type WatchedFields = Pick<
  OrderRow,
  | 'id'
  | 'userId'
  | 'instrumentId'
  | 'side'
  | 'status'
  | 'lots'
  | 'margin'
  | 'openPrice'
  | 'targetPrice'
  | 'placedPrice'
  | 'takeProfit'
  | 'stopLoss'
>;

/**
 * New orders of one account and the wallet they left behind, at the wallet version their write
 * created: the engine applies it without a read when it knows the account at the version before,
 * and re-reads the account otherwise (a change it has not heard of came in between).
 */
export interface PlacedNotice {
  version: number;
  balance: string;
  orders: WatchedFields[];
}

/**
 * Orders of one account that the engine closed (or retired) in one batch, and the wallet they left
 * behind: `from` is the version the batch found under its lock, `version` the one it left. The engine
 * applies it without a read when it watches the account at `from`.
 */
export interface ClosedNotice {
  from: number;
  version: number;
  balance: string;
  orderIds: number[];
}

declare module '../../realtime/bus.js' {
  interface BusEvents {
    /**
     * Something about a user's orders or cash changed and committed (submit, fill, close, cancel, TP/SL
     * edit, reset). The risk engine reloads that user's state from the database.
     */
    'trading.changed': { userId: number; placed?: PlacedNotice; closed?: ClosedNotice };
  }
}

/** Settings the trading rules read (defaults in db/seed.ts). */
interface TradingSettings {
  feeType: number;
  stopOutLevel: Dec;
  /** At or below this margin level (percent) the account is warned: in the app and by e-mail. */
  marginCallLevel: Dec;
  demoStartBalance: Dec;
}

export interface TradingDeps {
  db: Db;
  wallet: WalletService;
  market: MarketService;
  bus: EventBus;
  clock: Clock;
  settings: SettingsService;
  /** Operators' freezes: a frozen account places no new orders (closing stays allowed). */
  restrictions: TradingRestrictions;
  /** Whether the account has accepted the risk disclosure in force (refused with 1010 until it has). */
  disclosure: TradingDisclosure;
  /** In each engine transaction, before it moves money: throws unless this process still leads the engine. */
  fence?: (tx: Executor) => Promise<void>;
}

/** What trading needs of the accounts' risk disclosure (answered from memory on the hot path). */
export interface TradingDisclosure {
  refuseUntilAccepted(userId: number): Promise<void>;
  /** Reads many accounts' acceptance at once, so the checks of a bulk placement answer from memory. */
  remember(userIds: number[]): Promise<void>;
}

/** What trading needs of the back office's freezes (answered from memory on the hot path). */
export interface TradingRestrictions {
  refuseFrozenTrading(userId: number): Promise<void>;
  /** Reads many accounts' freezes at once, so the checks of a bulk placement answer from memory. */
  remember(userIds: number[]): Promise<void>;
  tradingFrozenAmong(tx: Executor, userIds: number[]): Promise<Set<number>>;
}

export interface OrderOutcome {
  order: OrderRow;
  msgKey: string;
}

export type HoldingSlice = Pick<OrderRow, 'id' | 'instrumentId' | 'side' | 'lots' | 'openPrice' | 'margin'>;

/** An account as this process last read or wrote it: exact for as long as the wallet is at `version`. */
export interface KnownAccount extends WalletAt {
  books: Map<string, Book>;
}

/** Accounts remembered between order batches; the least recently used are forgotten beyond this. */
const KNOWN_ACCOUNTS_MAX = 50_000;

/**
 * What every part of the trading service shares: its dependencies, the settings, the instrument and
 * quote look-ups, an account's exposure and figures, the orders' owner check, the notices, and what this
 * process remembers of the accounts it placed orders for.
 */
export class TradingCore {
  private readonly tradingSettings: () => Promise<TradingSettings>;
  /**
   * What this process last knew of each account it placed orders for, so the next batch can go
   * straight to its write: the write's version check catches any change made since (elsewhere or
   * by another path) and the batch then reads again.
   */
  readonly knownAccounts = new LRUCache<number, KnownAccount>({ max: KNOWN_ACCOUNTS_MAX });

  constructor(readonly deps: TradingDeps) {
    this.tradingSettings = deps.settings.derived((values) => ({
      feeType: Number(values.trade_fee_type),
      stopOutLevel: dec(values.stop_out_level),
      marginCallLevel: dec(values.margin_call_level),
      demoStartBalance: dec(values.demo_start_balance),
    }));
  }

  get db() {
    return this.deps.db;
  }

  settings(): Promise<TradingSettings> {
    return this.tradingSettings();
  }

  instrument(id: number): InstrumentInfo {
    const instrument = this.deps.market.getInstrument(id);
    if (!instrument) throw notFound('instrument_not_found');
    return instrument;
  }

  tradableQuote(instrument: InstrumentInfo): Quote {
    const quote = this.deps.market.getQuote(instrument.id);
    if (!quote) throw rejected('quote_unavailable');
    if (!quote.marketOpen || !this.deps.market.isOpen(instrument.id)) throw rejected('market_closed');
    return quote;
  }

  usdRate(instrument: InstrumentInfo): Dec {
    return this.deps.market.usdRate(instrument.quoteCurrency);
  }

  /** What `orderCharges` needs of an instrument and the fee setting, at the USD rate now; the order adds lots, price, leverage. */
  chargeTerms(instrument: InstrumentInfo, feeType: number) {
    return {
      contractSize: instrument.contractSize,
      marginMode: instrument.marginMode,
      usdRate: this.usdRate(instrument),
      feeType,
      feeRate: instrument.feeRate,
    };
  }

  async holdings(tx: Executor, userId: number): Promise<HoldingSlice[]> {
    return tx
      .select({
        id: orders.id,
        instrumentId: orders.instrumentId,
        side: orders.side,
        lots: orders.lots,
        openPrice: orders.openPrice,
        margin: orders.margin,
      })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.status, OrderStatus.holding)));
  }

  /** The account's exposure from its positions summed by the database per instrument and side. */
  async exposure(tx: Executor, userId: number): Promise<Exposure> {
    const books = new Map<string, Book>();
    for (const row of rowsOf(await tx.execute(booksOf(sql`${userId}`)))) addRowToBooks(books, row);
    return exposureOf(this.deps.market, books.values());
  }

  figuresFrom(balance: Dec, locked: Dec, exposure: Exposure): AccountFigures {
    return accountFigures({ balance, floating: exposure.floating, usedMargin: exposure.usedMargin, locked });
  }

  /** The order if it belongs to the user; another user's order is "not found" (its existence is not revealed). */
  async owned(userId: number, orderId: number, tx: Executor = this.db): Promise<OrderRow> {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
      .limit(1);
    if (!order) throw notFound('order_not_found');
    return order;
  }

  /** A change by any path but placing orders: the account's version moved, so what is remembered is stale. */
  changed(userId: number) {
    this.knownAccounts.delete(userId);
    this.deps.bus.publish('trading.changed', { userId });
  }

  /** Closed or cancelled orders leave every device's lists at once (FOREX_CLOSED), and the engine reloads. */
  closedNotice(userId: number, ids: number[]) {
    this.changed(userId);
    this.deps.bus.publish('realtime.user', { userId, topic: SocketTopic.forexClosed, data: ids });
  }

  /** `closedNotice` for the engine's own closes, with what it needs to apply them without a read. */
  closedByEngineNotice(userId: number, closed: ClosedNotice) {
    this.knownAccounts.delete(userId);
    this.deps.bus.publish('trading.changed', { userId, closed });
    this.deps.bus.publish('realtime.user', { userId, topic: SocketTopic.forexClosed, data: closed.orderIds });
  }

  /** Filled pending orders move from every device's pending list to its holding list (FOREX_FILLED). */
  filledNotice(userId: number, ids: number[]) {
    this.changed(userId);
    this.deps.bus.publish('realtime.user', { userId, topic: SocketTopic.forexFilled, data: ids });
  }
}
