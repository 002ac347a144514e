import {
  ApiPath,
  ResponseCode,
  withdrawalQuote,
  withdrawRateOf,
  type WithdrawalView,
  type WithdrawCurrencyView,
} from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, withdrawals } from '../src/db/schema.js';
import { DB_KINDS } from './harness.js';
import { ADDRESSES, COOLDOWN_MS, startWithdrawalServer, walletOf, type WithdrawalServer } from './withdrawals-helpers.js';

const HOUR_MS = 3_600_000;
const EUR_ACCOUNT = {
  type: 2,
  bank_name: 'Deutsche Bank',
  payee_name: 'Ada Lovelace',
  payee_account: 'DE89 3704 0044 0532 0130 00',
};

interface OperatorWithdrawal extends WithdrawalView {
  warnings: unknown[];
}

describe.each(DB_KINDS)('withdraw rates on %s', (kind) => {
  let server: WithdrawalServer;

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
    await server.ctx.settings.set({ withdraw_rate_max_age_hours: '24' });
  });
  afterAll(() => server.close());

  const bankList = async (token: string) =>
    (await server.call<WithdrawCurrencyView[]>('GET', `${ApiPath.drawSymbols}?type=2`, { token })).data;
  const coinList = async (token: string) =>
    (await server.call<WithdrawCurrencyView[]>('GET', `${ApiPath.drawSymbols}?type=1`, { token })).data;
  const uidOf = async (userId: number) =>
    (await server.database.db.select({ uid: users.uid }).from(users).where(eq(users.id, userId)))[0]!.uid;
  const queue = async (userId: number) =>
    (
      await server.call<{ data: OperatorWithdrawal[] }>('GET', `/admin/api/withdrawals?status=0&uid=${await uidOf(userId)}`, {
        headers: await server.operatorHeaders('alice', 'finance'),
      })
    ).data.data;

  it('a EUR withdrawal follows EURUSD: the listed rate, the estimate, the record and the queue agree', async () => {
    const trader = await server.trader({ balance: '1000' });
    const eurId = (await server.currency('EUR')).id;
    const bound = await server.bind(trader, { ...EUR_ACCOUNT, draw_id: eurId });
    expect(bound.code).toBe(1);
    server.manualClock.advance(COOLDOWN_MS);
    await server.tick('EURUSD', '1.12400');

    const eur = (await bankList(trader.token)).find((row) => row.code === 'EUR')!;
    // The case: 120 USD, 1 % fee, 118.80 USD converted at the app's own EURUSD, never the typed 0.92.
    expect(eur).toMatchObject({
      usd_price: '0.88967971',
      rate_source: 'market',
      rate_pair: 'EURUSD',
      rate_at: server.manualClock.now().toISOString(),
      rate_expires_at: null,
    });
    expect(eur.usd_price).toBe(withdrawRateOf('1.124').toFixed());
    const estimate = withdrawalQuote('120', eur);
    expect(estimate.received.toFixed(2)).toBe('105.69');

    // The market moves after the screen showed its estimate: the quote holds the rate shown.
    await server.tick('EURUSD', '1.20000');
    const made = await server.draw(trader, {
      draw_currency_id: eurId,
      number: '120',
      draw_method_id: bound.data.id,
      rate_quote: eur.rate_quote,
    });
    expect(made.code).toBe(1);
    expect(made.data).toMatchObject({
      number: 120,
      fee: 1.2,
      real_number: 105.69,
      usd_price: '0.88967971',
      rate_source: 'market',
      rate_pair: 'EURUSD',
      rate_at: eur.rate_at,
    });
    const [row] = await server.database.db.select().from(withdrawals).where(eq(withdrawals.id, made.data.id));
    expect({ usdPrice: row!.usdPrice, received: row!.received, ratePair: row!.ratePair }).toEqual({
      usdPrice: '0.88967971',
      received: '105.69',
      ratePair: 'EURUSD',
    });
    const [queued] = await queue(trader.userId);
    expect(queued).toMatchObject({ id: made.data.id, real_number: 105.69, usd_price: '0.88967971', rate_pair: 'EURUSD' });

    // Without a quote the rate is the market's at the request: 1 ÷ 1.2 rounded down to 8 decimals, and
    // 118.80 × 0.83333333 = 98.9999996 rounds down too: neither rounding ever pays out more than the quote.
    const now = await server.draw(trader, { draw_currency_id: eurId, number: '120', draw_method_id: bound.data.id });
    expect(now.data).toMatchObject({ usd_price: '0.83333333', real_number: 98.99 });
  });

  it('a quote older than a minute, or of another currency or altered, is refused and changes nothing', async () => {
    const trader = await server.trader({ balance: '1000' });
    const eurId = (await server.currency('EUR')).id;
    const usdId = (await server.currency('USD')).id;
    const bound = await server.bind(trader, { ...EUR_ACCOUNT, draw_id: eurId });
    server.manualClock.advance(COOLDOWN_MS);
    const list = await bankList(trader.token);
    const eur = list.find((row) => row.code === 'EUR')!;
    const usd = list.find((row) => row.code === 'USD')!;
    expect(usd).toMatchObject({ usd_price: '1', rate_source: 'market', rate_pair: null });
    const before = await server.snapshot();
    const body = { draw_currency_id: eurId, number: '120', draw_method_id: bound.data.id };
    const [payload, signature] = eur.rate_quote.split('.');
    const richer = Buffer.from(
      JSON.stringify([eurId, '5', ...(JSON.parse(Buffer.from(payload!, 'base64url').toString()) as unknown[]).slice(2)]),
    ).toString('base64url');
    for (const rate_quote of [usd.rate_quote, `${richer}.${signature}`, `${eur.rate_quote}x`, 'garbage']) {
      const refused = await server.draw(trader, { ...body, rate_quote });
      expect(refused).toMatchObject({ code: ResponseCode.conflict, data: null });
      expect(refused.msg).toBe('The rate shown has changed. Check the new estimate and submit again.');
    }
    server.manualClock.advance(61_000);
    const late = await server.draw(trader, { ...body, rate_quote: eur.rate_quote });
    expect(late.code).toBe(ResponseCode.conflict);
    expect(await server.snapshot()).toEqual(before);
    expect(usdId).toBeGreaterThan(0);
  });

  it('USDT carries the operator rate with its time; once older than withdraw_rate_max_age_hours it is refused until set again', async () => {
    const trader = await server.trader({ balance: '1000' });
    const { methodId, currencyId } = await server.usableMethod(trader);
    // Operator sessions end after 2 idle hours: each call after a jump of the clock signs in again.
    const finance = () => server.operatorHeaders('alice', 'finance');
    // Confirm the rate now, so the test starts from a known age.
    expect(
      (
        await server.call('PUT', `/admin/api/withdraw-currencies/${currencyId}`, {
          headers: await finance(),
          body: { confirm_rate: true },
        })
      ).code,
    ).toBe(1);
    const setAt = server.manualClock.now();
    const usdt = (await coinList(trader.token)).find((row) => row.id === currencyId)!;
    expect(usdt).toMatchObject({
      usd_price: '1',
      rate_source: 'operator',
      rate_pair: null,
      rate_at: setAt.toISOString(),
      rate_expires_at: new Date(setAt.getTime() + 24 * HOUR_MS).toISOString(),
    });
    const admin = await server.call<{ id: number; code: string; rate_source: string; usd_price_updated_at: string }[]>(
      'GET',
      '/admin/api/withdraw-currencies',
      { headers: await finance() },
    );
    expect(admin.data.find((row) => row.id === currencyId)).toMatchObject({
      rate_source: 'operator',
      usd_price_updated_at: setAt.toISOString(),
    });
    expect(admin.data.find((row) => row.code === 'EUR')).toMatchObject({ rate_source: 'market', rate_pair: 'EURUSD' });

    const body = { draw_currency_id: currencyId, number: '100', draw_method_id: methodId };
    server.manualClock.advance(24 * HOUR_MS);
    const atLimit = await server.draw(trader, body);
    expect(atLimit.data).toMatchObject({ usd_price: '1', rate_source: 'operator', rate_at: setAt.toISOString() });

    server.manualClock.advance(1_000);
    const before = await server.snapshot();
    const stale = await server.draw(trader, body);
    expect(stale).toMatchObject({ code: ResponseCode.rejected, data: null });
    expect(stale.msg).toMatch(/^The USDT rate was last set .+UTC; withdrawals in USDT are paused until it is updated\.$/);
    expect(await server.snapshot()).toEqual(before);
    // Saving the row unchanged (an inline switch sends every field) does not pass for a confirmation.
    await server.call('PUT', `/admin/api/withdraw-currencies/${currencyId}`, {
      headers: await finance(),
      body: { usd_price: '1', enabled: true },
    });
    expect((await server.draw(trader, body)).code).toBe(ResponseCode.rejected);

    expect(
      (
        await server.call('PUT', `/admin/api/withdraw-currencies/${currencyId}`, {
          headers: await finance(),
          body: { usd_price: '0.999' },
        })
      ).code,
    ).toBe(1);
    const again = await server.draw(trader, body);
    // (100 − the fixed 1 fee) × 0.999 = 98.901, rounded down to cents.
    expect(again.data).toMatchObject({ usd_price: '0.999', real_number: 98.9 });
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1000.00', lock: '200.00' });
  });

  it('the screen learns before anything is typed whether real-name verification stands in the way', async () => {
    const trader = await server.trader({ balance: '1000' });
    const rules = async () =>
      (await server.call<{ kyc_required: boolean }>('GET', ApiPath.drawRules, { token: trader.token })).data;
    expect(await rules()).toEqual({ kyc_required: false });
    await server.ctx.settings.set({ withdraw_requires_kyc: '1' });
    try {
      expect(await rules()).toEqual({ kyc_required: true });
      await server.verify(trader.userId);
      expect(await rules()).toEqual({ kyc_required: false });
    } finally {
      await server.ctx.settings.set({ withdraw_requires_kyc: '0' });
    }
  });

  it('warns operators of a coin address two traders bound and of a payee not named as the verified owner, refusing nothing', async () => {
    const ann = await server.trader({ balance: '1000' });
    const bob = await server.trader({ balance: '1000' });
    const trc20 = await server.currency('TRC20');
    const erc20 = await server.currency('ERC20');
    const eurId = (await server.currency('EUR')).id;
    const annCoin = await server.bind(ann, { type: 1, draw_id: trc20.id, dc_address: ADDRESSES.TRC20 });
    const bobCoin = await server.bind(bob, { type: 1, draw_id: trc20.id, dc_address: ADDRESSES.TRC20 });
    // Ethereum addresses are one address in any case.
    await server.bind(ann, { type: 1, draw_id: erc20.id, dc_address: ADDRESSES.ERC20 });
    await server.bind(bob, { type: 1, draw_id: erc20.id, dc_address: ADDRESSES.ERC20.toLowerCase() });
    await server.verify(ann.userId);
    const annBank = await server.bind(ann, { ...EUR_ACCOUNT, payee_name: 'John Smith', draw_id: eurId });
    const bobBank = await server.bind(bob, { ...EUR_ACCOUNT, payee_name: 'LOVELACE, Ada', draw_id: eurId });
    await server.verify(bob.userId);
    server.manualClock.advance(COOLDOWN_MS);
    await server.ctx.settings.set({ withdraw_rate_max_age_hours: '100000' });

    const drawn = async (trader: typeof ann, currencyId: number, methodId: number) => {
      const made = await server.draw(trader, { draw_currency_id: currencyId, number: '100', draw_method_id: methodId });
      expect(made.code).toBe(1);
      return made.data.id;
    };
    const annCoinId = await drawn(ann, trc20.id, annCoin.data.id);
    const annBankId = await drawn(ann, eurId, annBank.data.id);
    await drawn(bob, trc20.id, bobCoin.data.id);
    const bobBankId = await drawn(bob, eurId, bobBank.data.id);

    const annQueue = new Map((await queue(ann.userId)).map((row) => [row.id, row.warnings]));
    // Earlier tests bound the same example address too: their owners are named beside Bob.
    const bobUid = await uidOf(bob.userId);
    const annUid = await uidOf(ann.userId);
    expect(annQueue.get(annCoinId)).toEqual([
      { code: 'address_shared', address: ADDRESSES.TRC20, uids: expect.arrayContaining([bobUid]) as number[] },
    ]);
    expect(annQueue.get(annBankId)).toEqual([
      { code: 'payee_name_mismatch', payee_name: 'John Smith', verified_name: 'Ada Lovelace' },
    ]);
    const bobQueue = new Map((await queue(bob.userId)).map((row) => [row.id, row.warnings]));
    // Same words in another order and case: the verified owner's name.
    expect(bobQueue.get(bobBankId)).toEqual([]);

    const detail = await server.call<{ payout_warnings: unknown[] }>('GET', `/admin/api/users/${bobUid}`, {
      headers: await server.operatorHeaders('alice', 'finance'),
    });
    expect(detail.data.payout_warnings).toEqual([
      { code: 'address_shared', address: ADDRESSES.TRC20, uids: expect.arrayContaining([annUid]) as number[] },
      { code: 'address_shared', address: ADDRESSES.ERC20.toLowerCase(), uids: [annUid] },
    ]);
    await server.ctx.settings.set({ withdraw_rate_max_age_hours: '24' });
  });
});
