import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withdrawableAmount, withdrawalProblem, withdrawalQuote, type WithdrawLimitTerms } from './cashier.js';
import { dec } from './money.js';

/** Decimal text with up to `scale` decimals in (0, max), built from integers so no float enters. */
const decimalText = (max: number, scale: number) =>
  fc.integer({ min: 1, max: max * 10 ** scale - 1 }).map((units) =>
    dec(units)
      .dividedBy(10 ** scale)
      .toFixed(),
  );

describe('withdrawalQuote (docs/api.md)', () => {
  it('charges draw_rate when fee_type is 1, otherwise amount × draw_rate, half up to cents', () => {
    expect(withdrawalQuote('100', { fee_type: 1, draw_rate: '2.5', usd_price: '1' }).fee.toFixed()).toBe('2.5');
    expect(withdrawalQuote('100', { fee_type: 2, draw_rate: '0.015', usd_price: '1' }).fee.toFixed()).toBe('1.5');
    expect(withdrawalQuote('1.01', { fee_type: 2, draw_rate: '0.005', usd_price: '1' }).fee.toFixed()).toBe('0.01'); // 0.00505
  });

  it('promises (amount − fee) × usd_price rounded down to cents, never below 0', () => {
    const received = (amount: string, fee: string, usdPrice: string) =>
      withdrawalQuote(amount, { fee_type: 1, draw_rate: fee, usd_price: usdPrice }).received.toFixed(2);
    expect(received('100', '1.5', '0.5')).toBe('49.25');
    expect(received('10', '0.01', '0.3335')).toBe('3.33'); // 3.331665
    expect(received('10', '0.03', '0.3345')).toBe('3.33'); // 3.334965
    // The case: 0.515 is 0.51 (the deleted trading.ts copy rounded it half up to 0.52).
    expect(received('1.03', '0', '0.5')).toBe('0.51');
    expect(received('1', '2.5', '1')).toBe('0.00');
  });

  it('never takes a fee above the amount', () => {
    const quote = withdrawalQuote('1', { fee_type: 1, draw_rate: '2.5', usd_price: '1' });
    expect(quote.fee.toFixed()).toBe('1');
    expect(quote.amount.toFixed()).toBe('1');
  });
});

describe('withdrawalProblem', () => {
  const usdt: WithdrawLimitTerms = { fee_type: 1, draw_rate: '1', min_amount: '10', max_amount: '50000' };
  const bank: WithdrawLimitTerms = { fee_type: 2, draw_rate: '0.01', min_amount: '100', max_amount: '200000' };

  it('accepts an amount within the limits, above the fee and within what may leave', () => {
    expect(withdrawalProblem('10', usdt)).toBeNull();
    expect(withdrawalProblem('50000', usdt, '50000')).toBeNull();
    expect(withdrawalProblem('150.25', bank, '150.25')).toBeNull();
  });

  it('names the first problem with the figure its message shows', () => {
    expect(withdrawalProblem('9.99', usdt, '5')).toEqual({ code: 'withdraw_below_min', limit: dec('10') });
    expect(withdrawalProblem('50000.01', usdt, '5')).toEqual({ code: 'withdraw_above_max', limit: dec('50000') });
    expect(withdrawalProblem('10.01', usdt, '10')).toEqual({ code: 'withdraw_exceeds_available', limit: dec('10') });
  });

  it('applies a limit always: the operator API refuses 0, so 0 is no "no limit" here', () => {
    const zero = { ...usdt, min_amount: '0', max_amount: '0' };
    expect(withdrawalProblem('5', zero)?.code).toBe('withdraw_above_max');
  });

  it('refuses an amount that the fee would take whole, naming the fee itself', () => {
    const steep = { fee_type: 1, draw_rate: '12.5', min_amount: '10', max_amount: '100' };
    expect(withdrawalProblem('12.5', steep)).toEqual({ code: 'withdraw_fee_exceeds', limit: dec('12.5') });
    expect(withdrawalProblem('11', steep)).toEqual({ code: 'withdraw_fee_exceeds', limit: dec('12.5') });
    expect(withdrawalProblem('12.51', steep)).toBeNull();
    // A rate fee rounds half up to cents first: 0.5 × 0.99 = 0.495 → 0.50, the whole amount.
    expect(withdrawalProblem('0.5', { fee_type: 2, draw_rate: '0.99', min_amount: '0.01', max_amount: '1' })?.code).toBe(
      'withdraw_fee_exceeds',
    );
  });

  it('checks what may leave only when it is given', () => {
    expect(withdrawalProblem('1000', usdt)).toBeNull();
    expect(withdrawalProblem('1000', usdt, withdrawableAmount('2000', '1500', '900'))).toEqual({
      code: 'withdraw_exceeds_available',
      limit: dec('500'),
    });
  });

  it('accepts exactly the amounts whose quote sends something, within the limits and what may leave', () => {
    fc.assert(
      fc.property(
        decimalText(1000, 2),
        fc.constantFrom(1, 2),
        decimalText(1, 3),
        decimalText(100, 2),
        decimalText(1000, 2),
        decimalText(2000, 2),
        (amount, feeType, rate, min, span, withdrawable) => {
          const terms = {
            fee_type: feeType,
            draw_rate: feeType === 1 ? dec(rate).times(20).toFixed() : rate,
            min_amount: min,
            max_amount: dec(min).plus(span).toFixed(),
          };
          const problem = withdrawalProblem(amount, terms, withdrawable);
          const value = dec(amount);
          const quote = withdrawalQuote(amount, { ...terms, usd_price: '1' });
          const fits =
            value.gte(terms.min_amount) && value.lte(terms.max_amount) && value.lte(withdrawable) && quote.fee.lt(value);
          expect(problem === null).toBe(fits);
          if (problem === null) expect(quote.amount.minus(quote.fee).gt(0)).toBe(true);
        },
      ),
      { seed: 18 },
    );
  });
});
