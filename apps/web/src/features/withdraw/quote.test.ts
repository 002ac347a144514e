import { withdrawalProblem, withdrawalQuote, type Language, type WithdrawCurrencyView } from '@pipwise/domain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMoney } from '../../i18n/format';
import { amountProblem, estimateTexts, rateTexts, withdrawEstimate } from './quote';

let language: Language = 'en';
vi.mock('../../i18n/index', () => ({ currentLanguage: () => language }));

const currency = (terms: Partial<WithdrawCurrencyView>): WithdrawCurrencyView => ({
  id: 1,
  type: 1,
  code: 'USDT',
  protocol: 'TRC20',
  draw_rate: '0',
  fee_type: 1,
  usd_price: '1',
  rate_source: 'operator',
  rate_pair: null,
  rate_at: '2026-11-18T12:00:00.000Z',
  rate_expires_at: '2026-11-19T12:00:00.000Z',
  rate_quote: 'signed',
  min_amount: 10,
  max_amount: 50000,
  ...terms,
});

/** A fixed 2.5 USD fee, paid out in USDT at par. */
const fixedFee = currency({ fee_type: 1, draw_rate: '2.5', usd_price: '1' });
/** A 0.35 % fee, paid out in euros at 0.9213 per USD. */
const rateFee = currency({ code: 'EUR', protocol: '', fee_type: 2, draw_rate: '0.0035', usd_price: '0.9213' });

describe('the withdraw estimate', () => {
  beforeEach(() => {
    language = 'en';
  });

  it.each([
    ['fixed fee', fixedFee, ['100', '12.34', '2.5', '1', '4999.99']],
    ['rate fee', rateFee, ['100', '12.34', '333.33', '0.01', '4999.99']],
  ] as const)('shows the fee and received amount withdrawalQuote charges (%s)', (_name, terms, amounts) => {
    for (const amount of amounts) {
      const charged = withdrawalQuote(amount, terms);
      expect(withdrawEstimate(amount, terms), amount).toEqual(charged);
      expect(estimateTexts(amount, terms), amount).toEqual({
        fee: formatMoney(charged.fee.toNumber()),
        received: formatMoney(charged.received.toNumber()),
      });
    }
  });

  it('states the figures of both fee kinds exactly', () => {
    expect(estimateTexts('100', fixedFee)).toEqual({ fee: '2.50', received: '97.50' });
    // 100 × 0.0035 = 0.35; (100 − 0.35) × 0.9213 = 91.8075…, rounded down.
    expect(estimateTexts('100', rateFee)).toEqual({ fee: '0.35', received: '91.80' });
    // A fixed fee larger than the amount takes it all; nothing is received.
    expect(estimateTexts('1', fixedFee)).toEqual({ fee: '1.00', received: '0.00' });
  });

  it('writes the figures in the reader’s language', () => {
    language = 'de';
    // 1234.5 × 0.0035 = 4.32; (1234.5 − 4.32) × 0.9213 = 1133.3648…
    expect(estimateTexts('1234.5', rateFee)).toEqual({ fee: '4,32', received: '1.133,36' });
  });

  it.each(['', '0', '-5', '1.234', 'abc', '12,5'])('shows no estimate for "%s", which the server would refuse', (amount) => {
    expect(withdrawEstimate(amount, fixedFee)).toBeNull();
    expect(estimateTexts(amount, fixedFee)).toEqual({ fee: '--', received: '--' });
  });

  it('shows no estimate before a currency is chosen', () => {
    expect(withdrawEstimate('100', undefined)).toBeNull();
  });
});

describe('amount limits', () => {
  it('refuses below the minimum, above the maximum, not above the fee and above what may leave', () => {
    expect(amountProblem('9.99', fixedFee, 1000)).toEqual({ key: 'amount_min', limit: 10 });
    expect(amountProblem('50000.01', fixedFee, 100000)).toEqual({ key: 'amount_max', limit: 50000 });
    expect(amountProblem('12.5', currency({ draw_rate: '12.5' }), 1000)).toEqual({ key: 'amount_fee', limit: 12.5 });
    expect(amountProblem('500.01', fixedFee, 500)).toEqual({ key: 'amount_over', limit: 500 });
  });

  it('accepts the minimum and exactly what may leave', () => {
    expect(amountProblem('10', fixedFee, 500)).toBeNull();
    expect(amountProblem('500', fixedFee, 500)).toBeNull();
  });

  it('is the domain’s withdrawalProblem, the server’s rule: a maximum of 0 is a maximum (the back office never sets one)', () => {
    expect(amountProblem('90000', currency({ max_amount: 0 }), 100000)).toEqual({ key: 'amount_max', limit: 0 });
    for (const [amount, withdrawable] of [
      ['9.99', 1000],
      ['12.5', 1000],
      ['600', 500],
      ['50', 500],
    ] as const) {
      const terms = currency({ draw_rate: '12.5' });
      expect(amountProblem(amount, terms, withdrawable)?.limit ?? null, amount).toBe(
        withdrawalProblem(amount, terms, withdrawable)?.limit.toNumber() ?? null,
      );
    }
  });
});

describe('the rate the screen shows', () => {
  const time = (iso: string) => `at ${iso}`;

  it('names the market pair and quote time of a live rate, and the estimate uses that rate', () => {
    const eur = currency({
      code: 'EUR',
      protocol: '',
      fee_type: 2,
      draw_rate: '0.01',
      usd_price: '0.88967971',
      rate_source: 'market',
      rate_pair: 'EURUSD',
      rate_expires_at: null,
    });
    expect(rateTexts(eur, new Date('2026-11-30T00:00:00Z'), time)).toEqual({
      value: { key: 'withdraw.rate_value', params: { price: '0.88967971', code: 'EUR' } },
      source: { key: 'withdraw.rate_market', params: { pair: 'EURUSD', time: 'at 2026-11-18T12:00:00.000Z' } },
      stale: false,
    });
    // The case: 120 USD at the app's EURUSD of 1.124 is 105.69 EUR, not the 109.29 of a typed 0.92.
    expect(withdrawEstimate('120', eur)?.received.toFixed(2)).toBe('105.69');
  });

  it('shows when an operator rate was set and until when it holds, and says when it no longer does', () => {
    const usdt = currency({});
    expect(rateTexts(usdt, new Date('2026-11-19T12:00:00Z'), time)).toMatchObject({
      source: {
        key: 'withdraw.rate_operator',
        params: { time: 'at 2026-11-18T12:00:00.000Z', until: 'at 2026-11-19T12:00:00.000Z' },
      },
      stale: false,
    });
    expect(rateTexts(usdt, new Date('2026-11-19T12:00:01Z'), time).stale).toBe(true);
  });
});
