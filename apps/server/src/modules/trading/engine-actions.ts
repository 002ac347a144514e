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
  rejected,
  stopReached,
  type Dec,
  type OrderSideValue,
} from '@pipwise/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { GroupCommit, type ItemOutcome } from '../../db/group-commit.js';
import { orders } from '../../db/schema.js';
import type { Quote } from '../market/api.js';
import { bookOf, exposureOf } from '../../positions/books.js';
import type { OrderRow, TradingCore } from './core.js';
import type { Closing, OrderLifecycle } from './lifecycle.js';

/** Take-profits and stop-losses closed in one transaction at most; more wait for the next. */
const MAX_TRIGGERS_PER_TRANSACTION = 200;

interface TriggeredClose {
  orderId: number;
  quote: Quote;
}

/**
 * What the risk engine asks for, each at most once. Take-profits and stop-losses that fire together
 * (a flash move) are closed in batches, one transaction and a few statements each, in the order they
 * fired; the rest is one transaction an action.
 */
export class EngineActions {
  private readonly triggered = new GroupCommit<TriggeredClose, OrderRow | null>((items) => this.closeTriggered(items), {
    maxBatch: MAX_TRIGGERS_PER_TRANSACTION,
    concurrency: 1,
  });

  constructor(
    private readonly core: TradingCore,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  /** Fires TP or SL if the order is still holding and `quote` really reaches its current level. */
  closeOnTrigger(orderId: number, quote: Quote): Promise<OrderRow | null> {
    return this.triggered.submit({ orderId, quote });
  }

  /**
   * One batch of triggered closes: the owners' wallets locked (in user order, as every batch takes
   * them), the orders read under those locks (an order changes only under its owner's), each checked
   * against its quote, and those still reached closed together (`closeManyLocked`). Notices follow the
   * commit. A batch that fails fails every close in it; the engine then reads those accounts again.
   */
  private async closeTriggered(items: TriggeredClose[]): Promise<ItemOutcome<OrderRow | null>[]> {
    const ids = items.map((item) => item.orderId);
    const closed = await this.core.db.transaction(async (tx) => {
      const owners = await tx.selectDistinct({ userId: orders.userId }).from(orders).where(inArray(orders.id, ids));
      const wallets = await this.core.deps.wallet.lockMany(
        tx,
        owners.map((owner) => owner.userId),
      );
      const rows = new Map((await tx.select().from(orders).where(inArray(orders.id, ids))).map((row) => [row.id, row]));
      // A level put back by a reload while its close still waited can fire again: each order closes once.
      const closings = new Map<number, Closing>();
      for (const item of items) {
        const closing = closings.has(item.orderId) ? null : this.reached(rows.get(item.orderId), item.quote);
        if (closing) closings.set(item.orderId, closing);
      }
      return new Map((await this.lifecycle.closeManyLocked(tx, [...closings.values()], wallets)).map((row) => [row.id, row]));
    });
    const closedByUser = new Map<number, number[]>();
    for (const row of closed.values()) closedByUser.set(row.userId, [...(closedByUser.get(row.userId) ?? []), row.id]);
    for (const [userId, orderIds] of closedByUser) this.core.closedNotice(userId, orderIds);
    const answered = new Set<number>();
    return items.map((item) => {
      const row = answered.has(item.orderId) ? undefined : closed.get(item.orderId);
      answered.add(item.orderId);
      return { ok: true, value: row ?? null };
    });
  }

  /** The close of a holding order whose current TP or SL `quote` really reaches, or null. */
  private reached(order: OrderRow | undefined, quote: Quote): Closing | null {
    if (!order || order.status !== OrderStatus.holding) return null;
    const side = order.side as OrderSideValue;
    const exit = exitPrice(side, quote);
    const reason = stopReached(side, exit, { takeProfit: order.takeProfit, stopLoss: order.stopLoss });
    if (!reason) return null;
    const instrument = this.core.deps.market.getInstrument(order.instrumentId);
    if (!instrument) return null;
    return { order, instrument, exit, reason: reason === 'take_profit' ? CloseReason.takeProfit : CloseReason.stopLoss };
  }

  /**
   * Fills a pending order at the tick's entry price if the tick really reached its target. The
   * reservation is released and margin and fee are charged at the fill price; if the account can no
   * longer carry them the order is retired as `margin_short` instead, and if an operator has frozen
   * the account's trading since it was placed, as `trading_frozen`.
   */
  async fillOnTrigger(orderId: number, quote: Quote): Promise<OrderRow | null> {
    // Read before the transaction: after a settings change this reads the database, and a read outside
    // an open transaction waits for it on a single connection (PGlite), so inside it would never return.
    const { feeType } = await this.core.settings();
    const result = await this.core.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
      if (!order || order.status !== OrderStatus.pending || order.targetPrice === null) return null;
      const side = order.side as OrderSideValue;
      const fillPrice = entryPrice(side, quote);
      const direction = fillDirection(order.targetPrice, order.placedPrice ?? order.targetPrice);
      if (!pendingReached(direction, order.targetPrice, fillPrice)) return null;
      const instrument = this.core.deps.market.getInstrument(order.instrumentId);
      if (!instrument) return null;
      const wallet = await this.core.deps.wallet.lock(tx, order.userId);
      if (await this.core.deps.restrictions.tradingFrozenIn(tx, order.userId)) {
        const retired = await this.lifecycle.retirePending(tx, order, CloseReason.tradingFrozen);
        return retired ? { order: retired, filled: false } : null;
      }
      const charges = orderCharges({
        ...this.core.chargeTerms(instrument, feeType),
        lots: order.lots,
        price: fillPrice,
        leverage: order.leverage,
      });
      const { margin, fee } = charges;
      const figures = this.core.figuresFrom(
        wallet.balance,
        wallet.lockBalance.minus(order.reserved),
        await this.core.exposure(tx, order.userId),
      );
      // The order opens now: it pays its fee, as a market order would (its reservation is released).
      if (orderRefusal({ freeMargin: figures.freeMargin, balance: wallet.balance, charges, pending: false })) {
        const retired = await this.lifecycle.retirePending(tx, order, CloseReason.marginShort);
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
          openedAt: this.core.deps.clock.now(),
        })
        .where(and(eq(orders.id, order.id), eq(orders.status, OrderStatus.pending)))
        .returning();
      if (!filled) return null;
      if (!dec(order.reserved).isZero()) await this.core.deps.wallet.adjustLock(tx, order.userId, dec(order.reserved).negated());
      if (!fee.isZero()) {
        await this.core.deps.wallet.post(tx, {
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
    if (result.filled) this.core.filledNotice(result.order.userId, [result.order.id]);
    else this.core.closedNotice(result.order.userId, [result.order.id]);
    return result.order;
  }

  /**
   * Stop-out: while the account's margin level is at or below the setting, closes its most losing
   * position (one transaction per position, re-checked under the wallet lock each time). Positions
   * whose market is closed cannot be closed and are skipped. Returns the ids closed.
   */
  async stopOut(userId: number): Promise<number[]> {
    const closedIds: number[] = [];
    const { stopOutLevel } = await this.core.settings();
    for (;;) {
      const closed = await this.core.db.transaction(async (tx) => {
        const wallet = await this.core.deps.wallet.lock(tx, userId);
        const holdings = await this.core.holdings(tx, userId);
        // The most losing position whose market is open (the lowest id among equals).
        let worst: { id: number; pnl: Dec; exit: Dec } | null = null;
        const exposure = exposureOf(
          this.core.deps.market,
          holdings.map((holding) => ({ ...bookOf(holding), id: holding.id })),
          (position, pnl, exit, quote) => {
            if (!quote.marketOpen) return;
            if (!worst || pnl.lt(worst.pnl) || (pnl.eq(worst.pnl) && position.id < worst.id)) {
              worst = { id: position.id, pnl, exit };
            }
          },
        );
        const figures = this.core.figuresFrom(wallet.balance, wallet.lockBalance, exposure);
        if (!isStopOut(figures.equity, figures.usedMargin, stopOutLevel) || !worst) return null;
        const { id, exit } = worst as { id: number; exit: Dec };
        const [order] = await tx.select().from(orders).where(eq(orders.id, id)).limit(1);
        if (!order) return null;
        return this.lifecycle.closeLocked(tx, order, this.core.instrument(order.instrumentId), exit, CloseReason.stopOut);
      });
      if (!closed) break;
      closedIds.push(closed.id);
    }
    if (closedIds.length > 0) this.core.closedNotice(userId, closedIds);
    return closedIds;
  }

  /** Demo reset: closes every position, cancels every pending order and restores the starting balance. */
  async resetDemo(userId: number, isDemo: boolean): Promise<{ balance: Dec; closed: number[] }> {
    if (!isDemo) throw rejected('demo_reset_only_demo');
    const { demoStartBalance } = await this.core.settings();
    const result = await this.core.db.transaction(async (tx) => {
      await this.core.deps.wallet.lock(tx, userId);
      const open = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.userId, userId), inArray(orders.status, [OrderStatus.holding, OrderStatus.pending])));
      const closed: number[] = [];
      for (const order of open) {
        if (order.status === OrderStatus.pending) {
          if (await this.lifecycle.retirePending(tx, order, CloseReason.demoReset)) closed.push(order.id);
          continue;
        }
        const instrument = this.core.instrument(order.instrumentId);
        const quote = this.core.deps.market.getQuote(order.instrumentId);
        // Without a quote the position closes flat: the balance is restored below either way.
        const exit = quote ? exitPrice(order.side as OrderSideValue, quote) : dec(order.openPrice ?? '0');
        if (await this.lifecycle.closeLocked(tx, order, instrument, exit, CloseReason.demoReset)) closed.push(order.id);
      }
      const { balance } = await this.core.deps.wallet.get(userId, tx);
      const topUp = demoStartBalance.minus(balance);
      let after = balance;
      if (!topUp.isZero()) {
        after = await this.core.deps.wallet.post(tx, { userId, amount: topUp, type: 'demo_reset' });
      }
      return { balance: after, closed };
    });
    if (result.closed.length > 0) this.core.closedNotice(userId, result.closed);
    else this.core.changed(userId);
    return result;
  }
}
