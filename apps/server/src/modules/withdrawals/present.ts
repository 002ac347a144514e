import {
  BALANCE_DECIMALS,
  dec,
  toJsonNumber,
  WithdrawalStatus,
  type CashierEndReason,
  type CashierEventView,
  type CashierTypeValue,
  type DrawMethodView,
  type Language,
  type OperatorWithdrawalView,
  type PayoutWarningView,
  type WithdrawalStatusValue,
  type WithdrawalView,
  type WithdrawCurrencyView,
  type WithdrawRateSource,
} from '@pipwise/domain';
import { translate } from '../../i18n/catalog.js';
import { formatDateTime } from '../../i18n/dates.js';
import type { QuotedCurrency } from './offered-currencies.js';
import type { MethodRecord } from './payout-methods.js';
import { USER_ACTOR, type EventRow, type WithdrawalRecord } from './records.js';

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

/** A currency with its rate now (`usd_price`, where it comes from, when taken) and the quote that holds it. */
export function presentCurrency({ currency, rate, quote }: QuotedCurrency): WithdrawCurrencyView {
  return {
    id: currency.id,
    type: currency.type as CashierTypeValue,
    code: currency.code,
    protocol: currency.protocol,
    draw_rate: currency.drawRate,
    fee_type: currency.feeType,
    usd_price: rate.usdPrice,
    rate_source: rate.source,
    rate_pair: rate.pair,
    rate_at: rate.at.toISOString(),
    rate_expires_at: rate.expiresAt?.toISOString() ?? null,
    rate_quote: quote,
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
    usd_price: dec(withdrawal.usdPrice).toFixed(),
    rate_source: withdrawal.rateSource as WithdrawRateSource,
    rate_pair: withdrawal.ratePair,
    rate_at: withdrawal.rateAt?.toISOString() ?? null,
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
 * with four-eyes, the first approver too, and whether a second approval is still needed — and the
 * warnings on its destination (shared address, payee name), which inform and never refuse.
 */
export function presentOperatorWithdrawal(
  record: WithdrawalRecord,
  lang: Language,
  needsSecondApproval: boolean,
  warnings: PayoutWarningView[],
): OperatorWithdrawalView {
  const { withdrawal } = record;
  return {
    ...presentWithdrawal(record, lang),
    user_id: withdrawal.userId,
    method_id: withdrawal.methodId,
    first_approved_by: withdrawal.firstApprovedBy,
    first_approved_at: withdrawal.firstApprovedAt?.toISOString() ?? null,
    needs_second_approval: needsSecondApproval,
    warnings,
    decided_by: withdrawal.decidedBy,
    internal_note: withdrawal.internalNote,
  };
}
