import { conflict, dec, notFound, WithdrawalStatus, type WithdrawalStatusValue } from '@pipwise/domain';
import { and, count, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { cashierTimelines, recordCashierEvent, type CashierEventRow } from '../../db/cashier-events.js';
import { withdrawals, type payoutMethods, type withdrawCurrencies } from '../../db/schema.js';
import type { WithdrawalsDeps } from './deps.js';

export type CurrencyRow = typeof withdrawCurrencies.$inferSelect;
export type MethodRow = typeof payoutMethods.$inferSelect;
export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type EventRow = CashierEventRow;

export interface WithdrawalRecord {
  withdrawal: WithdrawalRow;
  timeline: EventRow[];
}

export const WITHDRAWAL_PAGE_SIZE = 20;
/** The ref_type of a withdrawal's timeline events and ledger entries. */
export const REF_TYPE = 'withdrawal';
/** The actor of the user's own cancel (an operator is 'operator:<email>'). */
export const USER_ACTOR = 'user';

/**
 * The stored withdrawal records, each read with its timeline, and the one way out of status 0 that the
 * user's cancel and the operators' decisions share.
 */
export class WithdrawalRecords {
  constructor(private readonly deps: Pick<WithdrawalsDeps, 'db' | 'clock' | 'wallet'>) {}

  /** One of the user's records with its timeline; another user's is "not found". */
  async record(userId: number, id: number): Promise<WithdrawalRecord> {
    const [row] = await this.deps.db
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.id, id), eq(withdrawals.userId, userId)))
      .limit(1);
    if (!row) throw notFound('withdrawal_not_found');
    const [record] = await this.withTimelines([row]);
    return record!;
  }

  /** One page of the records `where` selects, in `order`, and how many it selects in all. */
  async page(where: SQL | undefined, order: SQL[], page: number): Promise<{ rows: WithdrawalRecord[]; total: number }> {
    const { db } = this.deps;
    const [rows, [totals]] = await Promise.all([
      db
        .select()
        .from(withdrawals)
        .where(where)
        .orderBy(...order)
        .limit(WITHDRAWAL_PAGE_SIZE)
        .offset((page - 1) * WITHDRAWAL_PAGE_SIZE),
      db.select({ total: count() }).from(withdrawals).where(where),
    ]);
    return { rows: await this.withTimelines(rows), total: Number(totals?.total ?? 0) };
  }

  /**
   * Moves an unreviewed record to `status` and releases its lock. The UPDATE's `status = 0` is the
   * decision: a concurrent transition waits on the row and then finds nothing to change.
   */
  async transition(
    tx: Executor,
    id: number,
    status: WithdrawalStatusValue,
    actor: string,
    note: string | null,
    ownerId?: number,
    internalNote: string | null = null,
  ): Promise<WithdrawalRow> {
    const now = this.deps.clock.now();
    const owned = ownerId === undefined ? undefined : eq(withdrawals.userId, ownerId);
    const [row] = await tx
      .update(withdrawals)
      .set({ status, remark: note, internalNote, decidedBy: actor, decidedAt: now })
      .where(and(eq(withdrawals.id, id), eq(withdrawals.status, WithdrawalStatus.unreviewed), owned))
      .returning();
    if (!row) {
      const [existing] = await tx
        .select({ id: withdrawals.id })
        .from(withdrawals)
        .where(and(eq(withdrawals.id, id), owned))
        .limit(1);
      throw existing ? conflict('withdraw_already_decided') : notFound('withdrawal_not_found');
    }
    await this.deps.wallet.adjustLock(tx, row.userId, dec(row.amount).negated());
    await recordCashierEvent(tx, REF_TYPE, id, { status, actor, note, at: now });
    return row;
  }

  private async withTimelines(rows: WithdrawalRow[]): Promise<WithdrawalRecord[]> {
    const timelines = await cashierTimelines(
      this.deps.db,
      REF_TYPE,
      rows.map((row) => row.id),
    );
    return rows.map((withdrawal) => ({ withdrawal, timeline: timelines.get(withdrawal.id) ?? [] }));
  }
}
