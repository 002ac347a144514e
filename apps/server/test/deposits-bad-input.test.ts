import { ApiPath, CashierType } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { depositChannels } from '../src/db/schema.js';
import type { Trader } from './factories.js';
import { startDepositServer, type DepositServer } from './deposits-helpers.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';

const AMOUNT = 'Enter an amount greater than 0 with at most 2 decimals';
const CHANNEL = 'This deposit channel is not available; choose another';
const UPLOAD = 'The image is not valid; please upload it again';
const DEMO = 'Please register or log in to a real account';

/** Issue 11 items 2 and 4: every bad request gets a clear message in the caller's language and changes nothing. */
describe.each(DB_KINDS)('deposit bad input on %s', (kind) => {
  let server: DepositServer;
  let trader: Trader;
  let other: Trader;
  let proofImg: string;
  let othersProof: string;
  let trc20: number;
  let usdWire: number;
  let disabled: number;

  beforeAll(async () => {
    server = await startDepositServer(kind);
    other = await server.trader();
    othersProof = await server.proof(other.userId);
    trc20 = await server.channel(CashierType.coin, 'USDT', 'TRC20');
    usdWire = await server.channel(CashierType.bank, 'USD');
    const [channel] = await server.database.db
      .insert(depositChannels)
      .values({
        type: CashierType.coin,
        currencyCode: 'ETH',
        protocolCode: 'ERC20',
        address: '0xdead',
        minAmount: '1',
        maxAmount: '10',
        enabled: false,
      })
      .returning();
    disabled = channel!.id;
  });
  // Each test as a new user: submits are rate limited per session, refused ones included.
  beforeEach(async () => {
    trader = await server.trader();
    proofImg = await server.proof(trader.userId);
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  /** Sends the request and expects the refusal, with nothing written anywhere. */
  async function refused(send: () => Promise<{ code: number; msg: string }>, code: number, msg: string | RegExp) {
    const before = await server.counts();
    const answer = await send();
    expect(answer.code).toBe(code);
    if (typeof msg === 'string') expect(answer.msg).toBe(msg);
    else expect(answer.msg).toMatch(msg);
    expect(await server.counts()).toEqual(before);
  }

  const coin = (body: Record<string, unknown>) => () =>
    server.submitCoin(trader, { number: '100', proofImg, charge_id: trc20, ...body });
  const finance = () => server.operatorHeaders('alice', 'finance');
  const wire = (body: Record<string, unknown>) => () =>
    server.submitWire(trader, { number: '100', proofImg, wire_id: usdWire, ...body });

  it.each([
    ['a negative amount', { number: '-5' }, 1001, AMOUNT],
    ['a zero amount', { number: 0 }, 1001, AMOUNT],
    ['three decimals', { number: '10.123' }, 1001, AMOUNT],
    ['a huge amount', { number: '1e30' }, 1001, AMOUNT],
    ['an amount past any limit', { number: '99999999999999' }, 1001, AMOUNT],
    ['an amount of the wrong type', { number: true }, 1001, AMOUNT],
    ['an amount as an array', { number: ['100'] }, 1001, AMOUNT],
    ['no amount', { number: undefined }, 1001, AMOUNT],
    [
      'below the channel minimum',
      { number: '9.99' },
      1002,
      'The amount must be between 10.00 and 100000.00 USD for this channel',
    ],
    [
      'above the channel maximum',
      { number: '100000.01' },
      1002,
      'The amount must be between 10.00 and 100000.00 USD for this channel',
    ],
    ['an unknown channel', { charge_id: 999999 }, 1001, CHANNEL],
    ['a channel id of the wrong type', { charge_id: 'TRC20' }, 1001, CHANNEL],
    ['a zero channel id', { charge_id: 0 }, 1001, CHANNEL],
    ['no proof', { proofImg: undefined }, 1001, 'Upload a proof of payment'],
    ['a proof that is no upload reference', { proofImg: '../../etc/passwd' }, 1001, UPLOAD],
    ['an unknown upload', { proofImg: 'AAAAAAAAAAAAAAAAAAAAAA' }, 1001, UPLOAD],
    [
      'a NUL in the proof',
      { proofImg: 'abc\u0000def' },
      1001,
      'The text contains control or invisible characters; please remove them',
    ],
    [
      'a NUL in the address',
      { address: 'T\u0000x' },
      1001,
      'Address contains control or invisible characters; please remove them',
    ],
    ['an over-long address', { address: 'T'.repeat(201) }, 1001, 'The value is too long'],
  ])('coin submit refuses %s', async (_, body, code, msg) => {
    await refused(coin(body), code, msg);
  });

  it('coin submit refuses a disabled channel, a bank account as the channel, and another user’s upload', async () => {
    await refused(coin({ charge_id: disabled }), 1001, CHANNEL);
    await refused(coin({ charge_id: usdWire }), 1001, CHANNEL);
    await refused(coin({ proofImg: othersProof }), 1001, UPLOAD);
  });

  it.each([
    ['a negative amount', { number: -100 }, 1001, AMOUNT],
    ['three decimals', { number: 100.001 }, 1001, AMOUNT],
    ['below the minimum', { number: '99.99' }, 1002, 'The amount must be between 100.00 and 500000.00 USD for this channel'],
    ['an unknown account', { wire_id: 424242 }, 1001, CHANNEL],
    ['an account id as text', { wire_id: '1; DROP TABLE deposits' }, 1001, CHANNEL],
  ])('wire submit refuses %s', async (_, body, code, msg) => {
    await refused(wire(body), code, msg);
  });

  it('wire submit refuses a coin channel as the bank account and another user’s upload', async () => {
    await refused(wire({ wire_id: trc20 }), 1001, CHANNEL);
    await refused(wire({ proofImg: othersProof }), 1001, UPLOAD);
  });

  it('refuses a proof already used by another deposit, even when both are sent at once', async () => {
    const first = await server.submitWire(trader, { number: '150', proofImg, wire_id: usdWire });
    expect(first.code).toBe(1);
    const message = 'This payment proof was already used for another deposit; upload the proof of this payment';
    await refused(() => server.submitCoin(trader, { number: '20', proofImg, charge_id: trc20 }), 1001, message);

    const shared = await server.proof(trader.userId);
    const racing = await Promise.all(
      Array.from({ length: 4 }, () => server.submitWire(trader, { number: '150', proofImg: shared, wire_id: usdWire })),
    );
    expect(racing.filter((answer) => answer.code === 1)).toHaveLength(1);
    expect(racing.filter((answer) => answer.code === 1001).map((answer) => answer.msg)).toEqual([message, message, message]);
  });

  it('answers in the caller’s language', async () => {
    const answer = await server.call('POST', ApiPath.chargeSubmit, {
      token: trader.token,
      lang: 'de',
      body: { number: '5', proofImg, charge_id: trc20 },
    });
    expect(answer).toMatchObject({ code: 1002, msg: 'Der Betrag muss für diesen Kanal zwischen 10.00 und 100000.00 USD liegen' });
    const hk = await server.call('POST', ApiPath.wireSubmit, {
      token: trader.token,
      lang: 'hk',
      body: { number: '100', proofImg, wire_id: trc20 },
    });
    expect(hk).toMatchObject({ code: 1001, msg: '此入金渠道無法使用，請選擇其他渠道' });
  });

  it('refuses a bad Idempotency-Key header', async () => {
    await refused(
      () => server.submitCoin(trader, { number: '100', proofImg, charge_id: trc20 }, { 'idempotency-key': 'has spaces in it' }),
      1001,
      'Invalid Idempotency-Key header',
    );
  });

  it('refuses a session past 20 submits a minute with 1429', async () => {
    const answers = [];
    for (let index = 0; index < 20; index += 1)
      answers.push(await server.submitCoin(trader, { number: '5', proofImg, charge_id: trc20 }));
    expect(answers.every((answer) => answer.code === 1002)).toBe(true);
    await refused(coin({}), 1429, /.+/);
    // Another session is not held back by this one.
    const fresh = await server.trader();
    const allowed = await server.submitCoin(fresh, {
      number: '100',
      proofImg: await server.proof(fresh.userId),
      charge_id: trc20,
    });
    expect(allowed.code).toBe(1);
  });

  it('refuses demo users and visitors on every deposit call', async () => {
    const demo = await server.trader({ isDemo: true, balance: '10000' });
    const demoProof = await server.proof(demo.userId);
    const calls: [method: 'GET' | 'POST', path: string, body?: Record<string, unknown>][] = [
      ['GET', ApiPath.chargeInfo],
      ['GET', ApiPath.chargeSymbols],
      ['GET', ApiPath.wireInfo],
      ['GET', ApiPath.depositList],
      ['POST', ApiPath.chargeSubmit, { number: '100', proofImg: demoProof, charge_id: trc20 }],
      ['POST', ApiPath.wireSubmit, { number: '100', proofImg: demoProof, wire_id: usdWire }],
    ];
    for (const [method, path, body] of calls) {
      await refused(() => server.call(method, path, { token: demo.token, body }), 1003, DEMO);
      await refused(() => server.call(method, path, { token: null, body }), 999, 'Please log in first');
    }
  });

  it('refuses bad list and wire_info queries', async () => {
    const get = (path: string) => () => server.call('GET', path, { token: trader.token });
    await refused(get(`${ApiPath.depositList}?type=3`), 1001, 'Invalid type: choose digital currency or bank');
    await refused(get(`${ApiPath.depositList}?type=0x1`), 1001, 'Invalid type: choose digital currency or bank');
    await refused(get(`${ApiPath.depositList}?page=0`), 1001, 'The page number is not valid');
    await refused(get(`${ApiPath.depositList}?page=-1`), 1001, 'The page number is not valid');
    await refused(
      get(`${ApiPath.wireInfo}?bank_coin=%00`),
      1001,
      'The text contains control or invisible characters; please remove them',
    );
    await refused(get(`${ApiPath.wireInfo}?bank_coin=${'E'.repeat(17)}`), 1001, 'The value is too long');
  });

  it('shows nobody another user’s records, and an operator cannot decide an unknown one', async () => {
    const mine = await server.submitCoin(trader, { number: '100', proofImg, charge_id: trc20 });
    expect(mine.code).toBe(1);
    const theirs = await server.list(other);
    expect(theirs.data).toMatchObject({ data: [], total: 0 });

    await refused(() => server.operator('approve', 999999), 1004, 'Deposit record not found');
    await refused(() => server.operator('reject', 999999, { reason: 'x' }), 1004, 'Deposit record not found');
  });

  it('refuses bad operator requests and changes nothing', async () => {
    const submitted = await server.submitCoin(trader, { number: '100', proofImg, charge_id: trc20 });
    const id = submitted.data.id;
    await refused(() => server.operator('approve', id, { credited_amount: '-1' }), 1001, AMOUNT);
    await refused(() => server.operator('approve', id, { credited_amount: 0 }), 1001, AMOUNT);
    await refused(() => server.operator('approve', id, { credited_amount: '1.005' }), 1001, AMOUNT);
    await refused(() => server.operator('approve', id, { credited_amount: 'lots' }), 1001, AMOUNT);
    await refused(() => server.operator('reject', id, {}), 1001, 'Enter the reason shown to the user');
    await refused(() => server.operator('void', id, { reason: '   ' }), 1001, 'Enter the reason shown to the user');
    await refused(
      () => server.operator('void', id, { reason: 'bad\u0000reason' }),
      1001,
      'Reason contains control or invisible characters; please remove them',
    );
    await refused(() => server.operator('void', id, { reason: 'r'.repeat(201) }), 1001, 'The value is too long');
    await refused(
      async () => server.call('POST', `/admin/api/deposits/abc/approve`, { body: {}, headers: await finance() }),
      1001,
      'Invalid record number',
    );
    const SIGN_IN = 'Please sign in to the back office.';
    await refused(() => server.call('POST', `/admin/api/deposits/${id}/approve`, { body: {} }), 999, SIGN_IN);
    await refused(
      () =>
        server.call('POST', `/admin/api/deposits/${id}/approve`, {
          body: {},
          headers: { authorization: 'Bearer pwo_guessed' },
        }),
      999,
      SIGN_IN,
    );
    await refused(
      () => server.call('POST', `/admin/api/deposits/${id}/approve`, { token: trader.token, body: {} }),
      999,
      SIGN_IN,
    );
    await refused(
      async () =>
        server.call('POST', `/admin/api/deposits/${id}/approve`, {
          body: {},
          headers: await server.operatorHeaders('sam', 'support'),
        }),
      1003,
      'Your role may not do this.',
    );
    await refused(
      async () => server.call('GET', '/admin/api/deposits?status=7', { headers: await finance() }),
      1001,
      'Invalid deposit status: use 0, 1, 2 or 3',
    );
    const [row] = await server.database.db.select().from(depositChannels).where(eq(depositChannels.id, trc20));
    expect(row?.enabled).toBe(true);
  });
});
