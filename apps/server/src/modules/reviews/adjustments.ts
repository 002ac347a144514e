import { AdjustmentStatus, conflict, dec, notFound, rejected, withdrawableAmount, type Dec } from '@pipwise/domain';
import { and, count, desc, eq, ne } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { countOf, paged, type Page } from '../../db/paging.js';
import { adjustments, users } from '../../db/schema.js';
import type { EventBus } from '../../realtime/bus.js';
import { translate } from '../../i18n/catalog.js';
import type { AuditService } from '../audit/service.js';
import { announceWalletChange } from '../../cashier/notices.js';
import type { WalletService } from '../wallet/service.js';
import type { CheckerRule, Decider, UserNotifier } from '../../review/decisions.js';

export const ADJUSTMENT_PAGE_SIZE = 20;

export type AdjustmentRow = typeof adjustments.$inferSelect;
export type AdjustmentRecord = AdjustmentRow & { uid: number };

/** An operator as adjustments record them: maker and checker are kept by id and e-mail. */
export type Signer = Decider & { id: number; email: string };

/** The account's free margin, read inside the approval's transaction. */
export interface AdjustmentMargin {
  figures(userId: number, tx: Executor): Promise<{ freeMargin: Dec }>;
}

/**
 * Manual balance changes under four-eyes: one operator (the maker) proposes an amount and a reason;
 * only a different operator (the checker) can approve it, which posts one `adjustment` ledger row
 * through the wallet. Every transition is a conditional UPDATE from status 0 in the transaction that
 * posts the money and writes the audit row, so of concurrent approvals exactly one posts; the ledger's
 * unique (ref_type, ref_id, type) backs that up. The user is told of a posted adjustment by e-mail.
 */
export class AdjustmentsService {
  constructor(
    private readonly deps: {
      db: Db;
      bus: EventBus;
      clock: Clock;
      wallet: WalletService;
      audit: AuditService;
      notifier: UserNotifier;
      fourEyes: CheckerRule;
      trading: AdjustmentMargin;
    },
  ) {}

