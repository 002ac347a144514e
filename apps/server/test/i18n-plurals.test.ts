import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../src/i18n/catalog.js';
import { DB_KINDS } from './harness.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

/** Where a number meets a noun, the noun agrees with it (Intl.PluralRules of the message's language). */
describe('plural-aware messages', () => {
  const maxLots = (max: string) => translate('ru', 'lots_above_max', { min: '0.01', max, step: '0.01' });

  it.each([
    ['1', '1 лот'],
    ['2', '2 лота'],
    ['5', '5 лотов'],
    ['21', '21 лот'],
    ['100', '100 лотов'],
    ['0.5', '0.5 лота'],
  ])('ru: at most %s lots reads "%s"', (max, phrase) => {
    expect(maxLots(max)).toBe(`Объём не должен превышать ${phrase}`);
  });

  it.each([
    [1, '1 лота'],
    [2, '2 лотов'],
    [5, '5 лотов'],
    [21, '21 лота'],
    [100, '100 лотов'],
  ])('ru: at least %s lots takes the genitive, "%s"', (min, phrase) => {
    expect(translate('ru', 'lots_below_min', { min, max: '50', step: '0.01' })).toBe(`Объём должен быть не меньше ${phrase}`);
  });

  it.each([
    [0, 'يرجى الانتظار 0 ثانية قبل طلب رمز آخر'],
    [1, 'يرجى الانتظار ثانية واحدة قبل طلب رمز آخر'],
    [2, 'يرجى الانتظار ثانيتين قبل طلب رمز آخر'],
    [3, 'يرجى الانتظار 3 ثوانٍ قبل طلب رمز آخر'],
    [11, 'يرجى الانتظار 11 ثانيةً قبل طلب رمز آخر'],
    [100, 'يرجى الانتظار 100 ثانية قبل طلب رمز آخر'],
  ])('ar: a wait of %i seconds has its own form', (seconds, text) => {
    expect(translate('ar', 'code_resend_wait', { seconds })).toBe(text);
  });

  it('agrees in English, French and Russian too', () => {
    expect(translate('en', 'code_resend_wait', { seconds: 1 })).toBe('Please wait 1 second before requesting another code');
    expect(translate('en', 'code_resend_wait', { seconds: 30 })).toBe('Please wait 30 seconds before requesting another code');
    expect(translate('fr', 'sms_code_body', { code: '123456', minutes: 1 })).toContain('valable 1 minute.');
    expect(translate('ru', 'sms_code_body', { code: '123456', minutes: 2 })).toContain('действует 2 минуты.');
    expect(translate('ru', 'sms_code_body', { code: '123456', minutes: 10 })).toContain('действует 10 минут.');
    expect(translate('ru', 'sms_code_body', { code: '123456', minutes: 21 })).toContain('действует 21 минуту.');
  });

  it('uses the other form when the counted value is not a number', () => {
    expect(translate('ru', 'lots_above_max', { max: 'много' })).toBe('Объём не должен превышать много лота');
  });
});

describe.each(DB_KINDS)('an order above the lot limit on %s', (kind) => {
  let server: TradingServer;
  beforeAll(async () => {
    server = await startTradingServer(kind);
    await server.tick('EURUSD', '1.10000');
  });
  afterAll(() => server.close());

  it('is refused with the limit and a noun that agrees with it', async () => {
    const trader = await server.trader({ balance: '1000000' });
    const order = { type: 1, cont: '60', forex_id: server.instrumentId('EURUSD'), status: 1, multiple: 100 };
    const answers = await Promise.all(
      ['ru', 'en', 'hk'].map((lang) => server.submit(trader, order, { lang }).then((answer) => answer.msg)),
    );
    expect(answers).toEqual(['Объём не должен превышать 50 лотов', 'The lot size must not exceed 50', '手數不能超過 50']);
  });
});
