import {
  BALANCE_DECIMALS,
  toJsonNumber,
  WithdrawalStatus,
  type CashierEndReason,
  type CashierEventView,
  type CashierTypeValue,
  type DrawMethodView,
  type Language,
  type WithdrawalStatusValue,
  type WithdrawalView,
  type WithdrawCurrencyView,
} from '@pipwise/domain';
import { translate } from '../../i18n/catalog.js';
import { formatDateTime } from '../trading/present.js';
import { USER_ACTOR, type CurrencyRow, type EventRow, type MethodRecord, type WithdrawalRecord } from './service.js';

const STATUS_KEYS: Record<WithdrawalStatusValue, string> = {
  [WithdrawalStatus.unreviewed]: 'withdraw_status_unreviewed',
  [WithdrawalStatus.completed]: 'withdraw_status_completed',
  [WithdrawalStatus.rejected]: 'withdraw_status_rejected',
  [WithdrawalStatus.invalid]: 'withdraw_status_invalid',
};

/** Status 3 says who ended it: the user's own cancel, otherwise an operator's void. */
const endReason = (status: number, actor: string | null): CashierEndReason | null =>
  status !== WithdrawalStatus.invalid ? null : actor === USER_ACTOR ? 'cancelled' : 'voided';

function statusName(status: number, actor: string | null, lang: Language): string {
  const reason = endReason(status, actor);
  return translate(lang, reason === null ? STATUS_KEYS[status as WithdrawalStatusValue] : `withdraw_status_${reason}`);
}
const amount = (value: string) => toJsonNumber(value, BALANCE_DECIMALS);

export function presentCurrency(currency: CurrencyRow): WithdrawCurrencyView {
  return {
    id: currency.id,
    type: currency.type as CashierTypeValue,
    code: currency.code,
    protocol: currency.protocol,
    draw_rate: currency.drawRate,
    fee_type: currency.feeType,
    usd_price: currency.usdPrice,
    min_amount: amount(currency.minAmount),
    max_amount: amount(currency.maxAmount),
  };
}

export function presentMethod({ method, currency }: MethodRecord, now: Date): DrawMethodView {
  return {
    id: method.id,
    type: method.type as CashierTypeValue,
    draw_currency: { id: currency.id, code: currency.code, protocol: currency.protocol },
    dc_address: method.address,
    bank_name: method.bankName,
    bank_address: method.bankAddress,
    bank_swift: method.bankSwift,
    payee_name: method.payeeName,
    payee_account: method.payeeAccount,
    bank_branch: method.bankBranch,
    remark: method.remark,
    created_at: method.createdAt.toISOString(),
    usable_at: method.usableAt.toISOString(),
    usable: method.usableAt <= now,
  };
}

function presentEvent(event: EventRow, lang: Language): CashierEventView {
  return {
    status: event.status,
    status_name: statusName(event.status, event.actor, lang),
    created_at: event.createdAt.toISOString(),
    created_at_tran: formatDateTime(event.createdAt, lang),
    note: event.note,
  };
}

export function presentWithdrawal({ withdrawal, timeline }: WithdrawalRecord, lang: Language): WithdrawalView {
  return {
    id: withdrawal.id,
    number: amount(withdrawal.amount),
    real_number: amount(withdrawal.received),
    fee: amount(withdrawal.fee),
    draw_currency: { code: withdrawal.currencyCode, protocol: withdrawal.protocol },
    type: withdrawal.type as CashierTypeValue,
    address: withdrawal.address,
    payee_account: withdrawal.payeeAccount,
    bank_name: withdrawal.bankName,
    notes: withdrawal.memo,
    status: withdrawal.status as WithdrawalStatusValue,
    status_name: statusName(withdrawal.status, withdrawal.decidedBy, lang),
    status_reason: endReason(withdrawal.status, withdrawal.decidedBy),
    remark: withdrawal.remark,
    created_at: withdrawal.createdAt.toISOString(),
    created_at_tran: formatDateTime(withdrawal.createdAt, lang),
    timeline: timeline.map((event) => presentEvent(event, lang)),
  };
}

/**
 * A record as operators see it: the user's view plus whose it is, where it goes and who decided —
 * with four-eyes, the first approver too, and whether a second approval is still needed.
 */
export function presentOperatorWithdrawal(record: WithdrawalRecord, lang: Language, needsSecondApproval: boolean) {
  const { withdrawal } = record;
  return {
    ...presentWithdrawal(record, lang),
    user_id: withdrawal.userId,
    method_id: withdrawal.methodId,
    first_approved_by: withdrawal.firstApprovedBy,
    first_approved_at: withdrawal.firstApprovedAt?.toISOString() ?? null,
    needs_second_approval: needsSecondApproval,
    decided_by: withdrawal.decidedBy,
    /** The deciding operator's note for the back office; never in the user's view. */
    internal_note: withdrawal.internalNote,
  };
}
