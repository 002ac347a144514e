import { BALANCE_DECIMALS, Dec, dec, type Dec as DecType, type DecimalInput } from './money.js';

/** Deposit record status (docs/api.md). */
export const DepositStatus = { unchecked: 0, finished: 1, rejected: 2, invalid: 3 } as const;
export type DepositStatusValue = (typeof DepositStatus)[keyof typeof DepositStatus];

/** Withdrawal record status (docs/api.md: unreviewed, completed, rejected, invalid). */
export const WithdrawalStatus = { unreviewed: 0, completed: 1, rejected: 2, invalid: 3 } as const;
export type WithdrawalStatusValue = (typeof WithdrawalStatus)[keyof typeof WithdrawalStatus];

/** Deposit channels and payout methods: 1 digital coin, 2 bank (docs/api.md `draw_symbol_list`). */
export const CashierType = { coin: 1, bank: 2 } as const;
export type CashierTypeValue = (typeof CashierType)[keyof typeof CashierType];

/** Withdraw currency `fee_type`: 1 a fixed fee of `draw_rate`; anything else amount × `draw_rate` (docs/api.md). */
export const FIXED_FEE_TYPE = 1;

/** Amounts the cashier accepts carry at most this many decimals (balances are kept to 2). */
export const CASHIER_AMOUNT_DECIMALS = BALANCE_DECIMALS;

export interface WithdrawCurrencyTerms {
  fee_type: number;
  draw_rate: DecimalInput;
  usd_price: DecimalInput;
}

export interface WithdrawalQuote {
  /** What the balance loses in all (what is locked while the request waits). */
  amount: DecType;
  /** Part of `amount`, kept by the broker. */
  fee: DecType;
  /** What reaches the user, in the currency's units: (amount − fee) × usd_price, 2 decimals, floor 0. */
  received: DecType;
}

/**
 * The withdraw fee and estimated received amount of docs/api.md. The one formula the server charges and the
 * withdraw screen shows: fixed `draw_rate` when `fee_type` is 1, otherwise amount × `draw_rate`; the fee
 * is rounded half up to cents and never more than the amount; received rounds down (never promise more).
 */
export function withdrawalQuote(amount: DecimalInput, terms: WithdrawCurrencyTerms): WithdrawalQuote {
  const value = dec(amount);
  const fee = Dec.min(withdrawalFee(value, terms), value);
  const received = Dec.max(dec(0), value.minus(fee).times(terms.usd_price).toDecimalPlaces(BALANCE_DECIMALS, Dec.ROUND_DOWN));
  return { amount: value, fee, received };
}

/** The fee of `withdrawalQuote` before it is capped at the amount: fixed or amount × rate, half up to cents. */
function withdrawalFee(amount: DecType, terms: Pick<WithdrawCurrencyTerms, 'fee_type' | 'draw_rate'>): DecType {
  const rawFee = Number(terms.fee_type) === FIXED_FEE_TYPE ? dec(terms.draw_rate) : amount.times(terms.draw_rate);
  return rawFee.toDecimalPlaces(BALANCE_DECIMALS, Dec.ROUND_HALF_UP);
}

/** A withdraw currency's terms that decide whether an amount may be requested. */
export interface WithdrawLimitTerms {
  fee_type: number;
  draw_rate: DecimalInput;
  /** USD; always set and above 0 (the operator API refuses 0), and always applied: there is no "no limit". */
  min_amount: DecimalInput;
  max_amount: DecimalInput;
}

/** Why an amount cannot be withdrawn: the server's message key, and the figure (USD) its message names. */
export type WithdrawalProblem =
  | { code: 'withdraw_below_min'; limit: DecType }
  | { code: 'withdraw_above_max'; limit: DecType }
  /** `limit` is the fee, which the amount must exceed (what is sent would otherwise be nothing). */
  | { code: 'withdraw_fee_exceeds'; limit: DecType }
  /** `limit` is what may leave the account (`withdrawableAmount`). */
  | { code: 'withdraw_exceeds_available'; limit: DecType };

export type WithdrawalProblemCode = WithdrawalProblem['code'];

/**
 * The first reason an amount cannot be withdrawn in a currency, or null: below its minimum, above its
 * maximum, not more than its fee, above what may leave the account. The one rule the server refuses
 * with and the withdraw screen checks before sending. `withdrawable` may be left out where it is not
 * known yet: the server reads it under the wallet lock and asks again with it.
 */
export function withdrawalProblem(
  amount: DecimalInput,
  terms: WithdrawLimitTerms,
  withdrawable?: DecimalInput,
): WithdrawalProblem | null {
  const value = dec(amount);
  if (value.lt(terms.min_amount)) return { code: 'withdraw_below_min', limit: dec(terms.min_amount) };
  if (value.gt(terms.max_amount)) return { code: 'withdraw_above_max', limit: dec(terms.max_amount) };
  const fee = withdrawalFee(value, terms);
  if (fee.gte(value)) return { code: 'withdraw_fee_exceeds', limit: fee };
  if (withdrawable !== undefined && value.gt(withdrawable))
    return { code: 'withdraw_exceeds_available', limit: dec(withdrawable) };
  return null;
}

/** Decimals of a withdraw rate (`usd_price`: units of the currency one USD buys), as records keep it. */
export const WITHDRAW_RATE_DECIMALS = 8;

/**
 * Where a withdraw currency's rate comes from: `market` follows a live pair by the trading model's
 * conversion rule; `operator` is a rate the back office sets, valid for `withdraw_rate_max_age_hours`.
 */
export type WithdrawRateSource = 'market' | 'operator';

/**
 * The withdraw rate of a currency with a live pair, from the trading model's conversion to USD (USD per
 * unit: the bid of XXXUSD, or 1 ÷ the bid of USDXXX): units one USD buys = 1 ÷ that, rounded down to
 * the rate's decimals so the rate never pays out more than the quote. One rule for the server's list,
 * its charge and anything that converts a quote itself.
 */
export function withdrawRateOf(usdPerUnit: DecimalInput): DecType {
  return dec(1).div(usdPerUnit).toDecimalPlaces(WITHDRAW_RATE_DECIMALS, Dec.ROUND_DOWN);
}

/**
 * What may leave the account (docs/architecture.md): cash not reserved, and never margin in use, so the smaller of
 * balance − locked and free margin; never below 0, rounded down to cents.
 */
export function withdrawableAmount(balance: DecimalInput, locked: DecimalInput, freeMargin: DecimalInput): DecType {
  const cash = dec(balance).minus(locked);
  return Dec.max(dec(0), Dec.min(cash, dec(freeMargin))).toDecimalPlaces(BALANCE_DECIMALS, Dec.ROUND_DOWN);
}
