import {
  chargePrice,
  dec,
  entryPrice,
  exitPrice,
  freeMargin,
  invalid,
  lotError,
  notFound,
  orderCharges,
  orderRefusal,
  OrderStatus,
  pendingReservation,
  rejected,
  stopsError,
  type Dec,
  type OrderSideValue,
  type TSubmitOrderRequest,
} from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { GroupCommit, type ItemOutcome } from '../../db/group-commit.js';
import { rowsOf } from '../../db/rows.js';
import { statement } from '../../db/statement.js';
import { idempotencyKeys, orders } from '../../db/schema.js';
import type { InstrumentInfo } from '../market/api.js';
import type { WalletClaim } from '../wallet/service.js';
import { addRowToBooks, addToBook, booksOf, exposureOf, type Book, type Exposure } from '../../positions/books.js';
import type { KnownAccount, OrderOutcome, OrderRow, PlacedNotice, TradingCore, WatchedFields } from './core.js';
import { isUniqueViolation, requestHash, type IdempotencyKeys } from './idempotency.js';
import { orderRows } from './queries.js';

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

/** An order checked against everything but its account, priced, waiting for its transaction. */
interface OrderDraft {
  userId: number;
  idempotencyKey: string | undefined;
  /** `requestHash` of the request, stored with its Idempotency-Key. */
  request: string;
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
  request_hash: 'text',
  msg_key: 'text',
  memo_code: 'text',
});

/** Orders written in one statement at most; more wait for the next. */
const MAX_ORDERS_PER_TRANSACTION = 100;
/** Orders a bulk statement writes at most (see `bulkPlacing`). */
const BULK_ORDERS_PER_TRANSACTION = 500;
/** Lock-free tries of a batch before what is left of it takes the wallet locks. */
const OPTIMISTIC_TRIES = 3;

/**
 * Placing orders (docs/api.md rules): optimistic and grouped. Orders that arrive together share one
 * statement (group commit); each is still checked against its account as if it were alone after the
 * ones before it.
 */
export class OrderPlacement {
  private readonly placing = new GroupCommit<OrderDraft, Placed>((drafts) => this.placeBatch(drafts), {
    maxBatch: MAX_ORDERS_PER_TRANSACTION,
    concurrency: 1,
  });
  /**
   * Orders placed for many accounts at once (a provider's fill copied to its followers): statements of
   * up to BULK_ORDERS_PER_TRANSACTION, two in flight, beside the grouped path so a trader's own order
   * never waits behind them. Every write still claims its wallets at the version read, so two statements
   * touching one account cannot both apply; the one that loses reads again.
   */
  private readonly bulkPlacing = new GroupCommit<OrderDraft, Placed>((drafts) => this.placeBatch(drafts), {
    maxBatch: BULK_ORDERS_PER_TRANSACTION,
    concurrency: 2,
  });

  /**
   * The write of a batch, one statement: the wallets claimed at the versions read, then for the
   * claimed accounts only, the orders (ids drawn first so the fee rows and Idempotency-Keys can name
   * them), their fee rows in the ledger and the keys. Answers the orders written with their `seq`.
   * Rendered once (db/statement.ts).
   */
  private readonly writeOrdersStatement: ReturnType<typeof statement<'drafts' | 'claims' | 'ids'>>;

