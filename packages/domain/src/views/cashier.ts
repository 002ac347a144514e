import type { CashierTypeValue, DepositStatusValue, WithdrawalStatusValue, WithdrawRateSource } from '../cashier.js';

// What the cashier routes answer (docs/api.md field names; amounts as JSON numbers rounded to cents,
// rates and prices as decimal text so the withdraw screen computes with what the server charges).

/** `image_upload`: the id to send back, and a signed URL that shows the image for a few minutes. */
export interface UploadView {
  id: string;
  url: string;
}

/** A coin deposit option (`quickCharge/info`). */
export interface CoinChannelView {
  id: number;
  currency_code: string;
  protocol_code: string;
  address: string;
  min_amount: number;
  max_amount: number;
}

/** A currency with the protocols it can be deposited by (`quickCharge/symbols`). */
export interface DepositSymbolView {
  currency_code: string;
  protocols: string[];
}

/** A bank deposit option (`quickCharge/wire_info`). */
export interface WireChannelView {
  id: number;
  currency_code: string;
  bank_name: string;
  bank_address: string;
  bank_swift: string;
  payee_name: string;
  payee_account: string;
  bank_remark: string;
  min_amount: number;
  max_amount: number;
  /** What the user writes in the transfer's payment reference so the payment is matched to them: their UID. */
  payment_reference: string;
}

/** One step of a record's life: the status it entered, when, and why (a reason or a note). */
export interface CashierEventView {
  status: number;
  status_name: string;
  created_at: string;
  created_at_tran: string;
  note: string | null;
}

/**
 * Why a record ended in status 3 (invalid), so the app can say it in words: the user cancelled it, an
 * operator voided it, or it expired unchecked.
 */
export type CashierEndReason = 'cancelled' | 'voided' | 'expired';

/** A deposit record (`quick_ist`, and the answer of a submit). */
export interface DepositView {
  id: number;
  /** The amount declared. */
  number: number;
  /** What was credited, once finished (an operator may credit what actually arrived). */
  credited_number: number | null;
  type: CashierTypeValue;
  currency_code: string;
  protocol_code: string | null;
  status: DepositStatusValue;
  /** "Expired" or "Voided by us" for status 3, as `status_reason` says. */
  status_name: string;
  status_reason: CashierEndReason | null;
  /** The operator's reason, written for the user. */
  remark: string | null;
  created_at: string;
  created_at_tran: string;
  timeline: CashierEventView[];
}

/** A withdraw currency (`draw_symbol_list`). */
export interface WithdrawCurrencyView {
  id: number;
  type: CashierTypeValue;
  code: string;
  protocol: string;
  /** Decimal text: the fixed fee (fee_type 1) or the fee rate. */
  draw_rate: string;
  fee_type: number;
  /** Decimal text: units of the currency one USD of the balance buys, now (the live pair's or the operator's). */
  usd_price: string;
  rate_source: WithdrawRateSource;
  /** The instrument a `market` rate follows (e.g. EURUSD); null for USD itself and for operator rates. */
  rate_pair: string | null;
  /** When the rate was taken: the pair's latest quote, or the operator's last setting of it (ISO). */
  rate_at: string;
  /** An operator rate's end of validity (ISO): from then on withdrawals in the currency are refused. */
  rate_expires_at: string | null;
  /** Sent back with `draw` (`rate_quote`), the withdrawal is charged at this very rate for a minute. */
  rate_quote: string;
  min_amount: number;
  max_amount: number;
}

/** What the withdraw screen says before anything is typed (`draw_rules`). */
export interface WithdrawRulesView {
  /** Real-name verification is required (`withdraw_requires_kyc`) and this user has not passed it. */
  kyc_required: boolean;
}

/** A bound payout method (`get_draw_method`). */
export interface DrawMethodView {
  id: number;
  type: CashierTypeValue;
  draw_currency: { id: number; code: string; protocol: string };
  dc_address: string | null;
  bank_name: string | null;
  bank_address: string | null;
  bank_swift: string | null;
  payee_name: string | null;
  payee_account: string | null;
  bank_branch: string | null;
  remark: string | null;
  created_at: string;
  /** When the new-method cool-down ends (ISO); withdrawals to it are refused before. */
  usable_at: string;
  usable: boolean;
}

/** A withdrawal record (`draw_list`, and the answer of a draw or cancel). */
export interface WithdrawalView {
  id: number;
  /** What leaves the balance, fee included. */
  number: number;
  /** What reaches the user, in the currency's units. */
  real_number: number;
  fee: number;
  /** The rate locked at the request (decimal text, units one USD buys), where it came from and when it was taken. */
  usd_price: string;
  rate_source: WithdrawRateSource;
  rate_pair: string | null;
  /** Null for requests made before rates were recorded. */
  rate_at: string | null;
  draw_currency: { code: string; protocol: string };
  type: CashierTypeValue;
  address: string | null;
  payee_account: string | null;
  bank_name: string | null;
  notes: string | null;
  status: WithdrawalStatusValue;
  /** "Cancelled by you" or "Voided by us" for status 3, as `status_reason` says. */
  status_name: string;
  status_reason: CashierEndReason | null;
  /** The operator's reason, written for the user. */
  remark: string | null;
  created_at: string;
  created_at_tran: string;
  timeline: CashierEventView[];
}

/**
 * What operators are warned of on a withdrawal or a user's detail, without anything being refused: a coin
 * address other users (by uid) have bound too, or a bank payee whose name is not the owner's verified
 * name (`verified_name` null: nothing verified to compare with).
 */
export type PayoutWarningView =
  | { code: 'address_shared'; address: string; uids: number[] }
  | { code: 'payee_name_mismatch'; payee_name: string; verified_name: string | null };

/** A deposit as operators see it (`/admin/api/deposits`): whose, paid to and from where, the proof, who decided. */
export interface OperatorDepositView extends DepositView {
  user_id: number;
  pay_to: string;
  from_address: string | null;
  /** A signed URL of the proof image, valid for a few minutes. */
  proof_url: string;
  decided_by: string | null;
  /** The deciding operator's note for the back office; never in the user's view. */
  internal_note: string | null;
}

/** The `WALLET` socket push: which record changed, and to what status. */
export interface WalletNoticeView {
  cause: 'deposit' | 'withdrawal' | 'adjustment' | 'copy_fee';
  id: number;
  status: number;
}
