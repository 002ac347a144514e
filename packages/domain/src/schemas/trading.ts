import { z } from 'zod';
import { OrderStatus, type CloseReasonValue } from '../trading.js';
import { inputOrDefault, intFromInput, optionalInput, pageQuery, positiveDecimal, positiveIntId } from './common.js';

/** Lots carry at most 4 decimals (the orders.lots column); prices at most 10 (the price columns). */
export const LOTS_DECIMALS = 4;
export const PRICE_DECIMALS = 10;
const MAX_LOTS_INPUT = '1000000';
const MAX_PRICE_INPUT = '1000000000000';

/**
 * Take profit / stop loss / target: absent, empty, null or zero means "not set" (the form's inputs have
 * a minimum of 0 and the toggles send 0 when off); anything else must be a positive price.
 */
const optionalPrice = (messageKey: string) =>
  z.preprocess(
    (value) => (value === undefined || value === null || value === '' || value === 0 || value === '0' ? undefined : value),
    positiveDecimal(messageKey, PRICE_DECIMALS, MAX_PRICE_INPUT).optional(),
  );

const side = intFromInput('side_invalid').pipe(z.union([z.literal(1), z.literal(2)], { error: 'side_invalid' }));

export const ZLots = positiveDecimal('lots_invalid', LOTS_DECIMALS, MAX_LOTS_INPUT);

/** POST /v1/api/forex/submit (docs/api.md). type 1 buy / 2 sell; status 1 market / 0 pending; multiple = leverage. */
export const ZSubmitOrderRequest = z
  .object({
    type: side,
    cont: z.preprocess((value) => (value === undefined || value === '' ? undefined : value), ZLots),
    forex_id: positiveIntId('instrument_invalid'),
    status: intFromInput('order_kind_invalid').pipe(
      z.union([z.literal(OrderStatus.holding), z.literal(OrderStatus.pending)], { error: 'order_kind_invalid' }),
    ),
    target_price: optionalPrice('target_price_invalid'),
    stop_loss_price: optionalPrice('stop_loss_invalid'),
    target_profit_price: optionalPrice('take_profit_invalid'),
    multiple: positiveIntId('leverage_invalid', (number) => number.max(100_000, { error: 'leverage_invalid' })),
  })
  .superRefine((body, context) => {
    if (body.status === OrderStatus.pending && body.target_price === undefined) {
      context.addIssue({ code: 'custom', message: 'target_price_required', path: ['target_price'] });
    }
  });
export type TSubmitOrderRequest = z.infer<typeof ZSubmitOrderRequest>;

/** close, cancel_trade: the order id. */
export const ZOrderIdRequest = z.object({ id: positiveIntId('order_id_invalid') });
export type TOrderIdRequest = z.infer<typeof ZOrderIdRequest>;

/** set_stop_price: both levels are replaced; a missing or zero level removes it. */
export const ZSetStopPriceRequest = z.object({
  id: positiveIntId('order_id_invalid'),
  target_profit_price: optionalPrice('take_profit_invalid'),
  stop_loss_price: optionalPrice('stop_loss_invalid'),
});
export type TSetStopPriceRequest = z.infer<typeof ZSetStopPriceRequest>;

/**
 * my_deal: status 1 holding, 0 pending, 3 history. `cursor` (the id of the last order received) asks
 * for the orders after it: rows leave and join the lists all the time, which shifts pages counted by
 * offset (a row skipped or shown twice) but not the rows after a given one. Without it, `page`.
 */
export const ZMyDealQuery = pageQuery.extend({
  cursor: optionalInput(positiveIntId('page_invalid')),
  status: inputOrDefault(
    intFromInput('order_status_invalid').pipe(
      z.union([z.literal(OrderStatus.holding), z.literal(OrderStatus.pending), z.literal(OrderStatus.history)], {
        error: 'order_status_invalid',
      }),
    ),
    OrderStatus.holding,
  ),
});
export type TMyDealQuery = z.infer<typeof ZMyDealQuery>;

/** Optional Idempotency-Key header of money-moving calls. */
export const ZIdempotencyKey = z
  .string({ error: 'idempotency_key_invalid' })
  .regex(/^[\w.:-]{1,128}$/, { error: 'idempotency_key_invalid' });

/** The order as the client reads it (docs/api.md). */
export interface OrderView {
  Id: number;
  /** 1 buy, 2 sell. */
  OrderType: number;
  /** Lots. */
  Quantity: number;
  /** Market price (entry side) when the order was placed. */
  OriginPrice: number;
  /** Opening price once filled; the target price while pending. */
  Price: number;
  /**
   * Holding: the live closing price; history: the closing price; pending: the live entry price. Null
   * for an order retired without a fill (cancelled, margin short, demo reset), as are its P&L and fee:
   * it never had an exit, a result or a charge.
   */
  UpdatePrice: number | null;
  /** Holding: live floating P&L; history: realised P&L (null if never filled); pending: 0. */
  FactProfits: number | null;
  CautionMoney: number;
  /** The fee charged at the fill; a pending order's is the estimate its reservation holds. */
  TradeFee: number | null;
  TargetLossPrice: number;
  TargetProfitPrice: number;
  /** Pending target price (0 for market orders). */
  TargetPrice: number;
  Multiple: number;
  /** Local date-time text in the request's language. */
  CreateTimeHandler: string;
  CreatedAt: string;
  /** When the position opened: the fill, which for a pending order comes after it was placed; null before it. */
  OpenedAt: string | null;
  ClosedAt: string | null;
  ForexId: number;
  ForexTradeLists: { Id: number; ShowCode: string; Code: string; PricePrecision: number };
  Status: number;
  /** Why it reached history (manual, take_profit, stop_loss, stop_out, …); null while open. */
  CloseReason: CloseReasonValue | null;
  CloseReasonTran: string;
}
