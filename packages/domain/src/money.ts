import { Decimal } from 'decimal.js';

/**
 * Our own Decimal constructor so no other user of decimal.js can change the precision or the rounding
 * mode under us. Rounding happens only at the boundary, half away from zero.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -30, toExpPos: 40 });
export type Dec = InstanceType<typeof Dec>;
export type DecimalInput = Dec | string | number;

export const BALANCE_DECIMALS = 2;
export const PROFIT_DECIMALS = 6;

export const dec = (value: DecimalInput): Dec => new Dec(value);

/** Balances and ledger amounts: 2 decimals. */
export const roundBalance = (value: DecimalInput): Dec => dec(value).toDecimalPlaces(BALANCE_DECIMALS, Dec.ROUND_HALF_UP);

/** Profits, margins and fees as displayed: 6 decimals. */
export const roundProfit = (value: DecimalInput): Dec => dec(value).toDecimalPlaces(PROFIT_DECIMALS, Dec.ROUND_HALF_UP);

/** Prices: the instrument's PricePrecision. */
export const roundPrice = (value: DecimalInput, precision: number): Dec =>
  dec(value).toDecimalPlaces(precision, Dec.ROUND_HALF_UP);

const PLAIN_DECIMAL = /^-?\d+(?:\.(\d+))?$/;
const ONLY_ZEROS = /^0*$/;

/**
 * Converts a Decimal rounded at the boundary into the JSON number the API sends. Decimal text that
 * needs no rounding (NUMERIC columns hold at most their scale) is parsed directly: its nearest double
 * is the same number, without building a Decimal for each field of each row.
 */
export const toJsonNumber = (value: DecimalInput, decimals: number): number => {
  if (typeof value === 'string') {
    const fraction = PLAIN_DECIMAL.exec(value)?.[1];
    if (fraction !== undefined ? ONLY_ZEROS.test(fraction.slice(decimals)) : PLAIN_DECIMAL.test(value)) {
      return Number(value);
    }
  }
  return dec(value).toDecimalPlaces(decimals, Dec.ROUND_HALF_UP).toNumber();
};
