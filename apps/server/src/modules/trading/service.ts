import {
  accountFigures,
  bookProfit,
  CloseReason,
  conflict,
  dec,
  entryPrice,
  exitPrice,
  fillDirection,
  freeMargin,
  invalid,
  isStopOut,
  lotError,
  margin as marginOf,
  notFound,
  OrderStatus,
  pendingReached,
  profit,
  rejected,
  roundBalance,
  roundProfit,
  stopReached,
  stopsError,
  tradeFee,
  type AccountFigures,
  type CloseReasonValue,
  type Dec,
  type OrderSideValue,
  type TSetStopPriceRequest,
  type TSubmitOrderRequest,
} from '@pipwise/domain';
import { and, count, desc, eq, gte, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { GroupCommit, type ItemOutcome } from '../../db/group-commit.js';
import { idArray, rowsOf, TableRows } from '../../db/rows.js';
import { statement } from '../../db/statement.js';
import { idempotencyKeys, orders, settings } from '../../db/schema.js';
import type { EventBus } from '../../realtime/bus.js';
import type { InstrumentInfo, MarketService, Quote } from '../market/api.js';
import type { WalletAt, WalletClaim, WalletService } from '../wallet/service.js';

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

const watchedFields = (order: OrderRow): WatchedFields => ({
  id: order.id,
  userId: order.userId,
  instrumentId: order.instrumentId,
  side: order.side,
  status: order.status,
  lots: order.lots,
  margin: order.margin,
  openPrice: order.openPrice,
  targetPrice: order.targetPrice,
  placedPrice: order.placedPrice,
  takeProfit: order.takeProfit,
  stopLoss: order.stopLoss,
});

declare module '../../realtime/bus.js' {
  interface BusEvents {
    /**
     * Something about a user's orders or cash changed and committed (submit, fill, close, cancel, TP/SL
     * edit, reset). The risk engine reloads that user's state from the database.
     */
    'trading.changed': { userId: number; placed?: PlacedNotice };
  }
}

export const PAGE_SIZE = 10;

/** Settings the trading rules read (defaults in db/seed.ts). */
interface TradingSettings {
  feeType: number;
  stopOutLevel: Dec;
  demoStartBalance: Dec;
}

const SETTINGS_TTL_MS = 5_000;

export interface TradingDeps {
  db: Db;
  wallet: WalletService;
  market: MarketService;
  bus: EventBus;
  clock: Clock;
}

/** What an Idempotency-Key replays: the order the first call acted on and its confirmation. */
interface Acknowledgement {
  orderId: number;
  msgKey: string;
}

export interface OrderOutcome {
  order: OrderRow;
  msgKey: string;
}

type HoldingSlice = Pick<OrderRow, 'id' | 'instrumentId' | 'side' | 'lots' | 'openPrice' | 'margin'>;

/** What an account's holding positions add up to at the current quotes. */
interface Exposure {
  floating: Dec;
  usedMargin: Dec;
}

/** An account's positions in one instrument and side, summed: all their floating P&L needs. */
interface Book {
  instrumentId: number;
  side: OrderSideValue;
  lots: Dec;
  lotsTimesEntry: Dec;
  margin: Dec;
}

function addToBook(
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
const booksOf = (user: SQL) => sql`
  SELECT instrument_id, side, sum(lots) AS lots, sum(lots * open_price) AS lots_times_entry, sum(margin) AS margin
  FROM ${orders} WHERE user_id = ${user} AND status = ${OrderStatus.holding}
  GROUP BY instrument_id, side`;

function addRowToBooks(books: Map<string, Book>, row: Record<string, unknown>) {
  addToBook(books, Number(row.instrument_id), Number(row.side) as OrderSideValue, {
    lots: dec(row.lots as string),
    lotsTimesEntry: dec(row.lots_times_entry as string),
    margin: dec(row.margin as string),
  });
}

/** An account as this process last read or wrote it: exact for as long as the wallet is at `version`. */
interface KnownAccount extends WalletAt {
  books: Map<string, Book>;
}

/** Accounts remembered between order batches; the least recently used are forgotten beyond this. */
const KNOWN_ACCOUNTS_MAX = 50_000;

/** An order checked against everything but its account, priced, waiting for its transaction. */
interface OrderDraft {
  userId: number;
  idempotencyKey: string | undefined;
  instrument: InstrumentInfo;
  side: OrderSideValue;
  pending: boolean;
  lots: Dec;
  /** The market entry price (a pending order's placed price). */
  entry: Dec;
  margin: Dec;
  fee: Dec;
  reserved: Dec;
  values: Pick<typeof orders.$inferInsert, (typeof DRAFT_COLUMNS)[number]>;
}

type Placed = OrderOutcome & { replayed: boolean };

const orderRows = new TableRows(orders);

/** The columns an order's draft sets; the others take their defaults. */
const DRAFT_COLUMNS = [
  'userId',
  'instrumentId',
  'side',
  'status',
  'lots',
  'leverage',
  'targetPrice',
  'placedPrice',
  'openPrice',
  'stopLoss',
  'takeProfit',
  'margin',
  'fee',
  'reserved',
  'createdAt',
  'openedAt',
] as const;

const draftRows = orderRows.recordset(DRAFT_COLUMNS, {
  seq: 'int',
  idempotency_key: 'text',
  msg_key: 'text',
  memo_code: 'text',
});

/** Orders written in one statement at most; more wait for the next. */
const MAX_ORDERS_PER_TRANSACTION = 100;
/** Lock-free tries of a batch before what is left of it takes the wallet locks. */
const OPTIMISTIC_TRIES = 3;

/** Realised results of a trader's closed positions: summed in NUMERIC, exact. */
export interface TraderResults {
  userId: number;
  profit: Dec;
  margin: Dec;
  trades: number;
}

/** A trader's results over a window, with what the leaderboard shows about how they trade. */
export interface WindowResults extends TraderResults {
  /** Positions closed with a profit above 0. */
  wins: number;
  /** The leverage used most. */
  leverage: number;
  /** ShowCode of the instrument traded most. */
  code: string;
}

/**
 * Positions that were opened and then closed. Pending orders retired without a fill (cancelled,
 * margin_short, a demo reset) are history too but were never trades: they have no `opened_at`.
 */
const closedPositions = () => and(eq(orders.status, OrderStatus.history), isNotNull(orders.openedAt));

const isUniqueViolation = (error: unknown): boolean => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
};

/**
 * Orders and positions. Placing orders is optimistic and grouped (see `placeAll`); every other money
 * path is one transaction that first locks the owner's wallet row, so those changes of one account
 * serialise, and every one of them moves the wallet's version, which is what the order path checks.
 * Closes and fills are conditional updates on the order's status, so each happens at most once however
 * many callers race (manual close, the engine, a second device).
 */
export class TradingService {
  private cachedSettings: { value: TradingSettings; readAt: number } | null = null;
  /**
   * What this process last knew of each account it placed orders for, so the next batch can go
   * straight to its write: the write's version check catches any change made since (elsewhere or
   * by another path) and the batch then reads again.
   */
  private readonly knownAccounts = new LRUCache<number, KnownAccount>({ max: KNOWN_ACCOUNTS_MAX });
  private readonly placing = new GroupCommit<OrderDraft, Placed>((drafts) => this.placeBatch(drafts), {
    maxBatch: MAX_ORDERS_PER_TRANSACTION,
    concurrency: 1,
  });

  /**
   * The write of a batch, one statement: the wallets claimed at the versions read, then for the
   * claimed accounts only, the orders (ids drawn first so the fee rows and Idempotency-Keys can name
   * them), their fee rows in the ledger and the keys. Answers the orders written with their `seq`.
   * Rendered once (db/statement.ts).
   */
  private readonly writeOrdersStatement: ReturnType<typeof statement<'drafts' | 'claims' | 'ids'>>;

  constructor(private readonly deps: TradingDeps) {
    const { wallet } = deps;
    this.writeOrdersStatement = statement<'drafts' | 'claims' | 'ids'>(
      (slot) => sql`
      WITH ${wallet.claimedCte(slot('claims'), slot('ids'))},
      numbered AS (
        SELECT nextval('orders_id_seq') AS id, d.*
        FROM ${draftRows.source(slot('drafts'))}
        WHERE d.user_id IN (SELECT user_id FROM claimed)
      ),
      placed AS (
        INSERT INTO ${orders} (id, ${draftRows.columns})
        SELECT id, ${draftRows.columns} FROM numbered ORDER BY seq
        RETURNING *
      ),
      ${wallet.postedCte(sql`
        SELECT seq, user_id, 'trade_fee'::text AS type, -fee AS amount,
               jsonb_build_object('code', memo_code, 'id', id) AS memo_params, 'order'::text AS ref_type, id AS ref_id
        FROM numbered WHERE status = ${OrderStatus.holding} AND fee <> 0`)},
      keyed AS (
        INSERT INTO ${idempotencyKeys} (user_id, key, route, response)
        SELECT user_id, idempotency_key, 'submit', jsonb_build_object('orderId', id, 'msgKey', msg_key)
        FROM numbered WHERE idempotency_key IS NOT NULL
      )
      SELECT placed.*, numbered.seq FROM placed JOIN numbered USING (id)`,
    );
  }

  private get db() {
    return this.deps.db;
  }

  /** Order batches being written, and orders waiting for the next. */
  get placingState() {
    return this.placing.state;
  }

  async settings(): Promise<TradingSettings> {
    const now = this.deps.clock.now().getTime();
    if (this.cachedSettings && now - this.cachedSettings.readAt < SETTINGS_TTL_MS) return this.cachedSettings.value;
    const rows = await this.db
      .select()
      .from(settings)
      .where(inArray(settings.key, ['trade_fee_type', 'stop_out_level', 'demo_start_balance']));
    const read = (key: string, fallback: string) => rows.find((r) => r.key === key)?.value ?? fallback;
    const value = {
      feeType: Number(read('trade_fee_type', '2')),
      stopOutLevel: dec(read('stop_out_level', '50')),
      demoStartBalance: dec(read('demo_start_balance', '100000')),
    };
    this.cachedSettings = { value, readAt: now };
    return value;
  }

  instrument(id: number): InstrumentInfo {
    const instrument = this.deps.market.getInstrument(id);
    if (!instrument) throw notFound('instrument_not_found');
    return instrument;
  }

  private tradableQuote(instrument: InstrumentInfo): Quote {
    const quote = this.deps.market.getQuote(instrument.id);
    if (!quote) throw rejected('quote_unavailable');
    if (!quote.marketOpen || !this.deps.market.isOpen(instrument.id)) throw rejected('market_closed');
    return quote;
  }

  usdRate(instrument: InstrumentInfo): Dec {
    return this.deps.market.usdRate(instrument.quoteCurrency);
  }

  /** Live floating P&L (USD, unrounded) of a holding order at the current quote; 0 without a quote. */
  floatingOf(order: Pick<OrderRow, 'instrumentId' | 'side' | 'lots' | 'openPrice'>): Dec {
    const instrument = this.deps.market.getInstrument(order.instrumentId);
    const quote = this.deps.market.getQuote(order.instrumentId);
    if (!instrument || !quote || order.openPrice === null) return dec(0);
    const side = order.side as OrderSideValue;
    return profit(
      { side, lots: order.lots, contractSize: instrument.contractSize, entry: order.openPrice },
      exitPrice(side, quote),
      this.usdRate(instrument),
    );
  }

  private async holdings(tx: Executor, userId: number): Promise<HoldingSlice[]> {
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

  private exposureOfHoldings(holdings: HoldingSlice[]): Exposure {
    let floating = dec(0);
    let usedMargin = dec(0);
    for (const holding of holdings) {
      floating = floating.plus(this.floatingOf(holding));
      usedMargin = usedMargin.plus(holding.margin);
    }
    return { floating, usedMargin };
  }

  /** The account's exposure from its positions summed by the database per instrument and side. */
  private async exposure(tx: Executor, userId: number): Promise<Exposure> {
    const books = new Map<string, Book>();
    for (const row of rowsOf(await tx.execute(booksOf(sql`${userId}`)))) addRowToBooks(books, row);
    return this.exposureOfBooks(books);
  }

  private figuresFrom(balance: Dec, locked: Dec, exposure: Exposure): AccountFigures {
    return accountFigures({ balance, floating: exposure.floating, usedMargin: exposure.usedMargin, locked });
  }

  /** Account figures (spec §3) at the current quotes. */
  async figures(userId: number, tx: Executor = this.db): Promise<AccountFigures> {
    const wallet = await this.deps.wallet.get(userId, tx);
    return this.figuresFrom(wallet.balance, wallet.lockBalance, await this.exposure(tx, userId));
  }

  // ── idempotency ───────────────────────────────────────────────────────────────────────────────────

  /**
   * Runs a money call at most once per Idempotency-Key: the key and the answer are stored in the same
   * transaction as the effect, so a retry racing the first call fails on the key and gets the first
   * answer (callers look for an earlier answer before anything else). Only successes are stored: a
   * refused call changed nothing and may be retried with the same key.
   */
  private async once(
    userId: number,
    key: string | undefined,
    route: string,
    run: (tx: Executor) => Promise<OrderOutcome>,
  ): Promise<OrderOutcome & { replayed: boolean }> {
    if (!key) return { ...(await this.db.transaction(run)), replayed: false };
    try {
      const outcome = await this.db.transaction(async (tx) => {
        const result = await run(tx);
        const response: Acknowledgement = { orderId: result.order.id, msgKey: result.msgKey };
        await tx.insert(idempotencyKeys).values({ userId, key, route, response });
        return result;
      });
      return { ...outcome, replayed: false };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const replayed = await this.replay(userId, key, route);
      if (replayed) return replayed;
      throw error;
    }
  }

  /** The first answer again: the same order (as it is now) and the same confirmation. */
  private async replay(userId: number, key: string, route: string): Promise<(OrderOutcome & { replayed: true }) | null> {
    const [row] = await this.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
      .limit(1);
    if (!row) return null;
    if (row.route !== route) throw conflict('idempotency_key_reused');
    const acknowledgement = row.response as Acknowledgement;
    return { order: await this.owned(userId, acknowledgement.orderId), msgKey: acknowledgement.msgKey, replayed: true };
  }

  // ── orders ────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Opens a market position or places a pending order (spec §5 rules, DESIGN §5 model). Orders that
   * arrive together share one transaction (group commit); each is still checked against its account
   * as if it were alone after the ones before it.
   */
  async submit(userId: number, body: TSubmitOrderRequest, idempotencyKey?: string): Promise<OrderOutcome> {
    // A retry gets the first answer whatever happened since (a closed market, a spent margin).
    const earlier = idempotencyKey ? await this.replay(userId, idempotencyKey, 'submit') : null;
    if (earlier) return earlier;
    return this.placing.submit(await this.draft(userId, body, idempotencyKey));
  }

  /** Everything about an order that does not need its account: the instrument's rules, prices, margin, fee. */
  private async draft(userId: number, body: TSubmitOrderRequest, idempotencyKey: string | undefined): Promise<OrderDraft> {
    const instrument = this.instrument(body.forex_id);
    if (instrument.leverages.length === 0) throw rejected('leverage_not_configured');
    if (!instrument.leverages.includes(body.multiple)) throw invalid('leverage_not_offered');
    const lots = dec(body.cont);
    const lotProblem = lotError(lots, instrument);
    if (lotProblem) {
      throw invalid(lotProblem, {
        min: instrument.minLots.toFixed(),
        max: instrument.maxLots.toFixed(),
        step: instrument.lotStep.toFixed(),
      });
    }
    const quote = this.tradableQuote(instrument);
    const side = body.type;
    const pending = body.status === OrderStatus.pending;
    const marketEntry = entryPrice(side, quote);
    const target = pending && body.target_price ? dec(body.target_price) : null;
    const stops = {
      takeProfit: body.target_profit_price ? dec(body.target_profit_price) : null,
      stopLoss: body.stop_loss_price ? dec(body.stop_loss_price) : null,
    };
    const stopProblem = stopsError(side, target ?? exitPrice(side, quote), stops);
    if (stopProblem) throw invalid(stopProblem);
    const { feeType } = await this.settings();
    const marginUsd = marginOf({
      lots,
      contractSize: instrument.contractSize,
      marginMode: instrument.marginMode,
      price: target ?? marketEntry,
      leverage: body.multiple,
      usdRate: this.usdRate(instrument),
    });
    const margin = roundProfit(marginUsd);
    const fee = roundBalance(tradeFee({ feeType, lots, feeRate: instrument.feeRate, margin: marginUsd }));
    const reserved = pending ? roundBalance(margin.plus(fee)) : dec(0);
    const now = this.deps.clock.now();
    return {
      userId,
      idempotencyKey,
      instrument,
      side,
      pending,
      lots,
      entry: marketEntry,
      margin,
      fee,
      reserved,
      values: {
        userId,
        instrumentId: instrument.id,
        side,
        status: pending ? OrderStatus.pending : OrderStatus.holding,
        lots: lots.toFixed(),
        leverage: body.multiple,
        targetPrice: target?.toFixed() ?? null,
        placedPrice: marketEntry.toFixed(),
        openPrice: pending ? null : marketEntry.toFixed(),
        stopLoss: stops.stopLoss?.toFixed() ?? null,
        takeProfit: stops.takeProfit?.toFixed() ?? null,
        margin: margin.toFixed(6),
        fee: fee.toFixed(2),
        reserved: reserved.toFixed(2),
        createdAt: now,
        openedAt: pending ? null : now,
      },
    };
  }

  /**
   * Writes a batch of drafts and tells the engine what was placed. A statement that fails wrote
   * nothing and what earlier statements wrote stands, so only the orders still undecided are tried
   * again, each alone: one order's problem (a reused Idempotency-Key, say) is never another's.
   */
  private async placeBatch(drafts: OrderDraft[]): Promise<ItemOutcome<Placed>[]> {
    const outcomes = new Map<OrderDraft, ItemOutcome<Placed>>();
    const notices = new Map<number, PlacedNotice>();
    try {
      await this.placeAll(drafts, outcomes, notices);
    } catch (error) {
      const undecided = drafts.filter((draft) => !outcomes.has(draft));
      if (undecided.length === 1) {
        outcomes.set(undecided[0]!, await this.afterFailure(undecided[0]!, error));
      } else {
        for (const draft of undecided) outcomes.set(draft, (await this.placeBatch([draft]))[0]!);
      }
    }
    for (const [userId, placed] of notices) this.deps.bus.publish('trading.changed', { userId, placed });
    return drafts.map((draft) => outcomes.get(draft) ?? { ok: false, error: new Error('order left undecided') });
  }

  /** Never throws: the other orders of the batch may already be written and must get their answers. */
  private async afterFailure(draft: OrderDraft, error: unknown): Promise<ItemOutcome<Placed>> {
    if (draft.idempotencyKey && isUniqueViolation(error)) {
      try {
        // The same key raced this call and won: its answer is this call's answer.
        const replayed = await this.replay(draft.userId, draft.idempotencyKey, 'submit');
        if (replayed) return { ok: true, value: replayed };
      } catch (replayError) {
        return { ok: false, error: replayError };
      }
    }
    return { ok: false, error };
  }

  /**
   * Optimistic first: the accounts are taken from memory or read without a lock, and everything is
   * written in one statement that applies only to wallets still at the version checked. Accounts
   * that changed meanwhile are read again; after OPTIMISTIC_TRIES the rest are written under their
   * wallet locks, where nothing can change between the read and the write.
   */
  private async placeAll(
    drafts: OrderDraft[],
    outcomes: Map<OrderDraft, ItemOutcome<Placed>>,
    notices: Map<number, PlacedNotice>,
  ) {
    let waiting = drafts;
    for (let attempt = 0; attempt < OPTIMISTIC_TRIES && waiting.length > 0; attempt++) {
      waiting = await this.tryPlace(this.db, waiting, outcomes, notices);
    }
    if (waiting.length === 0) return;
    const rest = waiting;
    // Kept apart until the commit: a transaction that fails after the write decided nothing.
    const locked = { outcomes: new Map<OrderDraft, ItemOutcome<Placed>>(), notices: new Map<number, PlacedNotice>() };
    await this.db.transaction(async (tx) => {
      await this.deps.wallet.lockMany(tx, [...new Set(rest.map((draft) => draft.userId))]);
      if ((await this.tryPlace(tx, rest, locked.outcomes, locked.notices)).length > 0) {
        throw new Error('a locked wallet changed');
      }
    });
    for (const [draft, outcome] of locked.outcomes) outcomes.set(draft, outcome);
    for (const [userId, notice] of locked.notices) notices.set(userId, notice);
  }

  /**
   * One write, after one read of the accounts this process does not know at their current version.
   * Each draft, in arrival order, is checked against its account as the drafts before it left it;
   * the write applies per account only if its wallet is unchanged since the version checked. Decides
   * `outcomes` for the accounts it settled and returns the drafts of the others (all of an
   * account's drafts, refusals too: they were judged on a state that did not last).
   */
  private async tryPlace(
    executor: Executor,
    drafts: OrderDraft[],
    outcomes: Map<OrderDraft, ItemOutcome<Placed>>,
    notices: Map<number, PlacedNotice>,
  ): Promise<OrderDraft[]> {
    const userIds = [...new Set(drafts.map((draft) => draft.userId))];
    // Under the wallet locks (executor is a transaction) the read is fresh by definition.
    const remembered = new Map<number, KnownAccount>();
    if (executor === this.db) {
      for (const userId of userIds) {
        const known = this.knownAccounts.get(userId);
        if (known) remembered.set(userId, known);
      }
    }
    // Taken out while in use: an account whose write conflicts must be read again, not remembered.
    for (const userId of userIds) this.knownAccounts.delete(userId);
    const read = await this.readAccounts(
      executor,
      userIds.filter((userId) => !remembered.has(userId)),
    );
    const decided = new Map<OrderDraft, ItemOutcome<Placed>>();
    const refusedOnMemory = new Set<number>();
    const accepted: OrderDraft[] = [];
    // `exposure` is computed from `books` when a draft needs it: after an accepted order, only if
    // another order of the same account follows in this batch.
    const accounts = new Map<number, KnownAccount & { exposure: Exposure | null }>();
    for (const userId of userIds) {
      const known = remembered.get(userId) ?? read.get(userId);
      if (!known) throw new Error(`wallet of user ${userId} does not exist`);
      accounts.set(userId, { ...known, books: new Map(known.books), exposure: null });
    }
    for (const draft of drafts) {
      const account = accounts.get(draft.userId)!;
      account.exposure ??= this.exposureOfBooks(account.books);
      const free = freeMargin({ balance: account.balance, locked: account.lockBalance, ...account.exposure });
      const refusal = free.lt(draft.margin.plus(draft.fee))
        ? 'insufficient_margin'
        : !draft.pending && account.balance.lt(draft.fee)
          ? 'insufficient_balance'
          : null;
      if (refusal) {
        // What this process remembers may be out of date (a deposit elsewhere): only a fresh read may refuse.
        if (remembered.has(draft.userId)) refusedOnMemory.add(draft.userId);
        decided.set(draft, { ok: false, error: rejected(refusal) });
        continue;
      }
      // The next draft of this account sees this one, as it would after this one's commit.
      if (draft.pending) {
        account.lockBalance = account.lockBalance.plus(draft.reserved);
      } else {
        account.balance = account.balance.minus(draft.fee);
        addToBook(account.books, draft.instrument.id, draft.side, {
          lots: draft.lots,
          lotsTimesEntry: draft.lots.times(draft.entry),
          margin: draft.margin,
        });
        account.exposure = null;
      }
      accepted.push(draft);
    }
    const writing = accepted.filter((draft) => !refusedOnMemory.has(draft.userId));
    const claims = new Map<number, WalletClaim>();
    for (const draft of writing) {
      const account = accounts.get(draft.userId)!;
      const before = remembered.get(draft.userId) ?? read.get(draft.userId)!;
      claims.set(draft.userId, {
        userId: draft.userId,
        version: before.version,
        balanceDelta: account.balance.minus(before.balance),
        lockDelta: account.lockBalance.minus(before.lockBalance),
      });
    }
    const placed =
      writing.length > 0 ? await this.writeOrders(executor, writing, [...claims.values()]) : new Map<OrderDraft, OrderRow>();
    const settled = new Set<number>();
    for (const userId of userIds) {
      if (!refusedOnMemory.has(userId) && !claims.has(userId)) settled.add(userId);
    }
    for (const [draft, order] of placed) {
      settled.add(draft.userId);
      const msgKey = order.status === OrderStatus.pending ? 'order_placed_pending' : 'order_opened';
      decided.set(draft, { ok: true, value: { order, msgKey, replayed: false } });
    }
    for (const userId of settled) {
      const account = accounts.get(userId)!;
      const written = claims.get(userId);
      const version = written ? written.version + 1 : account.version;
      // Inside a transaction that may still roll back, nothing is remembered.
      if (executor === this.db)
        this.knownAccounts.set(userId, {
          version,
          balance: account.balance,
          lockBalance: account.lockBalance,
          books: account.books,
        });
      if (written) notices.set(userId, { version, balance: account.balance.toFixed(2), orders: [] });
    }
    for (const [draft, order] of placed) notices.get(draft.userId)?.orders.push(watchedFields(order));
    const retry: OrderDraft[] = [];
    for (const draft of drafts) {
      const outcome = decided.get(draft);
      if (settled.has(draft.userId) && outcome) outcomes.set(draft, outcome);
      else retry.push(draft);
    }
    return retry;
  }

  /**
   * Each account's wallet (with its version) and its positions summed per instrument and side, read
   * in one snapshot, so the version vouches for the positions too: every change of an account's
   * orders happens under its wallet lock, which bumps the version.
   */
  private async readAccounts(executor: Executor, userIds: number[]): Promise<Map<number, KnownAccount>> {
    const accounts = new Map<number, KnownAccount>();
    if (userIds.length === 0) return accounts;
    const rows = await this.deps.wallet.readWith(executor, userIds, booksOf(sql`w.user_id`));
    for (const row of rows) {
      const userId = Number(row.user_id);
      const account = accounts.get(userId) ?? { ...this.deps.wallet.walletAt(row), books: new Map<string, Book>() };
      accounts.set(userId, account);
      if (row.instrument_id !== null) addRowToBooks(account.books, row);
    }
    return accounts;
  }

  /** An account's books at the current quotes. */
  private exposureOfBooks(books: Map<string, Book>): Exposure {
    let floating = dec(0);
    let usedMargin = dec(0);
    for (const book of books.values()) {
      usedMargin = usedMargin.plus(book.margin);
      const instrument = this.deps.market.getInstrument(book.instrumentId);
      const quote = this.deps.market.getQuote(book.instrumentId);
      if (!instrument || !quote) continue;
      floating = floating.plus(
        bookProfit({ ...book, contractSize: instrument.contractSize }, exitPrice(book.side, quote), this.usdRate(instrument)),
      );
    }
    return { floating, usedMargin };
  }

  /** Writes a batch (`writeOrdersStatement`); returns the orders written, per draft. */
  private async writeOrders(executor: Executor, accepted: OrderDraft[], claims: WalletClaim[]) {
    const drafts = draftRows.encode(
      accepted.map((draft, seq) => ({
        values: draft.values,
        extra: {
          seq,
          idempotency_key: draft.idempotencyKey ?? null,
          msg_key: draft.pending ? 'order_placed_pending' : 'order_opened',
          memo_code: draft.instrument.showCode,
        },
      })),
    );
    const result = await executor.execute(this.writeOrdersStatement({ drafts, ...this.deps.wallet.claimValues(claims) }));
    return new Map(rowsOf(result).map((row) => [accepted[Number(row.seq)]!, orderRows.read(row)]));
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

  /** Manual close at the current closing price. */
  async close(userId: number, orderId: number, idempotencyKey?: string): Promise<OrderOutcome> {
    const earlier = idempotencyKey ? await this.replay(userId, idempotencyKey, 'close') : null;
    if (earlier) return earlier;
    const outcome = await this.once(userId, idempotencyKey, 'close', async (tx) => {
      const order = await this.owned(userId, orderId, tx);
      if (order.status !== OrderStatus.holding) throw rejected('order_not_holding');
      const instrument = this.instrument(order.instrumentId);
      const quote = this.tradableQuote(instrument);
      await this.deps.wallet.lock(tx, userId);
      const closed = await this.closeLocked(
        tx,
        order,
        instrument,
        exitPrice(order.side as OrderSideValue, quote),
        CloseReason.manual,
      );
      if (!closed) throw rejected('order_not_holding');
      return { order: closed, msgKey: 'order_closed' };
    });
    if (!outcome.replayed) this.closedNotice(userId, [orderId]);
    return outcome;
  }

  /**
   * Closes a holding order at `exit` inside a transaction that holds the owner's wallet lock: the
   * status moves 1 → 3 only if it is still 1, then the result is credited (and a negative balance
   * written off). Returns null when someone else closed it first.
   */
  private async closeLocked(
    tx: Executor,
    order: OrderRow,
    instrument: InstrumentInfo,
    exit: Dec,
    reason: CloseReasonValue,
  ): Promise<OrderRow | null> {
    const side = order.side as OrderSideValue;
    const result = roundProfit(
      profit(
        { side, lots: order.lots, contractSize: instrument.contractSize, entry: order.openPrice ?? exit },
        exit,
        this.usdRate(instrument),
      ),
    );
    const [closed] = await tx
      .update(orders)
      .set({
        status: OrderStatus.history,
        closePrice: exit.toFixed(),
        profit: result.toFixed(6),
        closeReason: reason,
        closedAt: this.deps.clock.now(),
      })
      .where(and(eq(orders.id, order.id), eq(orders.status, OrderStatus.holding)))
      .returning();
    if (!closed) return null;
    const credit = roundBalance(result);
    if (!credit.isZero()) {
      const balanceAfter = await this.deps.wallet.post(
        tx,
        {
          userId: order.userId,
          amount: credit,
          type: 'trade_profit',
          memoParams: { code: instrument.showCode, id: order.id },
          refType: 'order',
          refId: order.id,
        },
        { allowNegative: true },
      );
      if (balanceAfter.isNegative()) {
        await this.deps.wallet.post(tx, {
          userId: order.userId,
          amount: balanceAfter.negated(),
          type: 'write_off',
          memoParams: { code: instrument.showCode, id: order.id },
          refType: 'order',
          refId: order.id,
        });
      }
    }
    return closed;
  }

  /** Cancels a pending order and releases its reservation. */
  async cancel(userId: number, orderId: number): Promise<OrderRow> {
    const cancelled = await this.db.transaction(async (tx) => {
      const order = await this.owned(userId, orderId, tx);
      if (order.status !== OrderStatus.pending) throw rejected('order_not_pending');
      await this.deps.wallet.lock(tx, userId);
      const row = await this.retirePending(tx, order, CloseReason.cancelled);
      if (!row) throw rejected('order_not_pending');
      return row;
    });
    this.closedNotice(userId, [orderId]);
    return cancelled;
  }

  /** Pending → history (status 0 only) and its reservation released; wallet lock held by the caller. */
  private async retirePending(tx: Executor, order: OrderRow, reason: CloseReasonValue): Promise<OrderRow | null> {
    const [row] = await tx
      .update(orders)
      .set({ status: OrderStatus.history, closeReason: reason, closedAt: this.deps.clock.now(), reserved: '0' })
      .where(and(eq(orders.id, order.id), eq(orders.status, OrderStatus.pending)))
      .returning();
    if (!row) return null;
    if (!dec(order.reserved).isZero()) await this.deps.wallet.adjustLock(tx, order.userId, dec(order.reserved).negated());
    return row;
  }

  /** Replaces TP and SL of a holding or pending order (absent = removed), checked against the side rules. */
  async setStops(userId: number, body: TSetStopPriceRequest): Promise<OrderRow> {
    const order = await this.owned(userId, body.id);
    const side = order.side as OrderSideValue;
    let reference: Dec;
    if (order.status === OrderStatus.holding) {
      const quote = this.deps.market.getQuote(order.instrumentId);
      if (!quote) throw rejected('quote_unavailable');
      reference = exitPrice(side, quote);
    } else if (order.status === OrderStatus.pending && order.targetPrice !== null) {
      reference = dec(order.targetPrice);
    } else {
      throw rejected('order_not_open');
    }
    const stops = {
      takeProfit: body.target_profit_price ? dec(body.target_profit_price) : null,
      stopLoss: body.stop_loss_price ? dec(body.stop_loss_price) : null,
    };
    const problem = stopsError(side, reference, stops);
    if (problem) throw invalid(problem);
    const [updated] = await this.db
      .update(orders)
      .set({ takeProfit: stops.takeProfit?.toFixed() ?? null, stopLoss: stops.stopLoss?.toFixed() ?? null })
      .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
      .returning();
    // The order filled or closed between the read and the write: the client must look again.
    if (!updated) throw conflict('order_changed');
    this.changed(userId);
    return updated;
  }

  async list(userId: number, status: number, page: number) {
    const where = and(eq(orders.userId, userId), eq(orders.status, status));
    const [rows, [totals], wallet] = await Promise.all([
      this.db
        .select()
        .from(orders)
        .where(where)
        .orderBy(desc(status === OrderStatus.history ? orders.closedAt : orders.id), desc(orders.id))
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE),
      this.db
        .select({ total: count(), realised: sql<string | null>`sum(${orders.profit})` })
        .from(orders)
        .where(where),
      this.deps.wallet.get(userId),
    ]);
    let allProfits = dec(0);
    if (status === OrderStatus.holding) {
      allProfits = (await this.exposure(this.db, userId)).floating;
    } else if (status === OrderStatus.history) {
      allProfits = dec(totals?.realised ?? '0');
    }
    return { rows, total: Number(totals?.total ?? 0), allProfits, balance: wallet.balance };
  }

  // ── leaderboard ───────────────────────────────────────────────────────────────────────────────────

  /**
   * Per trader, the positions closed since `since`, highest realised profit first (ties by user id,
   * so pages do not overlap). Served by the partial index on `closed_at` of history orders.
   */
  async windowResults(since: Date, limit: number, offset: number): Promise<WindowResults[]> {
    const profitSum = sql<string>`sum(${orders.profit})`;
    const rows = await this.db
      .select({
        userId: orders.userId,
        profit: profitSum,
        margin: sql<string>`sum(${orders.margin})`,
        trades: count(),
        wins: sql<number>`count(*) filter (where ${orders.profit} > 0)`.mapWith(Number),
        // Among equally frequent values mode() takes the first in sort order: the lower leverage or instrument id.
        leverage: sql<number>`mode() within group (order by ${orders.leverage})`.mapWith(Number),
        instrumentId: sql<number>`mode() within group (order by ${orders.instrumentId})`.mapWith(Number),
      })
      .from(orders)
      .where(and(closedPositions(), gte(orders.closedAt, since)))
      .groupBy(orders.userId)
      .orderBy(desc(profitSum), orders.userId)
      .limit(limit)
      .offset(offset);
    return rows.map((row) => ({
      userId: row.userId,
      profit: dec(row.profit),
      margin: dec(row.margin),
      trades: row.trades,
      wins: row.wins,
      leverage: row.leverage,
      code: this.deps.market.getInstrument(row.instrumentId)?.showCode ?? '',
    }));
  }

  /** Every position these traders ever closed, per trader; traders without one are absent. */
  async lifetimeResults(userIds: number[]): Promise<Map<number, TraderResults>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .select({
        userId: orders.userId,
        profit: sql<string>`sum(${orders.profit})`,
        margin: sql<string>`sum(${orders.margin})`,
        trades: count(),
      })
      .from(orders)
      .where(and(closedPositions(), inArray(orders.userId, userIds)))
      .groupBy(orders.userId);
    return new Map(
      rows.map((row) => [
        row.userId,
        { userId: row.userId, profit: dec(row.profit), margin: dec(row.margin), trades: row.trades },
      ]),
    );
  }

  // ── engine actions: each its own transaction, each at most once ─────────────────────────────────

  /** Fires TP or SL if the order is still holding and `quote` really reaches its current level. */
  async closeOnTrigger(orderId: number, quote: Quote): Promise<OrderRow | null> {
    const closed = await this.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
      if (!order || order.status !== OrderStatus.holding) return null;
      const side = order.side as OrderSideValue;
      const exit = exitPrice(side, quote);
      const reason = stopReached(side, exit, { takeProfit: order.takeProfit, stopLoss: order.stopLoss });
      if (!reason) return null;
      const instrument = this.deps.market.getInstrument(order.instrumentId);
      if (!instrument) return null;
      await this.deps.wallet.lock(tx, order.userId);
      return this.closeLocked(
        tx,
        order,
        instrument,
        exit,
        reason === 'take_profit' ? CloseReason.takeProfit : CloseReason.stopLoss,
      );
    });
    if (closed) this.closedNotice(closed.userId, [closed.id]);
    return closed;
  }

  /**
   * Fills a pending order at the tick's entry price if the tick really reached its target. The
   * reservation is released and margin and fee are charged at the fill price; if the account can no
   * longer carry them the order is retired as `margin_short` instead.
   */
  async fillOnTrigger(orderId: number, quote: Quote): Promise<OrderRow | null> {
    const result = await this.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
      if (!order || order.status !== OrderStatus.pending || order.targetPrice === null) return null;
      const side = order.side as OrderSideValue;
      const fillPrice = entryPrice(side, quote);
      const direction = fillDirection(order.targetPrice, order.placedPrice ?? order.targetPrice);
      if (!pendingReached(direction, order.targetPrice, fillPrice)) return null;
      const instrument = this.deps.market.getInstrument(order.instrumentId);
      if (!instrument) return null;
      const wallet = await this.deps.wallet.lock(tx, order.userId);
      const { feeType } = await this.settings();
      const marginUsd = marginOf({
        lots: order.lots,
        contractSize: instrument.contractSize,
        marginMode: instrument.marginMode,
        price: fillPrice,
        leverage: order.leverage,
        usdRate: this.usdRate(instrument),
      });
      const margin = roundProfit(marginUsd);
      const fee = roundBalance(tradeFee({ feeType, lots: order.lots, feeRate: instrument.feeRate, margin: marginUsd }));
      const figures = this.figuresFrom(
        wallet.balance,
        wallet.lockBalance.minus(order.reserved),
        await this.exposure(tx, order.userId),
      );
      if (figures.freeMargin.lt(margin.plus(fee)) || wallet.balance.lt(fee)) {
        const retired = await this.retirePending(tx, order, CloseReason.marginShort);
        return retired ? { order: retired, filled: false } : null;
      }
      const [filled] = await tx
        .update(orders)
        .set({
          status: OrderStatus.holding,
          openPrice: fillPrice.toFixed(),
          margin: margin.toFixed(6),
          fee: fee.toFixed(2),
          reserved: '0',
          openedAt: this.deps.clock.now(),
        })
        .where(and(eq(orders.id, order.id), eq(orders.status, OrderStatus.pending)))
        .returning();
      if (!filled) return null;
      if (!dec(order.reserved).isZero()) await this.deps.wallet.adjustLock(tx, order.userId, dec(order.reserved).negated());
      if (!fee.isZero()) {
        await this.deps.wallet.post(tx, {
          userId: order.userId,
          amount: fee.negated(),
          type: 'trade_fee',
          memoParams: { code: instrument.showCode, id: order.id },
          refType: 'order',
          refId: order.id,
        });
      }
      return { order: filled, filled: true };
    });
    if (!result) return null;
    if (result.filled) this.changed(result.order.userId);
    else this.closedNotice(result.order.userId, [result.order.id]);
    return result.order;
  }

  /**
   * Stop-out: while the account's margin level is at or below the setting, closes its most losing
   * position (one transaction per position, re-checked under the wallet lock each time). Positions
   * whose market is closed cannot be closed and are skipped. Returns the ids closed.
   */
  async stopOut(userId: number): Promise<number[]> {
    const closedIds: number[] = [];
    const { stopOutLevel } = await this.settings();
    for (;;) {
      const closed = await this.db.transaction(async (tx) => {
        const wallet = await this.deps.wallet.lock(tx, userId);
        const holdings = await this.holdings(tx, userId);
        const figures = this.figuresFrom(wallet.balance, wallet.lockBalance, this.exposureOfHoldings(holdings));
        if (!isStopOut(figures.equity, figures.usedMargin, stopOutLevel)) return null;
        let worst: { holding: HoldingSlice; pnl: Dec; quote: Quote; instrument: InstrumentInfo } | null = null;
        for (const holding of holdings) {
          const instrument = this.deps.market.getInstrument(holding.instrumentId);
          const quote = this.deps.market.getQuote(holding.instrumentId);
          if (!instrument || !quote?.marketOpen) continue;
          const pnl = this.floatingOf(holding);
          if (!worst || pnl.lt(worst.pnl) || (pnl.eq(worst.pnl) && holding.id < worst.holding.id)) {
            worst = { holding, pnl, quote, instrument };
          }
        }
        if (!worst) return null;
        const [order] = await tx.select().from(orders).where(eq(orders.id, worst.holding.id)).limit(1);
        if (!order) return null;
        const exit = exitPrice(order.side as OrderSideValue, worst.quote);
        return this.closeLocked(tx, order, worst.instrument, exit, CloseReason.stopOut);
      });
      if (!closed) break;
      closedIds.push(closed.id);
    }
    if (closedIds.length > 0) this.closedNotice(userId, closedIds);
    return closedIds;
  }

  /** Demo reset: closes every position, cancels every pending order and restores the starting balance. */
  async resetDemo(userId: number, isDemo: boolean): Promise<{ balance: Dec; closed: number[] }> {
    if (!isDemo) throw rejected('demo_reset_only_demo');
    const { demoStartBalance } = await this.settings();
    const result = await this.db.transaction(async (tx) => {
      await this.deps.wallet.lock(tx, userId);
      const open = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.userId, userId), inArray(orders.status, [OrderStatus.holding, OrderStatus.pending])));
      const closed: number[] = [];
      for (const order of open) {
        if (order.status === OrderStatus.pending) {
          if (await this.retirePending(tx, order, CloseReason.demoReset)) closed.push(order.id);
          continue;
        }
        const instrument = this.instrument(order.instrumentId);
        const quote = this.deps.market.getQuote(order.instrumentId);
        // Without a quote the position closes flat: the balance is restored below either way.
        const exit = quote ? exitPrice(order.side as OrderSideValue, quote) : dec(order.openPrice ?? '0');
        if (await this.closeLocked(tx, order, instrument, exit, CloseReason.demoReset)) closed.push(order.id);
      }
      const { balance } = await this.deps.wallet.get(userId, tx);
      const topUp = demoStartBalance.minus(balance);
      let after = balance;
      if (!topUp.isZero()) {
        after = await this.deps.wallet.post(tx, { userId, amount: topUp, type: 'demo_reset' });
      }
      return { balance: after, closed };
    });
    if (result.closed.length > 0) this.closedNotice(userId, result.closed);
    else this.changed(userId);
    return result;
  }

  // ── notices ───────────────────────────────────────────────────────────────────────────────────────

  /** A change by any path but placing orders: the account's version moved, so what is remembered is stale. */
  private changed(userId: number) {
    this.knownAccounts.delete(userId);
    this.deps.bus.publish('trading.changed', { userId });
  }

  /** Closed or cancelled orders leave every device's lists at once (FOREX_CLOSED), and the engine reloads. */
  private closedNotice(userId: number, ids: number[]) {
    this.changed(userId);
    this.deps.bus.publish('realtime.user', { userId, topic: 'FOREX_CLOSED', data: ids });
  }

  /** Open orders of these accounts (of every account without `userIds`), for the engine's loads. */
  async openOrders(userIds?: number[]): Promise<OrderRow[]> {
    const open = sql`status IN (${OrderStatus.holding}, ${OrderStatus.pending})`;
    return orderRows.select(this.db, userIds ? sql`${open} AND user_id = ANY(${idArray(userIds)})` : open);
  }
}
