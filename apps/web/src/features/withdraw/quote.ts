import {
  withdrawalProblem,
  withdrawalQuote,
  ZCashierAmount,
  type WithdrawalProblemCode,
  type WithdrawalQuote,
  type WithdrawCurrencyView,
} from '@pipwise/domain';
import { formatMoney } from '../../i18n/format';

/**
 * The fee and estimated received amount of what the user typed, by the very function the server charges
 * with (docs/api.md); null until the amount is one the server would take.
 */
export function withdrawEstimate(amount: string, currency: WithdrawCurrencyView | undefined): WithdrawalQuote | null {
  if (!currency || !ZCashierAmount.safeParse(amount).success) return null;
  return withdrawalQuote(amount, currency);
}

/** The estimate as the screen shows it: fee in the balance's USD, received in the currency's units. */
export function estimateTexts(amount: string, currency: WithdrawCurrencyView | undefined) {
  const quote = withdrawEstimate(amount, currency);
  return {
    fee: quote ? formatMoney(quote.fee.toNumber()) : '--',
    received: quote ? formatMoney(quote.received.toNumber()) : '--',
  };
}

export interface AmountProblem {
  /** Key in the `withdraw` section. */
  key: 'amount_min' | 'amount_max' | 'amount_fee' | 'amount_over';
  limit: number;
}

/** The message under the amount field for each refusal of the domain's `withdrawalProblem` (the server's codes). */
const PROBLEM_KEYS = {
  withdraw_below_min: 'amount_min',
  withdraw_above_max: 'amount_max',
  withdraw_fee_exceeds: 'amount_fee',
  withdraw_exceeds_available: 'amount_over',
} as const satisfies Record<WithdrawalProblemCode, AmountProblem['key']>;

/**
 * An amount the schema accepts may still be refused, by the rule the server refuses with (the domain's
 * `withdrawalProblem`): below the currency's minimum, above its maximum, not more than its fee, or above
 * what may leave the account (docs/architecture.md).
 */
export function amountProblem(amount: string, currency: WithdrawCurrencyView, withdrawable: number): AmountProblem | null {
  const problem = withdrawalProblem(amount, currency, withdrawable);
  return problem && { key: PROBLEM_KEYS[problem.code], limit: problem.limit.toNumber() };
}

/** What the screen says of a currency's rate: its value and where it comes from, as translation keys. */
export interface RateTexts {
  /** `1 USD = {{price}} {{code}}` */
  value: { key: 'withdraw.rate_value'; params: { price: string; code: string } };
  /** Market pair and quote time, the operator's setting and its validity, or nothing for USD itself. */
  source:
    | { key: 'withdraw.rate_market'; params: { pair: string; time: string } }
    | { key: 'withdraw.rate_operator'; params: { time: string; until: string } }
    | null;
  /** An operator rate past its validity: the server refuses withdrawals in the currency until it is set again. */
  stale: boolean;
}

/** The rate the server reported with the currency (the one the estimate is computed with, and charged at). */
export function rateTexts(currency: WithdrawCurrencyView, now: Date, formatTime: (iso: string) => string): RateTexts {
  const value = { key: 'withdraw.rate_value', params: { price: currency.usd_price, code: currency.code } } as const;
  if (currency.rate_source === 'market') {
    const source = currency.rate_pair
      ? ({ key: 'withdraw.rate_market', params: { pair: currency.rate_pair, time: formatTime(currency.rate_at) } } as const)
      : null;
    return { value, source, stale: false };
  }
  const until = currency.rate_expires_at;
  return {
    value,
    source: { key: 'withdraw.rate_operator', params: { time: formatTime(currency.rate_at), until: formatTime(until ?? '') } },
    stale: until !== null && new Date(until) < now,
  };
}