  constructor(
    private readonly core: TradingCore,
    private readonly keys: IdempotencyKeys,
  ) {
    const { wallet } = core.deps;
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
        SELECT user_id, idempotency_key, 'submit', jsonb_build_object('refId', id, 'msgKey', msg_key, 'request', request_hash)
        FROM numbered WHERE idempotency_key IS NOT NULL
      )
      SELECT placed.*, numbered.seq FROM placed JOIN numbered USING (id)`,
    );
  }

  /** Order batches being written, and orders waiting for the next. */
  get placingState() {
    return this.placing.state;
  }

  /**
   * Opens a market position or places a pending order (docs/api.md rules; the model in docs/architecture.md). Orders that
   * arrive together share one transaction (group commit); each is still checked against its account
   * as if it were alone after the ones before it.
   */
  async submit(
    userId: number,
    body: TSubmitOrderRequest,
    idempotencyKey?: string,
    options: { keyUnused?: boolean; bulk?: boolean } = {},
  ): Promise<OrderOutcome> {
    const request = requestHash(body);
    // A retry gets the first answer whatever happened since (a closed market, a spent margin).
    const earlier =
      idempotencyKey && !options.keyUnused ? await this.keys.replay(userId, { key: idempotencyKey, request }, 'submit') : null;
    if (earlier) return earlier;
    await this.core.deps.restrictions.refuseFrozenTrading(userId);
    await this.core.deps.disclosure.refuseUntilAccepted(userId);
    const queue = options.bulk ? this.bulkPlacing : this.placing;
    return queue.submit(await this.draft(userId, body, idempotencyKey, request));
  }

  /** Everything about an order that does not need its account: the instrument's rules, prices, margin, fee. */
  private async draft(
    userId: number,
    body: TSubmitOrderRequest,
    idempotencyKey: string | undefined,
    request: string,
  ): Promise<OrderDraft> {
    const instrument = this.core.instrument(body.forex_id);
    // A disabled instrument takes no new orders; its open positions still close through core.instrument.
    if (!instrument.enabled) throw notFound('instrument_not_found');
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
    const quote = this.core.tradableQuote(instrument);
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
    const { feeType } = await this.core.settings();
    const charges = orderCharges({
      ...this.core.chargeTerms(instrument, feeType),
      lots,
      price: chargePrice(side, quote, target),
      leverage: body.multiple,
    });
    const { margin, fee } = charges;
    const reserved = pending ? pendingReservation(charges) : dec(0);
    const now = this.core.deps.clock.now();
    return {
      userId,
      idempotencyKey,
      request,
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
    for (const [userId, placed] of notices) this.core.deps.bus.publish('trading.changed', { userId, placed });
    return drafts.map((draft) => outcomes.get(draft) ?? { ok: false, error: new Error('order left undecided') });
  }

  /** Never throws: the other orders of the batch may already be written and must get their answers. */
  private async afterFailure(draft: OrderDraft, error: unknown): Promise<ItemOutcome<Placed>> {
    if (draft.idempotencyKey && isUniqueViolation(error)) {
      try {
        // The same key raced this call and won: its answer is this call's answer.
        const replayed = await this.keys.replay(draft.userId, { key: draft.idempotencyKey, request: draft.request }, 'submit');
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
      waiting = await this.tryPlace(this.core.db, waiting, outcomes, notices);
    }
    if (waiting.length === 0) return;
    const rest = waiting;
    // Kept apart until the commit: a transaction that fails after the write decided nothing.
    const locked = { outcomes: new Map<OrderDraft, ItemOutcome<Placed>>(), notices: new Map<number, PlacedNotice>() };
    await this.core.db.transaction(async (tx) => {
      await this.core.deps.wallet.lockMany(tx, [...new Set(rest.map((draft) => draft.userId))]);
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
    if (executor === this.core.db) {
      for (const userId of userIds) {
        const known = this.core.knownAccounts.get(userId);
        if (known) remembered.set(userId, known);
      }
    }
    // Taken out while in use: an account whose write conflicts must be read again, not remembered.
    for (const userId of userIds) this.core.knownAccounts.delete(userId);
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
      account.exposure ??= exposureOf(this.core.deps.market, account.books.values());
      const refusal = orderRefusal({
        freeMargin: freeMargin({ balance: account.balance, locked: account.lockBalance, ...account.exposure }),
        balance: account.balance,
        charges: draft,
        pending: draft.pending,
      });
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
      if (executor === this.core.db)
        this.core.knownAccounts.set(userId, {
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
    const rows = await this.core.deps.wallet.readWith(executor, userIds, booksOf(sql`w.user_id`));
    for (const row of rows) {
      const userId = Number(row.user_id);
      const account = accounts.get(userId) ?? { ...this.core.deps.wallet.walletAt(row), books: new Map<string, Book>() };
      accounts.set(userId, account);
      if (row.instrument_id !== null) addRowToBooks(account.books, row);
    }
    return accounts;
  }

  /** Writes a batch (`writeOrdersStatement`); returns the orders written, per draft. */
  private async writeOrders(executor: Executor, accepted: OrderDraft[], claims: WalletClaim[]) {
    const drafts = draftRows.encode(
      accepted.map((draft, seq) => ({
        values: draft.values,
        extra: {
          seq,
          idempotency_key: draft.idempotencyKey ?? null,
          request_hash: draft.request,
          msg_key: draft.pending ? 'order_placed_pending' : 'order_opened',
          memo_code: draft.instrument.showCode,
        },
      })),
    );
    const result = await executor.execute(this.writeOrdersStatement({ drafts, ...this.core.deps.wallet.claimValues(claims) }));
    return new Map(rowsOf(result).map((row) => [accepted[Number(row.seq)]!, orderRows.read(row)]));
  }
}