  /** `reason` is the client-facing text (the ledger memo, the e-mail); `internalNote` stays in the back office. */
  async create(
    input: { uid: number; amount: string; reason: string; internalNote: string | null },
    maker: Signer,
  ): Promise<AdjustmentRecord> {
    const [user] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.uid, input.uid)).limit(1);
    if (!user) throw notFound('adjustment_user_not_found');
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(adjustments)
        .values({
          userId: user.id,
          amount: dec(input.amount).toFixed(2),
          reason: input.reason,
          internalNote: input.internalNote,
          status: AdjustmentStatus.waiting,
          makerId: maker.id,
          makerEmail: maker.email,
          createdAt: this.deps.clock.now(),
        })
        .returning();
      await this.audit(tx, maker, 'adjustment.create', row!, null, {
        status: row!.status,
        amount: row!.amount,
        reason: row!.reason,
        internal_note: row!.internalNote,
      });
      return { ...row!, uid: input.uid };
    });
  }

  async list(status: number | undefined, page: number): Promise<Page<AdjustmentRecord>> {
    const where = status === undefined ? undefined : eq(adjustments.status, status);
    return paged(
      { page, pageSize: ADJUSTMENT_PAGE_SIZE },
      async (limit, offset) => {
        const rows = await this.deps.db
          .select({ adjustment: adjustments, uid: users.uid })
          .from(adjustments)
          .innerJoin(users, eq(users.id, adjustments.userId))
          .where(where)
          .orderBy(desc(adjustments.id))
          .limit(limit)
          .offset(offset);
        return rows.map((row) => ({ ...row.adjustment, uid: row.uid }));
      },
      () => countOf(this.deps.db.select({ n: count() }).from(adjustments).where(where)),
    );
  }

  /**
   * The checker's approval: posts the amount. A debit may take only what a withdrawal could, the
   * smaller of the unlocked balance and the free margin, so it never leaves the balance below zero nor
   * the open positions closer to a stop-out; otherwise nothing changes and the adjustment keeps waiting.
   */
  async approve(id: number, checker: Signer, note: string | null): Promise<AdjustmentRecord> {
    const record = await this.deps.db.transaction(async (tx) => {
      const [waiting] = await tx
        .select({ makerId: adjustments.makerId })
        .from(adjustments)
        .where(and(eq(adjustments.id, id), eq(adjustments.status, AdjustmentStatus.waiting), ne(adjustments.makerId, checker.id)))
        .for('update');
      if (waiting && (await this.deps.fourEyes.related(checker.id, waiting.makerId, tx))) {
        throw rejected('four_eyes_related_operator');
      }
      const [row] = await tx
        .update(adjustments)
        .set({
          status: AdjustmentStatus.approved,
          checkerId: checker.id,
          checkerEmail: checker.email,
          checkerNote: note,
          decidedAt: this.deps.clock.now(),
        })
        .where(and(eq(adjustments.id, id), eq(adjustments.status, AdjustmentStatus.waiting), ne(adjustments.makerId, checker.id)))
        .returning();
      if (!row) throw await this.refusal(tx, id, checker, true);
      const wallet = await this.deps.wallet.lock(tx, row.userId);
      const amount = dec(row.amount);
      if (amount.isNegative()) {
        // Read under the wallet lock, in this transaction: the positions and reservations as they are now.
        const { freeMargin } = await this.deps.trading.figures(row.userId, tx);
        const available = withdrawableAmount(wallet.balance, wallet.lockBalance, freeMargin);
        if (amount.negated().gt(available)) {
          throw rejected('adjustment_exceeds_free_balance', { available: available.toFixed(2) });
        }
      }
      const balanceAfter = await this.deps.wallet.post(tx, {
        userId: row.userId,
        amount,
        type: 'adjustment',
        memoParams: { reason: row.reason },
        refType: 'adjustment',
        refId: row.id,
      });
      await this.audit(
        tx,
        checker,
        'adjustment.approve',
        row,
        { status: AdjustmentStatus.waiting, amount: row.amount, maker: row.makerEmail, balance: wallet.balance.toFixed(2) },
        { status: row.status, amount: row.amount, checker: checker.email, note, balance: balanceAfter.toFixed(2) },
      );
      return this.withUid(tx, row);
    });
    announceWalletChange(this.deps.bus, record.userId, { cause: 'adjustment', id, status: AdjustmentStatus.approved });
    const amount = dec(record.amount);
    await this.deps.notifier.notifyUser(record.userId, (lang) => ({
      subject: translate(lang, 'mail_adjustment_subject'),
      text: translate(lang, amount.isNegative() ? 'mail_adjustment_debit_body' : 'mail_adjustment_credit_body', {
        amount: amount.abs().toFixed(2),
        reason: record.reason,
      }),
    }));
    return record;
  }

  /** Any operator, the maker too, may turn a waiting adjustment down; nothing is posted. */
  async reject(id: number, checker: Signer, reason: string): Promise<AdjustmentRecord> {
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(adjustments)
        .set({
          status: AdjustmentStatus.rejected,
          checkerId: checker.id,
          checkerEmail: checker.email,
          checkerNote: reason,
          decidedAt: this.deps.clock.now(),
        })
        .where(and(eq(adjustments.id, id), eq(adjustments.status, AdjustmentStatus.waiting)))
        .returning();
      if (!row) throw await this.refusal(tx, id, checker, false);
      await this.audit(
        tx,
        checker,
        'adjustment.reject',
        row,
        { status: AdjustmentStatus.waiting, amount: row.amount },
        { status: row.status, amount: row.amount, reason },
      );
      return this.withUid(tx, row);
    });
  }

  /** Why a conditional update matched nothing: unknown, already decided, or the maker checking their own. */
  private async refusal(tx: Executor, id: number, checker: Signer, approving: boolean) {
    const [existing] = await tx.select().from(adjustments).where(eq(adjustments.id, id)).limit(1);
    if (!existing) return notFound('adjustment_not_found');
    if (existing.status !== AdjustmentStatus.waiting) return conflict('adjustment_already_decided');
    if (approving && existing.makerId === checker.id) return rejected('four_eyes_same_operator');
    return conflict('adjustment_already_decided');
  }

  private async withUid(tx: Executor, row: AdjustmentRow): Promise<AdjustmentRecord> {
    const [user] = await tx.select({ uid: users.uid }).from(users).where(eq(users.id, row.userId)).limit(1);
    return { ...row, uid: user!.uid };
  }

  private audit(
    tx: Executor,
    by: Signer,
    action: string,
    row: AdjustmentRow,
    before: Record<string, unknown> | null,
    after: Record<string, unknown>,
  ) {
    return this.deps.audit.record(
      { by, action, targetType: 'adjustment', targetId: row.id, before, after: { ...after, user_id: row.userId }, ip: by.ip },
      tx,
    );
  }
}
