import {
  CloseReason,
  dec,
  entryPrice,
  exitPrice,
  fillDirection,
  isStopOut,
  orderCharges,
  orderRefusal,
  OrderStatus,
  pendingReached,
  roundBalance,
  stopReached,
  type CloseReasonValue,
  type Dec,
  type OrderSideValue,
} from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { idArray, rowsOf } from '../../db/rows.js';
import { orders, wallets } from '../../db/schema.js';
import type { Quote } from '../market/api.js';
import type { LedgerPosting } from '../wallet/service.js';
import { bookOf, exposureOf } from '../../positions/books.js';
import type { OrderRow, TradingCore } from './core.js';
import { closingProfit, type Closing } from './lifecycle.js';
import { FILLED, outcomeOf, type EngineOrderOutcome } from './outcomes.js';
import { orderRows } from './queries.js';

/** What the risk engine asks for; each is checked again, under its owner's wallet lock, before it acts. */
export type EngineAction =
  | { kind: 'stop_out'; userId: number }
  | { kind: 'stop_loss' | 'take_profit' | 'fill'; userId: number; orderId: number; quote: Quote };

/** What one action did: the ids it closed (or retired, for a pending order) and those it filled. */
export interface ActionResult {
  closed: number[];
  filled: number[];
}

interface Account {
  /** The wallet's version as the batch found it, before its lock. */
  from: number;
  balance: Dec;
  locked: Dec;
  /** Its open orders as they stand after the batch's earlier actions. */
  open: Map<number, OrderRow>;
}

const NOTHING: ActionResult = { closed: [], filled: [] };

/**
 * One batch of engine actions, worked out in memory from the accounts read under their wallet locks
 * and then written in a few statements whatever its size: every action sees what the ones before it
 * did (a stop-out after a stop-loss of the same account counts that close), exactly as if each had
 * been its own transaction in the same order. An action that no longer applies (the order closed or
 * changed, the level not really reached in Decimal) does nothing.
 */
export class ActionBatch {
  private readonly closes: { id: number; close_price: string; profit: string; reason: CloseReasonValue }[] = [];
  private readonly fills: { id: number; open_price: string; margin: string; fee: string }[] = [];
  private readonly retirements: { id: number; reason: CloseReasonValue }[] = [];
  private readonly postings: LedgerPosting[] = [];
  private readonly lockDeltas = new Map<number, Dec>();
  /** What each action did to its order, with the figures written: its owner's notices, after the commit. */
  readonly outcomes: EngineOrderOutcome[] = [];

  constructor(
    private readonly core: TradingCore,
    private readonly accounts: Map<number, Account>,
    private readonly terms: { feeType: number; stopOutLevel: Dec; frozen: Set<number> },
  ) {}

  /**
   * The actions' accounts, their wallets locked and what their actions need of their open orders read
   * under those locks, in the caller's transaction.
   */
  static async read(
    core: TradingCore,
    tx: Executor,
    actions: EngineAction[],
    settings: { feeType: number; stopOutLevel: Dec },
  ): Promise<ActionBatch> {
    const userIds = [...new Set(actions.map((action) => action.userId))];
    const locked = await core.deps.wallet.lockMany(tx, userIds);
    // A stop-out or a fill weighs the whole account; a take-profit or stop-loss needs only its order.
    const whole = new Set(actions.filter((action) => action.kind === 'stop_out' || action.kind === 'fill').map((a) => a.userId));
    const single = actions.flatMap((action) => (action.kind === 'stop_out' || whole.has(action.userId) ? [] : [action.orderId]));
    const open = rowsOf(
      await tx.execute(
        sql`SELECT * FROM ${orders}
            WHERE (user_id = ANY(${idArray([...whole])}) OR id = ANY(${idArray(single)}))
              AND status IN (${OrderStatus.pending}, ${OrderStatus.holding})
            ORDER BY id`,
      ),
    ).map((row) => orderRows.read(row));
    const accounts = new Map<number, Account>();
    for (const [userId, wallet] of locked)
      accounts.set(userId, { from: wallet.version - 1, balance: wallet.balance, locked: wallet.lockBalance, open: new Map() });
    for (const order of open) accounts.get(order.userId)?.open.set(order.id, order);
    const fillers = [...new Set(actions.filter((action) => action.kind === 'fill').map((action) => action.userId))];
    const frozen = await core.deps.restrictions.tradingFrozenAmong(tx, fillers);
    return new ActionBatch(core, accounts, { ...settings, frozen });
  }

  /** Works out one action against the batch's accounts as they stand. */
  apply(action: EngineAction): ActionResult {
    const account = this.accounts.get(action.userId);
    if (!account) return NOTHING;
    if (action.kind === 'stop_out') return this.stopOut(account);
    const order = account.open.get(action.orderId);
    if (!order) return NOTHING;
    return action.kind === 'fill' ? this.fill(account, order, action.quote) : this.closeReached(account, order, action.quote);
  }

