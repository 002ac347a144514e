import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, dec, toJsonNumber } from './money.js';

const slowPath = (value: string, decimals: number) => dec(value).toDecimalPlaces(decimals, Dec.ROUND_HALF_UP).toNumber();

/** Decimal text as NUMERIC columns and clients send it: a sign, digits, maybe a fraction with trailing zeros. */
const decimalText = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.option(fc.stringMatching(/^\d{1,12}$/), { nil: undefined }))
  .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);

describe('toJsonNumber', () => {
  it('parses text that needs no rounding exactly as rounding through a Decimal would', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 10 }), (text, decimals) => {
        expect(toJsonNumber(text, decimals)).toBe(slowPath(text, decimals));
      }),
    );
  });

  it('rounds half away from zero when the text has more places than asked', () => {
    expect(toJsonNumber('1.005', 2)).toBe(1.01);
    expect(toJsonNumber('-1.005', 2)).toBe(-1.01);
    expect(toJsonNumber('2.675000', 2)).toBe(2.68);
    expect(toJsonNumber('65000.12000000', 2)).toBe(65000.12);
    expect(toJsonNumber('0.1234567', 6)).toBe(0.123457);
  });

  it('takes Decimals, numbers and other notations through the exact path', () => {
    expect(toJsonNumber(dec('1.23456'), 2)).toBe(1.23);
    expect(toJsonNumber(1.005, 2)).toBe(1.01);
    expect(toJsonNumber('1e-7', 6)).toBe(0);
    expect(toJsonNumber('+5.5', 0)).toBe(6);
  });
});
