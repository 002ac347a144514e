import { ApiPath, LANGUAGES, type CategoryView, type InstrumentAdminView, type TradePairView } from '@pipwise/domain';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, categories, instruments } from '../src/db/schema.js';
import { DB_KINDS } from './harness.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

/**
 * Instruments and categories through the back office: validation that changes nothing, the audit row of
 * each change, roles, and a change applied in place (the next quote's ask uses the new spread, a
 * disabled instrument leaves the lists and takes no new order while its open position still closes).
 */
describe.each(DB_KINDS)('catalogue: instruments and categories on %s', (kind) => {
  let server: TradingServer;
  let content: Record<string, string>;
  let eurusd: number;

  beforeAll(async () => {
    server = await startTradingServer(kind);
    content = await server.operatorHeaders('carla', 'content');
    eurusd = server.instrumentId('EURUSD');
  });
  afterAll(() => server.close());

  const put = (id: number, body: Record<string, unknown>, headers = content) =>
    server.call<InstrumentAdminView>('PUT', `/admin/api/instruments/${id}`, { body, headers });
  const stored = async (id: number) => (await server.database.db.select().from(instruments).where(eq(instruments.id, id)))[0]!;
  const auditRows = () => server.database.db.select().from(auditLog).orderBy(desc(auditLog.id));
  const tradeList = async (lang = 'en') => (await server.call<TradePairView[]>('GET', ApiPath.tradeList, { lang })).data;

  it('lists every instrument with its rules as exact decimals', async () => {
    const answer = await server.call<InstrumentAdminView[]>('GET', '/admin/api/instruments', { headers: content });
    expect(answer.code).toBe(1);
    expect(answer.data.find((row) => row.code === 'EURUSD')).toMatchObject({
      id: eurusd,
      spread: '0.00008',
      leverages: [10, 20, 50, 100, 200, 500],
      fee_rate: '0.005',
      min_lots: '0.01',
      lot_step: '0.01',
      max_lots: '50',
      enabled: true,
    });
  });

  it('refuses bad changes with a clear message, changing nothing and auditing nothing', async () => {
    const before = await stored(eurusd);
    const audits = (await auditRows()).length;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ spread: '0.000001' }, 1001, "The spread has more decimals than the instrument's prices (5)."],
      [{ spread: '-0.0001' }, 1001, 'The spread must be a decimal number, zero or more.'],
      [{ spread: 'wide' }, 1001, 'The spread must be a decimal number, zero or more.'],
      [{ leverages: [] }, 1001, 'Leverages must be 1 to 20 different whole numbers from 1 to 1000.'],
      [{ leverages: [10, 10] }, 1001, 'Leverages must be 1 to 20 different whole numbers from 1 to 1000.'],
      [{ leverages: [10, 2.5] }, 1001, 'Leverages must be 1 to 20 different whole numbers from 1 to 1000.'],
      [{ leverages: [0] }, 1001, 'Leverages must be 1 to 20 different whole numbers from 1 to 1000.'],
      [{ leverages: '100' }, 1001, 'Leverages must be 1 to 20 different whole numbers from 1 to 1000.'],
      [{ fee_rate: '1e-3' }, 1001, 'The fee rate must be zero or more, with at most 8 decimals.'],
      [{ min_lots: '0' }, 1001, 'Minimum lots, lot step and maximum lots must be more than zero, with at most 4 decimals.'],
      [{ lot_step: '0.00001' }, 1001, 'Minimum lots, lot step and maximum lots must be more than zero, with at most 4 decimals.'],
      [{ min_lots: '60' }, 1001, 'The minimum lots (60) must not be more than the maximum lots (50).'],
      [{ min_lots: 5, max_lots: 1 }, 1001, 'The minimum lots (5) must not be more than the maximum lots (1).'],
      [{ enabled: 'no' }, 1001, 'Enabled must be true or false.'],
      [{ sort: 1.5 }, 1001, 'The sort order must be a whole number from -1000000 to 1000000.'],
      [{ name: '  ' }, 1001, 'The name must be 1 to 100 characters.'],
      [{}, 1001, 'Nothing to change: name at least one field.'],
      [{ code: 'HACKED' }, 1001, 'Nothing to change: name at least one field.'],
    ];
    for (const [body, code, msg] of cases) {
      const answer = await put(eurusd, body);
      expect({ body, code: answer.code, msg: answer.msg }).toEqual({ body, code, msg });
    }
    expect(await put(999_999, { spread: '0.0001' })).toMatchObject({ code: 1004, msg: 'This product does not exist' });
    expect(await put(0, { spread: '0.0001' })).toMatchObject({ code: 1004, msg: 'This product does not exist' });
    expect(await put(Number.NaN, { spread: '0.0001' })).toMatchObject({ code: 1004 });
    expect(await stored(eurusd)).toEqual(before);
    expect((await auditRows()).length).toBe(audits);
  });

  it('refuses roles other than content (and superadmin)', async () => {
    for (const role of ['finance', 'support', 'compliance'] as const) {
      const headers = await server.operatorHeaders(`no-${role}`, role);
      expect(await put(eurusd, { spread: '0.001' }, headers)).toMatchObject({ code: 1003, msg: 'Your role may not do this.' });
      expect((await server.call('GET', '/admin/api/instruments', { headers })).code).toBe(1003);
    }
    expect((await server.call('GET', '/admin/api/instruments')).code).toBe(999);
    expect((await put(eurusd, { sort: 1 }, await server.operatorHeaders('root', 'superadmin'))).code).toBe(1);
  });

  it('a spread change is used by the next quote, without a restart and without resetting the quote', async () => {
    await server.tick('EURUSD', '1.10000');
    expect(server.market.getQuote(eurusd)).toMatchObject({ bid: '1.10000', ask: '1.10008' });
    await server.tick('EURUSD', '1.10300');
    const high = server.market.getQuote(eurusd)!.high;

    const answer = await put(eurusd, { spread: 0.0002 });
    expect(answer).toMatchObject({ code: 1, data: { spread: '0.00020' } });
    expect(server.market.getInstrument(eurusd)!.spread.toFixed()).toBe('0.0002');

    await server.tick('EURUSD', '1.10000');
    expect(server.market.getQuote(eurusd)).toMatchObject({ bid: '1.10000', ask: '1.10020', high });
    const listed = (await tradeList()).find((pair) => pair.Id === eurusd)!;
    expect(listed.ForexQuotations).toMatchObject({ Bid: 1.1, Ask: 1.1002 });

    const [audit] = await auditRows();
    expect(audit).toMatchObject({
      actor: 'operator:carla@ops.test',
      action: 'instrument.update',
      targetType: 'instrument',
      targetId: String(eurusd),
      before: expect.objectContaining({ spread: '0.00008' }),
      after: expect.objectContaining({ spread: '0.00020' }),
    });
  });

  it('rules, name and order change at once for the app and the order ticket', async () => {
    const answer = await put(eurusd, {
      leverages: [200, 50, 100],
      fee_rate: '0.004',
      min_lots: '0.1',
      lot_step: '0.1',
      max_lots: '10',
      name: 'Euro vs Dollar',
      sort: -5,
    });
    expect(answer).toMatchObject({ code: 1, data: { leverages: [50, 100, 200], min_lots: '0.1', max_lots: '10' } });
    const listed = await tradeList();
    expect(listed[0]).toMatchObject({
      Id: eurusd,
      Name: 'Euro vs Dollar',
      Pip: 0.1,
      ForexMinCont: 0.1,
      ForexMaxCont: 10,
      ForexFeeRate: 0.004,
      HasForexMultiple: [{ Value: 50 }, { Value: 100 }, { Value: 200 }],
    });
    const trader = await server.trader({ balance: '100000' });
    const refused = await server.submit(trader, { type: 1, cont: '0.05', forex_id: eurusd, status: 1, multiple: 100 });
    expect(refused).toMatchObject({ code: 1001 });
    const offLeverage = await server.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 500 });
    expect(offLeverage).toMatchObject({ code: 1001 });
  });

  it('a disabled instrument leaves the lists and takes no new order; its open position still closes', async () => {
    const trader = await server.trader({ balance: '100000' });
    await server.tick('EURUSD', '1.10000');
    const opened = await server.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    expect(opened.code).toBe(1);
    const orderId = (opened.data as { Id: number }).Id;

    expect(await put(eurusd, { enabled: false })).toMatchObject({ code: 1, data: { enabled: false } });
    expect((await tradeList()).map((pair) => pair.Id)).not.toContain(eurusd);
    const all = await server.call<InstrumentAdminView[]>('GET', '/admin/api/instruments', { headers: content });
    expect(all.data.find((row) => row.id === eurusd)).toMatchObject({ enabled: false });

    const refused = await server.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    expect(refused).toMatchObject({ code: 1004, msg: 'This product does not exist' });

    await server.tick('EURUSD', '1.10100');
    const closed = await server.call('POST', ApiPath.closeOrder, { token: trader.token, body: { id: orderId } });
    expect(closed.code).toBe(1);

    expect(await put(eurusd, { enabled: true })).toMatchObject({ code: 1 });
    expect((await tradeList()).map((pair) => pair.Id)).toContain(eurusd);
  });

  it('creates and renames categories in every language; the app shows them at once', async () => {
    const names = Object.fromEntries(LANGUAGES.map((lang) => [lang, `Futures ${lang}`]));
    const created = await server.call<{ id: number }>('POST', '/admin/api/categories', {
      headers: content,
      body: { slug: 'futures', sort: 9, names },
    });
    expect(created).toMatchObject({ code: 1, data: { slug: 'futures', sort: 9, names } });
    const shown = async (lang: string) => (await server.call<CategoryView[]>('GET', ApiPath.categories, { lang })).data;
    expect((await shown('jp')).at(-1)).toEqual({ Id: created.data.id, NameShowTrans: 'Futures jp' });

    const renamed = await server.call('PUT', `/admin/api/categories/${created.data.id}`, {
      headers: content,
      body: { names: { ...names, de: 'Terminkontrakte' } },
    });
    expect(renamed.code).toBe(1);
    expect((await shown('de')).at(-1)).toEqual({ Id: created.data.id, NameShowTrans: 'Terminkontrakte' });

    const before = await server.database.db.select().from(categories).orderBy(categories.id);
    const { de: _missing, ...withoutGerman } = names;
    const cases: [string, Record<string, unknown>, number, string][] = [
      [
        'POST',
        { slug: 'bonds', names: withoutGerman },
        1001,
        'The category needs a name in every language of the app, and only in those.',
      ],
      [
        'POST',
        { slug: 'bonds', names: { ...names, xx: 'x' } },
        1001,
        'The category needs a name in every language of the app, and only in those.',
      ],
      [
        'POST',
        { slug: 'bonds', names: { ...names, en: ' ' } },
        1001,
        'The category needs a name in every language of the app, and only in those.',
      ],
      [
        'POST',
        { slug: 'Bonds!', names },
        1001,
        'The slug must be lower-case letters, digits and hyphens, starting with a letter (at most 32).',
      ],
      ['POST', { slug: 'forex', names }, 1009, 'A category with the slug forex already exists.'],
      ['PUT', { slug: 'forex' }, 1009, 'A category with the slug forex already exists.'],
      ['PUT', { sort: 'top' }, 1001, 'The sort order must be a whole number from -1000000 to 1000000.'],
    ];
    for (const [method, body, code, msg] of cases) {
      const path = method === 'POST' ? '/admin/api/categories' : `/admin/api/categories/${created.data.id}`;
      const answer = await server.call(method as 'POST' | 'PUT', path, { headers: content, body });
      expect({ body, code: answer.code, msg: answer.msg }).toEqual({ body, code, msg });
    }
    expect(await server.database.db.select().from(categories).orderBy(categories.id)).toEqual(before);
    expect((await server.call('PUT', '/admin/api/categories/999999', { headers: content, body: { sort: 1 } })).code).toBe(1004);

    const actions = (await auditRows()).filter((row) => row.targetType === 'category').map((row) => row.action);
    expect(actions).toEqual(['category.update', 'category.create']);
  });
});