  /**
   * While the account's margin level is at or below the setting, its most losing position (in USD;
   * the oldest among equals) whose market is open closes at the current quote.
   */
  private stopOut(account: Account): ActionResult {
    const closed: number[] = [];
    for (;;) {
      const holdings = [...account.open.values()].filter((order) => order.status === OrderStatus.holding);
      let worst: { order: OrderRow; pnl: Dec; exit: Dec } | null = null;
      const exposure = exposureOf(
        this.core.deps.market,
        holdings.map((order) => ({ ...bookOf(order), order })),
        (book, pnl, exit, quote) => {
          if (!quote.marketOpen) return;
          if (!worst || pnl.lt(worst.pnl) || (pnl.eq(worst.pnl) && book.order.id < worst.order.id)) {
            worst = { order: book.order, pnl, exit };
          }
        },
      );
      const figures = this.core.figuresFrom(account.balance, account.locked, exposure);
      if (!worst || !isStopOut(figures.equity, figures.usedMargin, this.terms.stopOutLevel)) return { closed, filled: [] };
      const { order, exit } = worst as { order: OrderRow; exit: Dec };
      this.close(account, { order, instrument: this.core.instrument(order.instrumentId), exit, reason: CloseReason.stopOut });
      closed.push(order.id);
    }
  }

  /** A take-profit or stop-loss, if the order is holding and `quote` really reaches its current level. */
  private closeReached(account: Account, order: OrderRow, quote: Quote): ActionResult {
    if (order.status !== OrderStatus.holding) return NOTHING;
    const side = order.side as OrderSideValue;
    const exit = exitPrice(side, quote);
    const reached = stopReached(side, exit, { takeProfit: order.takeProfit, stopLoss: order.stopLoss });
    const instrument = this.core.deps.market.getInstrument(order.instrumentId);
    if (!reached || !instrument) return NOTHING;
    const reason = reached === 'take_profit' ? CloseReason.takeProfit : CloseReason.stopLoss;
    this.close(account, { order, instrument, exit, reason });
    return { closed: [order.id], filled: [] };
  }

  /** Its profit credited, and a balance it takes below zero written off at that order (`closeLocked`'s rule). */
  private close(account: Account, closing: Closing) {
    const { order, instrument, exit, reason } = closing;
    const result = closingProfit(closing, this.core.usdRate(instrument));
    const credit = roundBalance(result);
    if (!credit.isZero()) {
      const about = { memoParams: { code: instrument.showCode, id: order.id }, refType: 'order' as const, refId: order.id };
      this.postings.push({ userId: order.userId, amount: credit, type: 'trade_profit', ...about });
      const after = account.balance.plus(credit);
      if (after.isNegative()) this.postings.push({ userId: order.userId, amount: after.negated(), type: 'write_off', ...about });
      account.balance = after.isNegative() ? dec(0) : after;
    }
    account.open.delete(order.id);
    this.closes.push({ id: order.id, close_price: exit.toFixed(), profit: result.toFixed(6), reason });
    this.tell(order, reason, exit.toFixed(), result.toFixed(6));
  }

  private tell(order: OrderRow, reason: string, price: string, profit: string | null) {
    this.outcomes.push(outcomeOf(order, reason, price, profit, this.core.deps.market));
  }

  /**
   * Fills a pending order at the tick's entry price if the tick really reached its target: the
   * reservation is released and margin and fee are charged at the fill price; if the account can no
   * longer carry them the order is retired as `margin_short` instead, and if an operator has frozen
   * the account's trading since it was placed, as `trading_frozen`.
   */
  private fill(account: Account, order: OrderRow, quote: Quote): ActionResult {
    if (order.status !== OrderStatus.pending || order.targetPrice === null) return NOTHING;
    const side = order.side as OrderSideValue;
    const fillPrice = entryPrice(side, quote);
    const direction = fillDirection(order.targetPrice, order.placedPrice ?? order.targetPrice);
    const instrument = this.core.deps.market.getInstrument(order.instrumentId);
    if (!pendingReached(direction, order.targetPrice, fillPrice) || !instrument) return NOTHING;
    if (this.terms.frozen.has(order.userId)) return this.retire(account, order, CloseReason.tradingFrozen);
    const charges = orderCharges({
      ...this.core.chargeTerms(instrument, this.terms.feeType),
      lots: order.lots,
      price: fillPrice,
      leverage: order.leverage,
    });
    const holdings = [...account.open.values()].filter((open) => open.status === OrderStatus.holding).map(bookOf);
    const reserved = roundBalance(order.reserved);
    const figures = this.core.figuresFrom(
      account.balance,
      account.locked.minus(reserved),
      exposureOf(this.core.deps.market, holdings),
    );
    // The order opens now: it pays its fee, as a market order would (its reservation is released).
    if (orderRefusal({ freeMargin: figures.freeMargin, balance: account.balance, charges, pending: false })) {
      return this.retire(account, order, CloseReason.marginShort);
    }
    const margin = charges.margin.toFixed(6);
    const fee = charges.fee.toFixed(2);
    this.release(account, order.userId, reserved);
    account.open.set(order.id, {
      ...order,
      status: OrderStatus.holding,
      openPrice: fillPrice.toFixed(),
      margin,
      fee,
      reserved: '0',
    });
    if (!charges.fee.isZero()) {
      const debit = roundBalance(charges.fee).negated();
      this.postings.push({
        userId: order.userId,
        amount: debit,
        type: 'trade_fee',
        memoParams: { code: instrument.showCode, id: order.id },
        refType: 'order',
        refId: order.id,
      });
      account.balance = account.balance.plus(debit);
    }
    this.fills.push({ id: order.id, open_price: fillPrice.toFixed(), margin, fee });
    this.tell(order, FILLED, fillPrice.toFixed(), null);
    return { closed: [], filled: [order.id] };
  }

