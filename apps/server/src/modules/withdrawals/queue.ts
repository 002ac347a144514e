import { WithdrawalStatus, type WithdrawalStatusValue } from '@pipwise/domain';
import { and, asc, eq, inArray, sum } from 'drizzle-orm';
import { withdrawals } from '../../db/schema.js';
import type { WithdrawalsDeps } from './deps.js';
import type { WithdrawalRecord, WithdrawalRecords } from './records.js';

/** What the review desk reads of withdrawals: the operators' queue, whether an item exists, each user's payouts. */
export class WithdrawalQueue {
  constructor(
    private readonly deps: Pick<WithdrawalsDeps, 'db'>,
    private readonly records: WithdrawalRecords,
  ) {}

  /** Records in a status (of every user or one), oldest first (the longest waiting are decided first). */
  page(status: WithdrawalStatusValue, page: number, userId?: number): Promise<{ rows: WithdrawalRecord[]; total: number }> {
    const where = and(eq(withdrawals.status, status), userId === undefined ? undefined : eq(withdrawals.userId, userId));
    return this.records.page(where, [asc(withdrawals.createdAt), asc(withdrawals.id)], page);
  }

  async exists(id: number): Promise<boolean> {
    const [row] = await this.deps.db.select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.id, id)).limit(1);
    return row !== undefined;
  }

  /** What each user has had paid out by completed withdrawals, fee included (users without any are absent). */
  async completedTotals(userIds: number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.deps.db
      .select({ userId: withdrawals.userId, total: sum(withdrawals.amount) })
      .from(withdrawals)
      .where(and(inArray(withdrawals.userId, userIds), eq(withdrawals.status, WithdrawalStatus.completed)))
      .groupBy(withdrawals.userId);
    return new Map(rows.map((row) => [row.userId, row.total ?? '0']));
  }
}
