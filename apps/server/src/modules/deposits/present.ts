import {
  BALANCE_DECIMALS,
  DepositStatus,
  roundBalance,
  toJsonNumber,
  type CashierEndReason,
  type CashierEventView,
  type CashierTypeValue,
  type CoinChannelView,
  type DepositStatusValue,
  type DepositView,
  type Language,
  type OperatorDepositView,
  type WireChannelView,
} from '@pipwise/domain';
import { translate } from '../../i18n/catalog.js';
import { formatDateTime } from '../../i18n/dates.js';
import type { CashierEventRow } from '../../db/cashier-events.js';
import { SYSTEM_ACTOR, type DepositChannel, type DepositRecord } from './service.js';

const amount = (value: string) => toJsonNumber(value, BALANCE_DECIMALS);

/** Status 3 says who ended it: the system when it expired unchecked, otherwise an operator's void. */
const endReason = (status: number, actor: string | null): CashierEndReason | null =>
  status !== DepositStatus.invalid ? null : actor === SYSTEM_ACTOR ? 'expired' : 'voided';

function statusName(status: number, actor: string | null, lang: Language): string {
  const reason = endReason(status, actor);
  return translate(lang, reason === null ? `deposit_status_${status}` : `deposit_status_${reason}`);
}

export function presentCoinChannel(channel: DepositChannel): CoinChannelView {
  return {
    id: channel.id,
    currency_code: channel.currencyCode,
    protocol_code: channel.protocolCode,
    address: channel.address,
    min_amount: amount(channel.minAmount),
    max_amount: amount(channel.maxAmount),
  };
}

export function presentWireChannel(channel: DepositChannel, paymentReference: string): WireChannelView {
  return {
    id: channel.id,
    currency_code: channel.currencyCode,
    bank_name: channel.bankName,
    bank_address: channel.bankAddress,
    bank_swift: channel.bankSwift,
    payee_name: channel.payeeName,
    payee_account: channel.payeeAccount,
    bank_remark: channel.bankRemark,
    min_amount: amount(channel.minAmount),
    max_amount: amount(channel.maxAmount),
    payment_reference: paymentReference,
  };
}

/**
 * What a step says besides its status: an operator's reason as written, the expiry in the reader's
 * language, and for a credit of another amount than declared, both amounts.
 */
function eventNote(record: DepositRecord, event: CashierEventRow, lang: Language): string | null {
  if (event.note !== null) return event.note;
  if (event.status === DepositStatus.invalid && event.actor === SYSTEM_ACTOR) return translate(lang, 'deposit_expired');
  if (
    event.status === DepositStatus.finished &&
    record.creditedAmount !== null &&
    !sameAmount(record.creditedAmount, record.amount)
  ) {
    return translate(lang, 'deposit_credited_other', {
      credited: roundBalance(record.creditedAmount).toFixed(2),
      declared: roundBalance(record.amount).toFixed(2),
    });
  }
  return null;
}

const sameAmount = (a: string, b: string) => roundBalance(a).eq(roundBalance(b));

function presentEvent(record: DepositRecord, event: CashierEventRow, lang: Language): CashierEventView {
  return {
    status: event.status,
    status_name: statusName(event.status, event.actor, lang),
    created_at: event.createdAt.toISOString(),
    created_at_tran: formatDateTime(event.createdAt, lang),
    note: eventNote(record, event, lang),
  };
}

export function presentDeposit(record: DepositRecord, lang: Language): DepositView {
  const closing = record.timeline.find((event) => event.status === record.status && record.status !== DepositStatus.unchecked);
  return {
    id: record.id,
    number: amount(record.amount),
    credited_number: record.creditedAmount === null ? null : amount(record.creditedAmount),
    type: record.type as CashierTypeValue,
    currency_code: record.currencyCode,
    protocol_code: record.protocolCode,
    status: record.status as DepositStatusValue,
    status_name: statusName(record.status, record.decidedBy, lang),
    status_reason: endReason(record.status, record.decidedBy),
    remark: record.remark ?? (closing ? eventNote(record, closing, lang) : null),
    created_at: record.createdAt.toISOString(),
    created_at_tran: formatDateTime(record.createdAt, lang),
    timeline: record.timeline.map((event) => presentEvent(record, event, lang)),
  };
}

/** A record as operators see it: the user's view plus who paid where, the proof, who decided and their internal note. */
export function presentOperatorDeposit(record: DepositRecord, lang: Language, proofUrl: string): OperatorDepositView {
  return {
    ...presentDeposit(record, lang),
    user_id: record.userId,
    pay_to: record.payTo,
    from_address: record.fromAddress,
    proof_url: proofUrl,
    decided_by: record.decidedBy,
    internal_note: record.internalNote,
  };
}
