import { BALANCE_DECIMALS, RealNameStatus, toJsonNumber, type Dec, type ReviewUserView } from '@pipwise/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { users } from '../db/schema.js';

/** What the summary asks of the other contexts, each through its own service. */
export interface SummarySources {
  /** Trading: the account's figures at current quotes (balance, locked and equity among them). */
  trading: { figures(userId: number): Promise<{ balance: Dec; locked: Dec; equity: Dec }> };
  identity: { statuses(userIds: number[]): Promise<Map<number, number>> };
  deposits: { finishedTotals(userIds: number[]): Promise<Map<number, string>> };
  withdrawals: { completedTotals(userIds: number[]): Promise<Map<number, string>> };
}

const money = (value: Dec | string) => toJsonNumber(value, BALANCE_DECIMALS);

/**
 * The `user` block of every review-queue item. Figures come from the owning services; the user's
 * identity columns (uid, contact, registration) are read here because the accounts context offers no
 * batch lookup of them.
 */
export class UserSummaries {
  constructor(
    private readonly db: Db,
    private readonly sources: SummarySources,
  ) {}

  /** The internal id of the user with this public uid, or null. */
  async userIdOfUid(uid: number): Promise<number | null> {
    const [row] = await this.db.select({ id: users.id }).from(users).where(eq(users.uid, uid)).limit(1);
    return row?.id ?? null;
  }

  async of(userIds: number[]): Promise<Map<number, ReviewUserView>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Map();
    const [rows, kyc, deposited, withdrawn, figures] = await Promise.all([
      this.db
        .select({ id: users.id, uid: users.uid, email: users.email, phone: users.phone, createdAt: users.createdAt })
        .from(users)
        .where(inArray(users.id, ids)),
      this.sources.identity.statuses(ids),
      this.sources.deposits.finishedTotals(ids),
      this.sources.withdrawals.completedTotals(ids),
      // One page of a queue (20 items at most): one figures read per distinct user.
      Promise.all(ids.map(async (id) => [id, await this.sources.trading.figures(id)] as const)),
    ]);
    const figuresOf = new Map(figures);
    return new Map(
      rows.map((row) => {
        const account = figuresOf.get(row.id)!;
        return [
          row.id,
          {
            uid: row.uid,
            email: row.email,
            phone: row.phone,
            balance: money(account.balance),
            lock_balance: money(account.locked),
            equity: money(account.equity),
            kyc_status: kyc.get(row.id) ?? RealNameStatus.none,
            deposits_total: money(deposited.get(row.id) ?? '0'),
            withdrawals_total: money(withdrawn.get(row.id) ?? '0'),
            created_at: row.createdAt.toISOString(),
          },
        ];
      }),
    );
  }
}
