import { conflict, dec, notFound, rejected, WithdrawalStatus, type Dec } from '@pipwise/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { announceWalletChange } from '../../cashier/notices.js';
import type { Executor } from '../../db/client.js';
import { withdrawals } from '../../db/schema.js';
import { translate } from '../../i18n/catalog.js';
import type { Decider } from '../../review/decisions.js';
import type { WithdrawalsDeps } from './deps.js';
import { REF_TYPE, type WithdrawalRecord, type WithdrawalRecords, type WithdrawalRow } from './records.js';

/** What an operator decides: the status it moves to, and the confirmation it answers with. */
const DECISIONS = {
  approve: { status: WithdrawalStatus.completed, msgKey: 'withdraw_approved' },
  reject: { status: WithdrawalStatus.rejected, msgKey: 'withdraw_rejected' },
  void: { status: WithdrawalStatus.invalid, msgKey: 'withdraw_voided' },
} as const;
export type Decision = keyof typeof DECISIONS;

/** What a decision did: `firstApproval` when it only recorded the first of two approvals (four-eyes). */
export interface DecisionOutcome {
  record: WithdrawalRecord;
  msgKey: string;
  firstApproval: boolean;
}

/**
 * The operators' decisions on withdrawals: approve, reject or void, two approvals above the four-eyes
 * threshold, each with its audit row. Every decision is one conditional UPDATE from status 0: of any
 * number of concurrent approvals, rejections and cancels exactly one changes the record, and only it
 * moves money.
 */
export class WithdrawalDecisions {
  constructor(
    private readonly deps: Pick<
      WithdrawalsDeps,
      'db' | 'bus' | 'clock' | 'wallet' | 'settings' | 'notifier' | 'audit' | 'claims' | 'fourEyes'
    >,
    private readonly records: WithdrawalRecords,
  ) {}

  /**
   * An operator's decision; approval debits the amount (what is sent, and the fee) exactly once. Above
   * `withdraw_four_eyes_above` (the amount is in USD, the balance's currency) the first approval is only
   * recorded and a different operator's approval completes it; rejecting or voiding needs one operator
   * at any point. The audit row and the end of the item's claim commit with the decision; the user is
   * told of the outcome once it is final. `reason` is written for the user; `internalNote` stays in the
   * back office and the audit.
   */
  async decide(
    id: number,
    decision: Decision,
    operator: Decider,
    reason: string | null,
    internalNote: string | null = null,
  ): Promise<DecisionOutcome> {
    const { status, msgKey } = DECISIONS[decision];
    const threshold = await this.fourEyesThreshold();
    const outcome = await this.deps.db.transaction(async (tx) => {
      // The row lock orders concurrent decisions on one record; each still changes it only through a
      // conditional UPDATE from status 0, so whoever comes second finds it decided.
      const [current] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1).for('update');
      if (!current) throw notFound('withdrawal_not_found');
      if (current.status !== WithdrawalStatus.unreviewed) throw conflict('withdraw_already_decided');
      if (status === WithdrawalStatus.completed && current.firstApprovedBy === operator.actor) {
        throw rejected('four_eyes_same_operator');
      }
      if (
        status === WithdrawalStatus.completed &&
        current.firstApprovedBy !== null &&
        operator.id != null &&
        (await this.deps.fourEyes.relatedToActor(operator.id, current.firstApprovedBy, tx))
      ) {
        throw rejected('four_eyes_related_operator');
      }
      if (status === WithdrawalStatus.completed && current.firstApprovedBy === null && dec(current.amount).gt(threshold)) {
        const row = await this.firstApproval(tx, id, operator);
        await this.audit(tx, operator, 'withdrawal.first_approve', current, row, null);
        return { row, firstApproval: true };
      }
      const row = await this.records.transition(tx, id, status, operator.actor, reason, undefined, internalNote);
      if (status === WithdrawalStatus.completed) {
        const sent = dec(row.amount).minus(row.fee);
        const posting = { userId: row.userId, refType: REF_TYPE, refId: row.id, memoParams: { id: row.id } } as const;
        await this.deps.wallet.post(tx, { ...posting, amount: sent.negated(), type: 'withdrawal' });
        if (dec(row.fee).gt(0))
          await this.deps.wallet.post(tx, { ...posting, amount: dec(row.fee).negated(), type: 'withdrawal_fee' });
      }
      await this.audit(tx, operator, `withdrawal.${decision}`, current, row, reason);
      return { row, firstApproval: false };
    });
    const { row } = outcome;
    const record = await this.records.record(row.userId, id);
    if (outcome.firstApproval) return { record, msgKey: 'withdraw_first_approved', firstApproval: true };
    announceWalletChange(this.deps.bus, row.userId, { cause: 'withdrawal', id, status });
    const amount = dec(row.amount).toFixed(2);
    await this.deps.notifier.notifyUser(row.userId, (lang) => ({
      subject: translate(lang, 'mail_withdrawal_subject', { id }),
      text:
        status === WithdrawalStatus.completed
          ? translate(lang, 'mail_withdrawal_completed_body', { id, amount })
          : translate(lang, 'mail_withdrawal_not_paid_body', { id, amount, reason: reason ?? '' }),
    }));
    return { record, msgKey, firstApproval: false };
  }

  /** The USD amount above which a withdrawal needs two approvals; an unreadable setting asks for two always. */
  async fourEyesThreshold(): Promise<Dec> {
    const value = await this.deps.settings.get('withdraw_four_eyes_above');
    return /^\d{1,13}(\.\d+)?$/.test(value ?? '') ? dec(value) : dec(0);
  }

  /** Records the first of two approvals; the record stays unreviewed and its amount locked. */
  private async firstApproval(tx: Executor, id: number, operator: Decider): Promise<WithdrawalRow> {
    const [row] = await tx
      .update(withdrawals)
      .set({ firstApprovedBy: operator.actor, firstApprovedAt: this.deps.clock.now() })
      .where(
        and(eq(withdrawals.id, id), eq(withdrawals.status, WithdrawalStatus.unreviewed), isNull(withdrawals.firstApprovedBy)),
      )
      .returning();
    if (!row) throw conflict('withdraw_already_decided');
    return row;
  }

  /** The decision's audit row (state before and after, the reason) and the end of the item's claim. */
  private async audit(
    tx: Executor,
    operator: Decider,
    action: string,
    before: WithdrawalRow,
    after: WithdrawalRow,
    reason: string | null,
  ) {
    const state = (row: WithdrawalRow) => ({
      status: row.status,
      amount: row.amount,
      fee: row.fee,
      first_approved_by: row.firstApprovedBy,
      decided_by: row.decidedBy,
      internal_note: row.internalNote,
    });
    await this.deps.audit.record(
      {
        by: operator,
        action,
        targetType: 'withdrawal',
        targetId: before.id,
        before: { ...state(before), user_id: before.userId },
        after: { ...state(after), reason },
        ip: operator.ip,
      },
      tx,
    );
    await this.deps.claims.releaseAll(tx, 'withdrawals', before.id);
  }

  /** Whether the record waits for a second operator's approval (four-eyes) before it can complete. */
  needsSecondApproval(row: WithdrawalRow, threshold: Dec): boolean {
    return row.status === WithdrawalStatus.unreviewed && (row.firstApprovedBy !== null || dec(row.amount).gt(threshold));
  }
}
