import {
  ApiPath,
  CompanyPath,
  type CoinChannelView,
  type CompanyStatusView,
  type WireChannelView,
  type WithdrawCurrencyView,
} from '@pipwise/domain';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, companies, depositChannels, withdrawCurrencies } from '../src/db/schema.js';
import { createTrader, type Trader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

const TRC20_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/**
 * Deposit channels and withdraw currencies (finance), companies (content) through the back office:
 * what users are offered changes at once, bad input changes nothing, every change is audited.
 */
describe.each(DB_KINDS)('cashier catalogue and companies in the back office on %s', (kind) => {
  let server: TestServer;
  let finance: Record<string, string>;
  let content: Record<string, string>;
  let user: Trader;

  beforeAll(async () => {
    server = await startTestServer(kind);
    finance = await server.operatorHeaders('fred', 'finance');
    content = await server.operatorHeaders('carla', 'content');
    user = await createTrader(server.database.db, { balance: '1000' });
  });
  afterAll(() => server.close());

  const audits = (targetType: string) =>
    server.database.db.select().from(auditLog).where(eq(auditLog.targetType, targetType)).orderBy(desc(auditLog.id));
  const call = <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: Record<string, unknown>, headers = finance) =>
    server.call<T>(method, path, { body, headers });

  describe('deposit channels', () => {
    const coinChannels = async () =>
      (await server.call<CoinChannelView[]>('GET', ApiPath.chargeInfo, { token: user.token })).data.map((c) => c.address);

    it('passes its own checks with every example channel of a fresh installation', async () => {
      const listed = await call<{ id: number; sort: number }[]>('GET', '/admin/api/deposit-channels');
      expect(listed.data.length).toBeGreaterThan(0);
      for (const channel of listed.data) {
        const saved = await call('PUT', `/admin/api/deposit-channels/${channel.id}`, { sort: channel.sort });
        expect({ id: channel.id, code: saved.code, msg: saved.msg }).toEqual({ id: channel.id, code: 1, msg: 'Success' });
      }
    });

    it('adds a coin channel users see at once, edits and disables it, each change audited', async () => {
      const created = await call<{ id: number; min_amount: string }>('POST', '/admin/api/deposit-channels', {
        type: 1,
        currency_code: 'USDT',
        protocol_code: 'TRC20',
        address: TRC20_ADDRESS,
        min_amount: 15,
        max_amount: '90000.5',
        sort: 9,
      });
      expect(created).toMatchObject({ code: 1, data: { min_amount: '15.00', max_amount: '90000.50', enabled: true } });
      const id = created.data.id;
      expect(await coinChannels()).toContain(TRC20_ADDRESS);

      expect(await call('PUT', `/admin/api/deposit-channels/${id}`, { min_amount: '25' })).toMatchObject({
        code: 1,
        data: { min_amount: '25.00', address: TRC20_ADDRESS },
      });
      const shown = (await server.call<CoinChannelView[]>('GET', ApiPath.chargeInfo, { token: user.token })).data;
      expect(shown.find((channel) => channel.id === id)).toMatchObject({ min_amount: 25 });

      await call('PUT', `/admin/api/deposit-channels/${id}`, { enabled: false });
      expect(await coinChannels()).not.toContain(TRC20_ADDRESS);

      const listed = await call<{ id: number; enabled: boolean }[]>('GET', '/admin/api/deposit-channels');
      expect(listed.data.find((channel) => channel.id === id)).toMatchObject({ enabled: false });
      const [last, middle, first] = await audits('deposit_channel');
      expect([first!.action, middle!.action, last!.action]).toEqual([
        'deposit_channel.create',
        'deposit_channel.update',
        'deposit_channel.update',
      ]);
      expect(middle).toMatchObject({
        actor: 'operator:fred@ops.test',
        before: expect.objectContaining({ min_amount: '15.00' }),
        after: expect.objectContaining({ min_amount: '25.00' }),
      });
    });

    it('refuses a channel users could not pay into, and other roles, changing nothing', async () => {
      const rows = () => server.database.db.select().from(depositChannels).orderBy(depositChannels.id);
      const before = await rows();
      const auditCount = (await audits('deposit_channel')).length;
      const existing = before.find((channel) => channel.type === 2);
      const coin = {
        type: 1,
        currency_code: 'USDT',
        protocol_code: 'TRC20',
        address: TRC20_ADDRESS,
        min_amount: 10,
        max_amount: 100,
      };
      const bank = {
        type: 2,
        currency_code: 'USD',
        bank_name: 'Bank',
        payee_name: 'Pipwise',
        payee_account: '123',
        min_amount: 10,
        max_amount: 100,
      };
      const cases: [string, Record<string, unknown>, number, string][] = [
        ['POST', { ...coin, address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' }, 1001, 'This is not a valid TRC20 address'],
        [
          'POST',
          { ...coin, protocol_code: '' },
          1001,
          'A coin channel needs its protocol: 2 to 20 capital letters or digits (e.g. TRC20).',
        ],
        ['POST', { ...bank, payee_account: '' }, 1001, "A bank channel needs the bank's name, the payee's name and the account."],
        ['POST', { ...coin, min_amount: 500 }, 1001, 'The minimum amount must not be more than the maximum.'],
        [
          'POST',
          { ...coin, min_amount: '0' },
          1001,
          'Minimum and maximum amounts must be more than zero, with at most 2 decimals.',
        ],
        [
          'POST',
          { ...coin, max_amount: '10.001' },
          1001,
          'Minimum and maximum amounts must be more than zero, with at most 2 decimals.',
        ],
        ['POST', { ...coin, type: 3 }, 1001, 'The type must be 1 (coin) or 2 (bank).'],
        ['POST', { ...coin, currency_code: 'usdt' }, 1001, 'The currency code must be 2 to 10 capital letters or digits.'],
        ['PUT', { max_amount: '1' }, 1001, 'The minimum amount must not be more than the maximum.'],
        ['PUT', { type: 1 }, 1001, 'A coin channel needs its protocol: 2 to 20 capital letters or digits (e.g. TRC20).'],
        ['PUT', { bank_name: '' }, 1001, "A bank channel needs the bank's name, the payee's name and the account."],
      ];
      for (const [method, body, code, msg] of cases) {
        const path = method === 'POST' ? '/admin/api/deposit-channels' : `/admin/api/deposit-channels/${existing!.id}`;
        const answer = await call(method as 'POST', path, body);
        expect({ body, code: answer.code, msg: answer.msg }).toEqual({ body, code, msg });
      }
      expect(await call('PUT', '/admin/api/deposit-channels/999999', { sort: 1 })).toMatchObject({
        code: 1004,
        msg: 'The deposit channel does not exist.',
      });
      expect(await call('POST', '/admin/api/deposit-channels', bank, content)).toMatchObject({ code: 1003 });
      expect(await rows()).toEqual(before);
      expect((await audits('deposit_channel')).length).toBe(auditCount);
    });

    it('keeps bank channels payable: the wire list shows a new bank channel', async () => {
      const created = await call<{ id: number }>('POST', '/admin/api/deposit-channels', {
        type: 2,
        currency_code: 'USD',
        bank_name: 'HSBC',
        payee_name: 'Pipwise Markets Ltd',
        payee_account: '004-123456-001',
        min_amount: 50,
        max_amount: 1000,
      });
      expect(created.code).toBe(1);
      const wires = (await server.call<WireChannelView[]>('GET', `${ApiPath.wireInfo}?bank_coin=USD`, { token: user.token }))
        .data;
      expect(wires.map((wire) => wire.id)).toContain(created.data.id);
    });
  });

  describe('withdraw currencies', () => {
    const offered = async () =>
      (await server.call<WithdrawCurrencyView[]>('GET', `${ApiPath.drawSymbols}?type=1`, { token: user.token })).data;

    it('adds, re-prices and disables a currency; users are offered the current terms at once', async () => {
      const created = await call<{ id: number }>('POST', '/admin/api/withdraw-currencies', {
        type: 1,
        code: 'BTC',
        protocol: 'BTC',
        fee_type: 2,
        draw_rate: '0.002',
        usd_price: '0.00001',
        min_amount: 50,
        max_amount: 20000,
      });
      expect(created).toMatchObject({ code: 1, data: { code: 'BTC', draw_rate: '0.002', usd_price: '0.00001', enabled: true } });
      const id = created.data.id;
      expect((await offered()).find((currency) => currency.id === id)).toMatchObject({ code: 'BTC', min_amount: 50 });

      await call('PUT', `/admin/api/withdraw-currencies/${id}`, { fee_type: 1, draw_rate: '3' });
      expect((await offered()).find((currency) => currency.id === id)).toMatchObject({ fee_type: 1 });
      await call('PUT', `/admin/api/withdraw-currencies/${id}`, { enabled: false });
      expect((await offered()).map((currency) => currency.id)).not.toContain(id);

      const [disabled, repriced] = await audits('withdraw_currency');
      expect(repriced).toMatchObject({
        action: 'withdraw_currency.update',
        before: expect.objectContaining({ fee_type: 2, draw_rate: '0.002' }),
        after: expect.objectContaining({ fee_type: 1, draw_rate: '3' }),
      });
      expect(disabled).toMatchObject({ after: expect.objectContaining({ enabled: false }) });
    });

    it('refuses terms that could not pay out, and other roles, changing nothing', async () => {
      const rows = () => server.database.db.select().from(withdrawCurrencies).orderBy(withdrawCurrencies.id);
      const before = await rows();
      const [existing] = before;
      const coin = {
        type: 1,
        code: 'USDT',
        protocol: 'TRC20',
        fee_type: 1,
        draw_rate: 1,
        usd_price: 1,
        min_amount: 10,
        max_amount: 100,
      };
      const cases: [string, Record<string, unknown>, string][] = [
        [
          'POST',
          { ...coin, fee_type: 2, draw_rate: '1' },
          'The fee must be zero or more with at most 8 decimals; a rate fee must be below 1.',
        ],
        [
          'POST',
          { ...coin, draw_rate: '-1' },
          'The fee must be zero or more with at most 8 decimals; a rate fee must be below 1.',
        ],
        ['POST', { ...coin, fee_type: 3 }, 'The fee type must be 1 (a fixed fee) or 2 (a rate of the amount).'],
        ['POST', { ...coin, usd_price: 0 }, 'The USD price must be more than zero, with at most 8 decimals.'],
        ['POST', { ...coin, protocol: '' }, 'A coin needs its protocol: 2 to 20 capital letters or digits (e.g. TRC20).'],
        ['POST', { ...coin, min_amount: 1000 }, 'The minimum amount must not be more than the maximum.'],
        ['POST', { ...coin, code: 'Tether!' }, 'The currency code must be 2 to 10 capital letters or digits.'],
        ['PUT', { enabled: 1 }, 'Enabled must be true or false.'],
        ['PUT', { min_amount: '99999999' }, 'The minimum amount must not be more than the maximum.'],
      ];
      for (const [method, body, msg] of cases) {
        const path = method === 'POST' ? '/admin/api/withdraw-currencies' : `/admin/api/withdraw-currencies/${existing!.id}`;
        const answer = await call(method as 'POST', path, body);
        expect({ body, code: answer.code, msg: answer.msg }).toEqual({ body, code: 1001, msg });
      }
      expect(await call('PUT', `/admin/api/withdraw-currencies/${existing!.id}`, { sort: 1 }, content)).toMatchObject({
        code: 1003,
      });
      expect(await rows()).toEqual(before);
    });
  });

  describe('companies', () => {
    it('lists, creates and closes a site (status, type, loss_url), audited; the site status follows at once', async () => {
      const listed = await call<{ name: string; status: number }[]>('GET', '/admin/api/companies', undefined, content);
      expect(listed.data[0]).toMatchObject({ name: 'Pipwise', status: 1, type: 0 });

      const created = await call<{ id: number }>(
        'POST',
        '/admin/api/companies',
        { name: 'Orchid Markets', url: 'https://orchid.example' },
        content,
      );
      expect(created).toMatchObject({ code: 1, data: { name: 'Orchid Markets', status: 1, type: 1, loss_url: '' } });
      const id = created.data.id;
      const closed = await call(
        'PUT',
        `/admin/api/companies/${id}`,
        { status: 0, loss_url: 'https://elsewhere.example' },
        content,
      );
      expect(closed).toMatchObject({
        code: 1,
        data: { status: 0, loss_url: 'https://elsewhere.example', name: 'Orchid Markets' },
      });
      const status = await server.call<CompanyStatusView>('GET', CompanyPath.status, { headers: { cookie: `company_id=${id}` } });
      expect(status.data).toEqual({ status: 0, type: 1, loss_url: 'https://elsewhere.example', is_main: false });

      const [update, create] = await audits('company');
      expect(create).toMatchObject({ action: 'company.create', targetId: String(id), actor: 'operator:carla@ops.test' });
      expect(update).toMatchObject({
        action: 'company.update',
        before: expect.objectContaining({ status: 1, loss_url: '' }),
        after: expect.objectContaining({ status: 0 }),
      });
    });

    it('refuses closing a site with nowhere to send its visitors, bad fields and other roles, changing nothing', async () => {
      const rows = () => server.database.db.select().from(companies).orderBy(companies.id);
      const before = await rows();
      const [main] = before;
      const cases: [string, string, Record<string, unknown>, number, string][] = [
        [
          'PUT',
          `/admin/api/companies/${main!.id}`,
          { status: 0 },
          1001,
          'A closed site needs an exit address (loss_url) to send its visitors to.',
        ],
        [
          'POST',
          '/admin/api/companies',
          { name: 'Gone', status: 0 },
          1001,
          'A closed site needs an exit address (loss_url) to send its visitors to.',
        ],
        ['PUT', `/admin/api/companies/${main!.id}`, {}, 1001, 'Nothing to change: name at least one field.'],
        [
          'PUT',
          `/admin/api/companies/${main!.id}`,
          { loss_url: 'javascript:alert(1)' },
          1001,
          'A link must be an http(s) address or a path starting with /',
        ],
        ['PUT', '/admin/api/companies/999999', { name: 'Ghost' }, 1004, 'The company does not exist'],
      ];
      for (const [method, path, body, code, msg] of cases) {
        const answer = await call(method as 'POST', path, body, content);
        expect({ path, body, code: answer.code, msg: answer.msg }).toEqual({ path, body, code, msg });
      }
      expect(await call('PUT', `/admin/api/companies/${main!.id}`, { name: 'X' }, finance)).toMatchObject({ code: 1003 });
      expect(await rows()).toEqual(before);
    });
  });
});