  /** Pending → history and its reservation released. */
  private retire(account: Account, order: OrderRow, reason: CloseReasonValue): ActionResult {
    this.release(account, order.userId, roundBalance(order.reserved));
    account.open.delete(order.id);
    this.retirements.push({ id: order.id, reason });
    this.tell(order, reason, order.targetPrice ?? '0', null);
    return { closed: [order.id], filled: [] };
  }

  private release(account: Account, userId: number, reserved: Dec) {
    if (reserved.isZero()) return;
    account.locked = account.locked.minus(reserved);
    this.lockDeltas.set(userId, (this.lockDeltas.get(userId) ?? dec(0)).minus(reserved));
  }

  /**
   * Writes what the batch worked out, a statement per kind of change. Fills go first: a position
   * filled in this batch may also be closed in it (a stop-out after the fill). Under the owners'
   * locks no order can have moved since it was read, so a row that does not match fails the batch.
   */
  async write(tx: Executor) {
    const now = this.core.deps.clock.now().toISOString();
    const updated = async (values: object[], statement: (json: string) => ReturnType<typeof sql>) => {
      if (values.length === 0) return;
      const rows = rowsOf(await tx.execute(statement(JSON.stringify(values))));
      if (rows.length !== values.length) throw new Error('engine actions: an order changed under its owner’s lock');
    };
    await updated(
      this.fills,
      (json) => sql`
        UPDATE ${orders} o
        SET status = ${OrderStatus.holding}, open_price = v.open_price, margin = v.margin, fee = v.fee, reserved = 0,
            opened_at = ${now}::timestamptz
        FROM jsonb_to_recordset(${json}::jsonb) AS v(id bigint, open_price numeric, margin numeric, fee numeric)
        WHERE o.id = v.id AND o.status = ${OrderStatus.pending}
        RETURNING o.id`,
    );
    await updated(
      this.retirements,
      (json) => sql`
        UPDATE ${orders} o
        SET status = ${OrderStatus.history}, close_reason = v.reason, closed_at = ${now}::timestamptz, reserved = 0
        FROM jsonb_to_recordset(${json}::jsonb) AS v(id bigint, reason text)
        WHERE o.id = v.id AND o.status = ${OrderStatus.pending}
        RETURNING o.id`,
    );
    await updated(
      this.closes,
      (json) => sql`
        UPDATE ${orders} o
        SET status = ${OrderStatus.history}, close_price = v.close_price, profit = v.profit, close_reason = v.reason,
            closed_at = ${now}::timestamptz
        FROM jsonb_to_recordset(${json}::jsonb) AS v(id bigint, close_price numeric, profit numeric, reason text)
        WHERE o.id = v.id AND o.status = ${OrderStatus.holding}
        RETURNING o.id`,
    );
    await this.core.deps.wallet.adjustLocks(tx, this.lockDeltas);
    await this.core.deps.wallet.postMany(tx, this.postings);
  }

  /** Each account's wallet as the batch leaves it (read at its end, under the locks): the engine's notices. */
  async walletsAfter(tx: Executor): Promise<Map<number, { from: number; version: number; balance: string }>> {
    const userIds = [...this.accounts.keys()];
    const rows = rowsOf(
      await tx.execute(sql`SELECT user_id, balance, version FROM ${wallets} WHERE user_id = ANY(${idArray(userIds)})`),
    );
    return new Map(
      rows.map((row) => {
        const userId = Number(row.user_id);
        return [userId, { from: this.accounts.get(userId)!.from, version: Number(row.version), balance: row.balance as string }];
      }),
    );
  }
}
