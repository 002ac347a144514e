import { ApiPath, ResponseCode } from '@pipwise/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS } from './harness.js';
import { ADDRESSES, startWithdrawalServer, type WithdrawalServer } from './withdrawals-helpers.js';

interface BadCase {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** Who calls: the trader (a fresh session each time), a demo user, nobody, or an operator. */
  as?: 'trader' | 'demo' | 'anonymous' | 'operator' | 'no-operator';
  body?: Record<string, unknown>;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  code: number;
  msg: string;
}

describe.each(DB_KINDS)('withdrawals refuse bad input on %s, changing nothing', (kind) => {
  let server: WithdrawalServer;
  let trader: Trader;
  let demo: Trader;
  let ids: { trc20: number; erc20: number; usd: number; method: number; others: number; deleted: number; othersRecord: number };

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
    trader = await server.trader({ balance: '1000' });
    demo = await server.trader({ balance: '1000', isDemo: true });
    const other = await server.trader({ balance: '1000' });
    const trc20 = await server.currency('TRC20');
    const erc20 = await server.currency('ERC20');
    const usd = await server.currency('USD');
    const mine = await server.usableMethod(await server.session(trader));
    const theirs = await server.usableMethod(await server.session(other));
    const doomed = await server.bind(await server.session(trader), { type: 1, draw_id: erc20.id, dc_address: ADDRESSES.ERC20 });
    await server.call('POST', ApiPath.delDrawMethod, {
      token: (await server.session(trader)).token,
      body: { id: doomed.data.id },
    });
    const othersRecord = await server.draw(await server.session(other), {
      draw_currency_id: trc20.id,
      number: '50',
      draw_method_id: theirs.methodId,
    });
    ids = {
      trc20: trc20.id,
      erc20: erc20.id,
      usd: usd.id,
      method: mine.methodId,
      others: theirs.methodId,
      deleted: doomed.data.id,
      othersRecord: othersRecord.data.id,
    };
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await expectLedgerInvariants(server.database.db);
  });

  const draw = (fields: Record<string, unknown>) => ({
    draw_currency_id: ids.trc20,
    number: '100',
    draw_method_id: ids.method,
    ...fields,
  });
  const coin = (fields: Record<string, unknown>) => ({ type: 1, draw_id: ids.trc20, dc_address: ADDRESSES.TRC20, ...fields });
  const bank = (fields: Record<string, unknown>) => ({
    type: 2,
    draw_id: ids.usd,
    bank_name: 'Chase',
    payee_name: 'Ada Lovelace',
    payee_account: '000123456789',
    ...fields,
  });
  const amountInvalid = 'Enter an amount greater than 0 with at most 2 decimals';
  const methodMissing = 'Payout method not found';

  const cases = (): BadCase[] => [
    ...['abc', -5, 0, '0.00', '1.005', 12.345, '1e3', '99999999999999', ' ', true, null].map((number): BadCase => ({
      name: `draw number ${JSON.stringify(number)}`,
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ number }),
      code: ResponseCode.invalidInput,
      msg: amountInvalid,
    })),
    {
      name: 'draw form amount with 3 decimals',
      method: 'POST',
      path: ApiPath.draw,
      form: { draw_currency_id: String(ids.trc20), number: '10.001', draw_method_id: String(ids.method) },
      code: ResponseCode.invalidInput,
      msg: amountInvalid,
    },
    {
      name: 'draw currency not a number',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ draw_currency_id: 'x' }),
      code: ResponseCode.invalidInput,
      msg: 'Choose a valid withdrawal currency',
    },
    {
      name: 'draw unknown currency',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ draw_currency_id: 99999 }),
      code: ResponseCode.invalidInput,
      msg: 'Choose a valid withdrawal currency',
    },
    {
      name: 'draw without a method',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ draw_method_id: undefined }),
      code: ResponseCode.invalidInput,
      msg: 'Choose a payout address or account',
    },
    {
      name: 'draw to another user’s method',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ draw_method_id: ids.others }),
      code: ResponseCode.notFound,
      msg: methodMissing,
    },
    {
      name: 'draw to an unknown method',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ draw_method_id: 99999 }),
      code: ResponseCode.notFound,
      msg: methodMissing,
    },
    {
      name: 'draw to a deleted method',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ draw_currency_id: ids.erc20, draw_method_id: ids.deleted }),
      code: ResponseCode.notFound,
      msg: methodMissing,
    },
    {
      name: 'draw with a method of another currency',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ draw_currency_id: ids.erc20 }),
      code: ResponseCode.rejected,
      msg: 'This payout method is for another currency',
    },
    {
      name: 'draw below the minimum',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ number: '5' }),
      code: ResponseCode.rejected,
      msg: 'The minimum withdrawal is 10.00 USD',
    },
    {
      name: 'draw above the maximum',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ number: '60000' }),
      code: ResponseCode.rejected,
      msg: 'The maximum withdrawal is 50000.00 USD',
    },
    {
      name: 'draw more than the balance',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ number: '1000.01' }),
      code: ResponseCode.rejected,
      msg: 'You can withdraw at most 1000.00 USD (margin in use and locked funds stay in the account)',
    },
    {
      name: 'draw memo with a NUL byte',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({ memo: 'rent\u0000' }),
      code: ResponseCode.invalidInput,
      msg: 'Memo contains control or invisible characters; please remove them',
    },
    {
      name: 'draw with a bad Idempotency-Key',
      method: 'POST',
      path: ApiPath.draw,
      body: draw({}),
      headers: { 'idempotency-key': 'no spaces allowed' },
      code: ResponseCode.invalidInput,
      msg: 'Invalid Idempotency-Key header',
    },
    {
      name: 'draw from a demo account',
      method: 'POST',
      path: ApiPath.draw,
      as: 'demo',
      body: draw({}),
      code: ResponseCode.forbidden,
      msg: 'Please register or log in to a real account',
    },
    {
      name: 'draw not logged in',
      method: 'POST',
      path: ApiPath.draw,
      as: 'anonymous',
      body: draw({}),
      code: ResponseCode.notLoggedIn,
      msg: 'Please log in first',
    },
    {
      name: 'draw_symbol_list type 3',
      method: 'GET',
      path: `${ApiPath.drawSymbols}?type=3`,
      code: ResponseCode.invalidInput,
      msg: 'Invalid type: choose digital currency or bank',
    },
    {
      name: 'draw_symbol_list without type',
      method: 'GET',
      path: ApiPath.drawSymbols,
      code: ResponseCode.invalidInput,
      msg: 'Invalid type: choose digital currency or bank',
    },
    {
      name: 'draw_symbol_list from a demo account',
      method: 'GET',
      path: `${ApiPath.drawSymbols}?type=1`,
      as: 'demo',
      code: ResponseCode.forbidden,
      msg: 'Please register or log in to a real account',
    },
    {
      name: 'draw_list page 0',
      method: 'GET',
      path: `${ApiPath.drawList}?page=0`,
      code: ResponseCode.invalidInput,
      msg: 'The page number is not valid',
    },
    {
      name: 'draw_list type 5',
      method: 'GET',
      path: `${ApiPath.drawList}?type=5`,
      code: ResponseCode.invalidInput,
      msg: 'Invalid type: choose digital currency or bank',
    },
    {
      name: 'draw_list not logged in',
      method: 'GET',
      path: ApiPath.drawList,
      as: 'anonymous',
      code: ResponseCode.notLoggedIn,
      msg: 'Please log in first',
    },
    {
      name: 'draw_cancel id not a number',
      method: 'POST',
      path: ApiPath.drawCancel,
      body: { id: 'x' },
      code: ResponseCode.invalidInput,
      msg: 'Invalid record number',
    },
    {
      name: 'draw_cancel negative id',
      method: 'POST',
      path: ApiPath.drawCancel,
      body: { id: -1 },
      code: ResponseCode.invalidInput,
      msg: 'Invalid record number',
    },
    {
      name: 'draw_cancel another user’s record',
      method: 'POST',
      path: ApiPath.drawCancel,
      body: { id: ids.othersRecord },
      code: ResponseCode.notFound,
      msg: 'Withdrawal not found',
    },
    {
      name: 'draw_cancel unknown record',
      method: 'POST',
      path: ApiPath.drawCancel,
      body: { id: 99999 },
      code: ResponseCode.notFound,
      msg: 'Withdrawal not found',
    },
    {
      name: 'get_draw_method without draw_type',
      method: 'GET',
      path: ApiPath.getDrawMethod,
      code: ResponseCode.invalidInput,
      msg: 'Invalid type: choose digital currency or bank',
    },
    {
      name: 'get_draw_method draw_id not a number',
      method: 'GET',
      path: `${ApiPath.getDrawMethod}?draw_type=1&draw_id=x`,
      code: ResponseCode.invalidInput,
      msg: 'Choose a valid withdrawal currency',
    },
    {
      name: 'bind type 3',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ type: 3 }),
      code: ResponseCode.invalidInput,
      msg: 'Invalid type: choose digital currency or bank',
    },
    {
      name: 'bind without type',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ type: undefined }),
      code: ResponseCode.invalidInput,
      msg: 'Invalid type: choose digital currency or bank',
    },
    {
      name: 'bind TRC20 with a bad checksum',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ dc_address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8' }),
      code: ResponseCode.invalidInput,
      msg: 'This is not a valid TRC20 address',
    },
    {
      name: 'bind TRC20 with an Ethereum address',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ dc_address: ADDRESSES.ERC20 }),
      code: ResponseCode.invalidInput,
      msg: 'This is not a valid TRC20 address',
    },
    {
      name: 'bind ERC20 with a bad EIP-55 checksum',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ draw_id: ids.erc20, dc_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }),
      code: ResponseCode.invalidInput,
      msg: 'This is not a valid ERC20 address',
    },
    {
      name: 'bind ERC20 too short',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ draw_id: ids.erc20, dc_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA' }),
      code: ResponseCode.invalidInput,
      msg: 'This is not a valid ERC20 address',
    },
    {
      name: 'bind without an address',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ dc_address: '  ' }),
      code: ResponseCode.invalidInput,
      msg: 'Enter the receiving address',
    },
    {
      name: 'bind address with a NUL byte',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ dc_address: `${ADDRESSES.TRC20}\u0000` }),
      code: ResponseCode.invalidInput,
      msg: 'Address contains control or invisible characters; please remove them',
    },
    {
      name: 'bind coin to a bank currency',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ draw_id: ids.usd }),
      code: ResponseCode.invalidInput,
      msg: 'Choose a valid withdrawal currency',
    },
    {
      name: 'bind unknown currency',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: coin({ draw_id: 99999 }),
      code: ResponseCode.invalidInput,
      msg: 'Choose a valid withdrawal currency',
    },
    {
      name: 'bind an IBAN with wrong check digits',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: bank({ payee_account: 'DE89370400440532013001' }),
      code: ResponseCode.invalidInput,
      msg: 'The IBAN is not valid: check the country code and check digits',
    },
    {
      name: 'bind an IBAN of the wrong length',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: bank({ payee_account: 'GB82WEST1234569876543' }),
      code: ResponseCode.invalidInput,
      msg: 'The IBAN is not valid: check the country code and check digits',
    },
    {
      name: 'bind a BIC with no such country',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: bank({ bank_swift: 'DEUTXXFF500' }),
      code: ResponseCode.invalidInput,
      msg: 'The BIC/SWIFT code is not valid',
    },
    {
      name: 'bind a BIC of the wrong length',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: bank({ bank_swift: 'DEUTDEF' }),
      code: ResponseCode.invalidInput,
      msg: 'The BIC/SWIFT code is not valid',
    },
    {
      name: 'bind an account number with symbols',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: bank({ payee_account: '12#34/56' }),
      code: ResponseCode.invalidInput,
      msg: 'The account number may contain only letters, digits, spaces and hyphens',
    },
    {
      name: 'bind without a bank name',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: bank({ bank_name: '' }),
      code: ResponseCode.invalidInput,
      msg: 'Enter the bank name',
    },
    {
      name: 'bind without the holder’s name',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: bank({ payee_name: undefined }),
      code: ResponseCode.invalidInput,
      msg: 'Enter the account holder’s name',
    },
    {
      name: 'bind a BIC too long',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      body: bank({ bank_swift: 'DEUTDEFF5000' }),
      code: ResponseCode.invalidInput,
      msg: 'The value is too long',
    },
    {
      name: 'bind from a demo account',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      as: 'demo',
      body: coin({}),
      code: ResponseCode.forbidden,
      msg: 'Please register or log in to a real account',
    },
    {
      name: 'bind not logged in',
      method: 'POST',
      path: ApiPath.bindDrawMethod,
      as: 'anonymous',
      body: coin({}),
      code: ResponseCode.notLoggedIn,
      msg: 'Please log in first',
    },
    {
      name: 'del another user’s method',
      method: 'POST',
      path: ApiPath.delDrawMethod,
      body: { id: ids.others },
      code: ResponseCode.notFound,
      msg: methodMissing,
    },
    {
      name: 'del a deleted method',
      method: 'POST',
      path: ApiPath.delDrawMethod,
      body: { id: ids.deleted },
      code: ResponseCode.notFound,
      msg: methodMissing,
    },
    {
      name: 'del id not a number',
      method: 'POST',
      path: ApiPath.delDrawMethod,
      body: { id: '1; DROP TABLE payout_methods' },
      code: ResponseCode.invalidInput,
      msg: methodMissing,
    },
    {
      name: 'operator call without the token',
      method: 'POST',
      path: `/admin/api/withdrawals/${ids.othersRecord}/approve`,
      as: 'no-operator',
      code: ResponseCode.notLoggedIn,
      msg: 'Please sign in to the back office.',
    },
    {
      name: 'operator call with a guessed operator token',
      method: 'POST',
      path: `/admin/api/withdrawals/${ids.othersRecord}/approve`,
      as: 'no-operator',
      headers: { authorization: 'Bearer pwo_guessed' },
      code: ResponseCode.notLoggedIn,
      msg: 'Please sign in to the back office.',
    },
    {
      name: "operator call with a user's token",
      method: 'POST',
      path: `/admin/api/withdrawals/${ids.othersRecord}/approve`,
      as: 'trader',
      code: ResponseCode.notLoggedIn,
      msg: 'Please sign in to the back office.',
    },
    {
      name: 'operator reject without a reason',
      method: 'POST',
      path: `/admin/api/withdrawals/${ids.othersRecord}/reject`,
      as: 'operator',
      body: {},
      code: ResponseCode.invalidInput,
      msg: 'Enter a reason; the user will see it',
    },
    {
      name: 'operator approve of an unknown record',
      method: 'POST',
      path: '/admin/api/withdrawals/99999/approve',
      as: 'operator',
      code: ResponseCode.notFound,
      msg: 'Withdrawal not found',
    },
    {
      name: 'operator approve with a bad id',
      method: 'POST',
      path: '/admin/api/withdrawals/abc/approve',
      as: 'operator',
      code: ResponseCode.invalidInput,
      msg: 'Invalid record number',
    },
    {
      name: 'operator queue of status 7',
      method: 'GET',
      path: '/admin/api/withdrawals?status=7',
      as: 'operator',
      code: ResponseCode.invalidInput,
      msg: 'Status must be 0 to 3',
    },
  ];

  it('answers each bad request with its message and leaves every record and balance as it was', async () => {
    const before = await server.snapshot();
    for (const bad of cases()) {
      const token =
        bad.as === 'demo'
          ? demo.token
          : bad.as === 'anonymous' || bad.as === 'operator' || bad.as === 'no-operator'
            ? null
            : (await server.session(trader)).token;
      const headers = {
        ...(bad.as === 'operator' ? await server.operatorHeaders('alice', 'finance') : {}),
        ...bad.headers,
      };
      const answer = await server.call(bad.method, bad.path, { token, body: bad.body, form: bad.form, headers });
      expect({ name: bad.name, code: answer.code, msg: answer.msg, data: answer.data }).toEqual({
        name: bad.name,
        code: bad.code,
        msg: bad.msg,
        data: null,
      });
    }
    expect(await server.snapshot()).toEqual(before);
  });

  it('limits writes per session: the 21st in a minute is refused, another session is not', async () => {
    const session = await server.session(trader);
    const bad = coin({ dc_address: 'not an address' });
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await server.call('POST', ApiPath.bindDrawMethod, { token: session.token, body: bad })).code).toBe(
        ResponseCode.invalidInput,
      );
    }
    const limited = await server.call('POST', ApiPath.bindDrawMethod, { token: session.token, body: bad });
    expect(limited).toMatchObject({ status: 429, code: ResponseCode.tooManyRequests });
    const fresh = await server.call('POST', ApiPath.bindDrawMethod, { token: (await server.session(trader)).token, body: bad });
    expect(fresh.code).toBe(ResponseCode.invalidInput);
  });

  it('answers in the caller’s language', async () => {
    const token = (await server.session(trader)).token;
    const japanese = await server.call('POST', ApiPath.draw, { token, body: draw({ number: '5' }), lang: 'jp' });
    expect(japanese.msg).toBe('最低出金額は 10.00 USD です');
    const arabic = await server.call('POST', ApiPath.bindDrawMethod, { token, body: coin({ dc_address: 'T123' }), lang: 'ar' });
    expect(arabic.msg).toBe('هذا ليس عنوان TRC20 صالحًا');
  });
});
