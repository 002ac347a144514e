import { feeSettlement, feeSettlementDue, SocketTopic } from '@pipwise/domain';
import { eq, sql } from 'drizzle-orm';
import { announceWalletChange } from '../../cashier/notices.js';
import { rowsOf } from '../../db/rows.js';
import { copies, copyActivity, copyProviders } from '../../db/schema.js';
import type { CopyCore } from './core.js';
import { activityView } from './present.js';

/**
 * The provider's performance fee (docs/architecture.md, "Copy trading"): settled per copy at 00:00 UTC on
 * the 1st of each month and when the copy stops, on the net profit above its high-water mark, as two
 * ledger rows in one transaction that also moves the mark, so a settlement happens once whatever races.
 */
export class Fees {
  constructor(private readonly core: CopyCore) {}

  async settle(copyId: number) {
    const { wallet, bus } = this.core.deps;
    const settled = await this.core.db.transaction(async (tx) => {
      const [copy] = await tx.select().from(copies).where(eq(copies.id, copyId)).for('update');
      if (!copy) return null;
      const [provider] = await tx.select().from(copyProviders).where(eq(copyProviders.id, copy.providerId));
      const wallets = await wallet.lockMany(
        tx,
        [copy.followerId, provider!.userId].sort((a, b) => a - b),
      );
      const balance = wallets.get(copy.followerId)!.balance;
      const now = this.core.now();
      const { fee, highWaterMark } = feeSettlement({
        netProfit: copy.realised,
        highWaterMark: copy.highWaterMark,
        feePct: provider!.feePct,
        balance,
      });
      await tx
        .update(copies)
        .set({
          highWaterMark: highWaterMark.toFixed(6),
          feesPaid: sql`${copies.feesPaid} + ${fee.toFixed(2)}::numeric`,
          lastSettledAt: now,
        })
        .where(eq(copies.id, copyId));
      if (fee.isZero()) return null;
      const about = { refType: 'copy' as const, refId: copyId };
      await wallet.postMany(tx, [
        {
          userId: copy.followerId,
          amount: fee.negated(),
          type: 'copy_fee',
          memoParams: { nickname: provider!.nickname },
          ...about,
        },
        { userId: provider!.userId, amount: fee, type: 'copy_fee_income', memoParams: { copy: copyId }, ...about },
      ]);
      const [line] = await tx
        .insert(copyActivity)
        .values({ copyId, kind: 'fee', amount: fee.toFixed(6) })
        .returning();
      return { line: line!, followerId: copy.followerId, providerUserId: provider!.userId };
    });
    if (!settled) return;
    announceWalletChange(bus, settled.followerId, { cause: 'copy_fee', id: copyId, status: 0 });
    announceWalletChange(bus, settled.providerUserId, { cause: 'copy_fee', id: copyId, status: 0 });
    bus.publish('realtime.user', { userId: settled.followerId, topic: SocketTopic.copy, data: activityView(settled.line) });
  }

  /** Every copy whose monthly settlement is due (a 1st of the month passed since its last one). */
  async settleDue() {
    const now = this.core.now();
    const rows = rowsOf(await this.core.db.execute(sql`SELECT id, last_settled_at FROM ${copies} WHERE status <> 'stopped'`));
    for (const row of rows) {
      if (feeSettlementDue(new Date(row.last_settled_at as string), now)) await this.settle(Number(row.id));
    }
  }
}
