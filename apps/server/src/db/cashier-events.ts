import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from './client.js';
import { cashierEvents } from './schema.js';

/** Which records a timeline belongs to. */
export type CashierRefType = 'deposit' | 'withdrawal';

export type CashierEventRow = typeof cashierEvents.$inferSelect;

export interface CashierEvent {
  status: number;
  /** 'user', 'system' or 'operator:<name>'. */
  actor: string;
  note?: string | null;
  at: Date;
}

/**
 * Writes the step a deposit or withdrawal took, in the caller's transaction. The table's unique
 * (ref_type, ref_id, status) makes a second entry into one status fail instead of writing a second step.
 */
export async function recordCashierEvent(
  tx: Executor,
  refType: CashierRefType,
  refId: number,
  event: CashierEvent,
): Promise<CashierEventRow> {
  const [row] = await tx
    .insert(cashierEvents)
    .values({ refType, refId, status: event.status, actor: event.actor, note: event.note ?? null, createdAt: event.at })
    .returning();
  return row!;
}

/** The timelines of some records, each in the order its steps happened. */
export async function cashierTimelines(
  executor: Executor,
  refType: CashierRefType,
  refIds: number[],
): Promise<Map<number, CashierEventRow[]>> {
  const timelines = new Map<number, CashierEventRow[]>(refIds.map((id) => [id, []]));
  if (refIds.length === 0) return timelines;
  const rows = await executor
    .select()
    .from(cashierEvents)
    .where(and(eq(cashierEvents.refType, refType), inArray(cashierEvents.refId, refIds)))
    .orderBy(asc(cashierEvents.id));
  for (const row of rows) timelines.get(row.refId)?.push(row);
  return timelines;
}
