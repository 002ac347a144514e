import { toJsonNumber, type CopyActivityView } from '@pipwise/domain';
import type { copyActivity } from '../../db/schema.js';

export type ActivityRow = typeof copyActivity.$inferSelect;

const PRICE_DECIMALS = 10;
const PROFIT_DECIMALS = 2;
const LOT_DECIMALS = 4;

const orNull = <T, R>(value: T | null, map: (value: T) => R): R | null => (value === null ? null : map(value));

const numberOrNull = (value: unknown) => (value === null ? null : Number(value));
/** Text columns come as strings; NUMERIC ones as strings or, from some drivers, numbers. */
const textOrNull = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

/** An activity row as a raw statement returns it (snake_case, bigints as text). */
export function activityRowOf(row: Record<string, unknown>): ActivityRow {
  return {
    id: Number(row.id),
    copyId: Number(row.copy_id),
    kind: String(row.kind),
    providerOrderId: numberOrNull(row.provider_order_id),
    orderId: numberOrNull(row.order_id),
    code: textOrNull(row.code),
    side: numberOrNull(row.side),
    lots: textOrNull(row.lots),
    price: textOrNull(row.price),
    skipReason: textOrNull(row.skip_reason),
    stopReason: textOrNull(row.stop_reason),
    amount: textOrNull(row.amount),
    createdAt: new Date(row.created_at as string),
  };
}

export function activityView(row: ActivityRow): CopyActivityView {
  return {
    id: row.id,
    copy_id: row.copyId,
    kind: row.kind as CopyActivityView['kind'],
    code: row.code,
    side: row.side,
    lots: orNull(row.lots, (lots) => toJsonNumber(lots, LOT_DECIMALS)),
    price: orNull(row.price, (price) => toJsonNumber(price, PRICE_DECIMALS)),
    order_id: row.orderId,
    provider_order_id: row.providerOrderId,
    skip_reason: row.skipReason as CopyActivityView['skip_reason'],
    stop_reason: row.stopReason as CopyActivityView['stop_reason'],
    amount: orNull(row.amount, (amount) => toJsonNumber(amount, PROFIT_DECIMALS)),
    at: row.createdAt.getTime(),
  };
}
