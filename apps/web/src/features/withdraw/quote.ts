import { dec, withdrawalQuote, ZCashierAmount, type WithdrawalQuote, type WithdrawCurrencyView } from '@pipwise/domain';
import { formatMoney } from '../../i18n/format';

/**
 * The fee and estimated received amount of what the user typed, by the very function the server charges
 * with (spec §9); null until the amount is one the server would take.
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
  key: 'amount_min' | 'amount_max' | 'amount_over';
  limit: number;
}

/**
 * An amount the schema accepts may still be refused: below the currency's minimum, above its maximum
 * (0 means none), or above what may leave the account (DESIGN §9).
 */
export function amountProblem(amount: string, currency: WithdrawCurrencyView, withdrawable: number): AmountProblem | null {
  const value = dec(amount);
  if (currency.min_amount > 0 && value.lessThan(currency.min_amount)) return { key: 'amount_min', limit: currency.min_amount };
  if (currency.max_amount > 0 && value.greaterThan(currency.max_amount)) return { key: 'amount_max', limit: currency.max_amount };
  if (value.greaterThan(withdrawable)) return { key: 'amount_over', limit: withdrawable };
  return null;
}
