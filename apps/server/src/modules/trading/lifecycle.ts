import {
  CloseReason,
  conflict,
  dec,
  exitPrice,
  invalid,
  OrderStatus,
  profit,
  rejected,
  roundBalance,
  roundProfit,
  stopsError,
  type CloseReasonValue,
  type Dec,
  type OrderSideValue,
  type TSetStopPriceRequest,
} from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { orders } from '../../db/schema.js';
import type { InstrumentInfo } from '../market/api.js';
import type { OrderOutcome, OrderRow, TradingCore } from './core.js';
import { requestHash, type IdempotencyKeys } from './idempotency.js';

/** A holding order to close at `exit` for `reason`. */
export interface Closing {
  order: OrderRow;
  instrument: InstrumentInfo;
  exit: Dec;
  reason: CloseReasonValue;
}

/** A close's profit (rounded to 6 places, as stored); the balance moves by it rounded to cents. */
export function closingProfit({ order, instrument, exit }: Closing, usdRate: Dec): Dec {
  return roundProfit(
    profit(
      {
        side: order.side as OrderSideValue,
        lots: order.lots,
        contractSize: instrument.contractSize,
        entry: order.openPrice ?? exit,
      },
      exit,
      usdRate,
    ),
  );
}

/**
 * What a trader does to an open order (close, cancel, TP/SL) and the two transitions the engine's
 * actions share: a close and a pending order's retirement, each under the owner's wallet lock and
 * conditional on the order's status, so each happens at most once however many callers race.
 */
export class OrderLifecycle {
  constructor(
    private readonly core: TradingCore,
    private readonly keys: IdempotencyKeys,
  ) {}

  /** Manual close at the current closing price. */
  async close(userId: number, orderId: number, idempotencyKey?: string): Promise<OrderOutcome> {
    const idempotency = idempotencyKey ? { key: idempotencyKey, request: requestHash({ id: orderId }) } : undefined;
    const earlier = idempotency ? await this.keys.replay(userId, idempotency, 'close') : null;
    if (earlier) return earlier;
    const outcome = await this.keys.once(userId, idempotency, 'close', async (tx) => {
      const order = await this.core.owned(userId, orderId, tx);
      if (order.status !== OrderStatus.holding) throw rejected('order_not_holding');
      const instrument = this.core.instrument(order.instrumentId);
      const quote = this.core.tradableQuote(instrument);
      await this.core.deps.wallet.lock(tx, userId);
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
    if (!outcome.replayed) this.core.closedNotice(userId, [orderId]);
    return outcome;
  }

  /**
   * Closes a holding order at `exit` inside a transaction that holds the owner's wallet lock: the
   * status moves 1 → 3 only if it is still 1, then the result is credited (and a negative balance
   * written off). Returns null when someone else closed it first.
   */
  async closeLocked(
    tx: Executor,
    order: OrderRow,
    instrument: InstrumentInfo,
    exit: Dec,
    reason: CloseReasonValue,
  ): Promise<OrderRow | null> {
    const result = closingProfit({ order, instrument, exit, reason }, this.core.usdRate(instrument));
    const [closed] = await tx
      .update(orders)
      .set({
        status: OrderStatus.history,
        closePrice: exit.toFixed(),
        profit: result.toFixed(6),
        closeReason: reason,
        closedAt: this.core.deps.clock.now(),
      })
      .where(and(eq(orders.id, order.id), eq(orders.status, OrderStatus.holding)))
      .returning();
    if (!closed) return null;
    const credit = roundBalance(result);
    if (!credit.isZero()) {
      const balanceAfter = await this.core.deps.wallet.post(
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
        await this.core.deps.wallet.post(tx, {
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
    const cancelled = await this.core.db.transaction(async (tx) => {
      const order = await this.core.owned(userId, orderId, tx);
      if (order.status !== OrderStatus.pending) throw rejected('order_not_pending');
      await this.core.deps.wallet.lock(tx, userId);
      const row = await this.retirePending(tx, order, CloseReason.cancelled);
      if (!row) throw rejected('order_not_pending');
      return row;
    });
    this.core.closedNotice(userId, [orderId]);
    return cancelled;
  }

  /** Pending → history (status 0 only) and its reservation released; wallet lock held by the caller. */
  async retirePending(tx: Executor, order: OrderRow, reason: CloseReasonValue): Promise<OrderRow | null> {
    const [row] = await tx
      .update(orders)
      .set({ status: OrderStatus.history, closeReason: reason, closedAt: this.core.deps.clock.now(), reserved: '0' })
      .where(and(eq(orders.id, order.id), eq(orders.status, OrderStatus.pending)))
      .returning();
    if (!row) return null;
    if (!dec(order.reserved).isZero()) await this.core.deps.wallet.adjustLock(tx, order.userId, dec(order.reserved).negated());
    return row;
  }

  /** Replaces TP and SL of a holding or pending order (absent = removed), checked against the side rules. */
  async setStops(userId: number, body: TSetStopPriceRequest): Promise<OrderRow> {
    const order = await this.core.owned(userId, body.id);
    const side = order.side as OrderSideValue;
    let reference: Dec;
    if (order.status === OrderStatus.holding) {
      const quote = this.core.deps.market.getQuote(order.instrumentId);
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
    const [updated] = await this.core.db
      .update(orders)
      .set({ takeProfit: stops.takeProfit?.toFixed() ?? null, stopLoss: stops.stopLoss?.toFixed() ?? null })
      .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
      .returning();
    // The order filled or closed between the read and the write: the client must look again.
    if (!updated) throw conflict('order_changed');
    this.core.changed(userId);
    return updated;
  }
}
