import { COMPANY_PAGE_SIZE, CompanyPath, type CompanyPageView, type CompanyStatusView, type CompanyView } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_COMPANIES } from '../src/modules/companies/seed.js';
import { createTrader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

const withCompany = (id: number | string) => ({ cookie: `theme=dark; company_id=${id}` });

type SavedCompany = CompanyView & CompanyStatusView & { sort: number };

describe.each(DB_KINDS)('the company (white-label) site on %s', (kind) => {
  let server: TestServer;
  let main: CompanyView;

  const operator = () => server.operatorHeaders('alice', 'content');
  const save = async (body: Record<string, unknown>) => {
    const answer = await server.call<SavedCompany>('POST', CompanyPath.adminSave, { body, headers: await operator() });
    expect(answer, JSON.stringify(body)).toMatchObject({ code: 1 });
    return answer.data;
  };
  const search = (query: string) => server.call<CompanyPageView>('GET', `${CompanyPath.search}?${query}`);

  beforeAll(async () => {
    server = await startTestServer(kind);
    main = (await server.call<CompanyView>('GET', CompanyPath.company)).data;
  });
  afterAll(() => server.close());

  it('seeds the main site and white-label companies into the empty table', async () => {
    expect(main).toMatchObject({ name: 'Pipwise', logo: '/icons/icon.svg' });
    const all = await search('');
    expect(all.data.total).toBe(EXAMPLE_COMPANIES.length);
    expect(all.data.data.map((company) => company.name)).toEqual(EXAMPLE_COMPANIES.map((company) => company.name));
  });

  it('answers the main site without a cookie: open, type 0, isMain', async () => {
    const answer = await server.call<CompanyStatusView>('GET', CompanyPath.status);
    expect(answer).toMatchObject({ code: 1, data: { status: 1, type: 0, loss_url: '', is_main: true } });
  });

  it('answers a white-label company the cookie names: its profile, not main', async () => {
    const harbor = (await search('name=harbor')).data.data[0]!;
    const status = await server.call<CompanyStatusView>('GET', CompanyPath.status, { headers: withCompany(harbor.id) });
    expect(status.data).toEqual({ status: 1, type: 1, loss_url: '', is_main: false });
    const company = await server.call<CompanyView>('GET', CompanyPath.company, { headers: withCompany(harbor.id) });
    expect(company.data).toEqual({
      id: harbor.id,
      name: 'Harbor Point Markets',
      logo: '/companies/harbor-point.svg',
      url: 'https://harborpoint.example',
      subject: 'Harbor Point Markets Pte. Ltd.',
      registered_address: '8 Marina Boulevard, Singapore 018981',
      location: 'Singapore',
      email: 'service@harborpoint.example',
    });
  });

  it('falls back to the main site for a cookie naming no company, or naming nothing at all', async () => {
    for (const value of ['999999', '0', '-1', 'abc', '1e3', "1' OR '1'='1", '99999999999999999999']) {
      const answer = await server.call<CompanyView>('GET', CompanyPath.company, { headers: withCompany(value) });
      expect(answer.data.id, value).toBe(main.id);
    }
  });

  it('tells the browser of a closed company where to go, and hides it from the search', async () => {
    const closed = await save({ name: 'Lantern Closed Ltd', status: 0, loss_url: 'https://elsewhere.example/bye' });
    const status = await server.call<CompanyStatusView>('GET', CompanyPath.status, { headers: withCompany(closed.id) });
    expect(status.data).toEqual({ status: 0, type: 1, loss_url: 'https://elsewhere.example/bye', is_main: false });
    expect((await search('name=lantern')).data.total).toBe(0);

    // A closed main site is not "main" any more (isMain needs a non-zero status).
    const closedMain = await save({ name: 'Closed Main', status: 0, type: 0, loss_url: '/#/news' });
    const mainStatus = await server.call<CompanyStatusView>('GET', CompanyPath.status, { headers: withCompany(closedMain.id) });
    expect(mainStatus.data).toEqual({ status: 0, type: 0, loss_url: '/#/news', is_main: false });
  });

  it('searches names in any case and takes % and _ literally', async () => {
    await save({ name: '100% Pure_FX' });
    await save({ name: '1000 Pure FX' });
    expect((await search('name=NORDWIND')).data.data.map((company) => company.name)).toEqual(['Nordwind Capital']);
    expect((await search('name=sakura%20BRIDGE')).data.data.map((company) => company.name)).toEqual(['Sakura Bridge FX']);
    expect((await search(`name=${encodeURIComponent('%')}`)).data.data.map((company) => company.name)).toEqual(['100% Pure_FX']);
    expect((await search(`name=${encodeURIComponent('e_F')}`)).data.data.map((company) => company.name)).toEqual([
      '100% Pure_FX',
    ]);
    expect((await search(`name=${encodeURIComponent('\\')}`)).data.total).toBe(0);
    expect((await search('name=nothing-like-this')).data).toMatchObject({ data: [], total: 0, page: 1 });
  });

  it('pages the results', async () => {
    for (let index = 0; index < COMPANY_PAGE_SIZE + 3; index += 1)
      await save({ name: `Paged Broker ${index}`, sort: 100 + index });
    const first = await search('name=paged%20broker&page=1');
    const second = await search('name=paged%20broker&page=2');
    expect(first.data).toMatchObject({ total: COMPANY_PAGE_SIZE + 3, page: 1, page_size: COMPANY_PAGE_SIZE });
    expect(first.data.data).toHaveLength(COMPANY_PAGE_SIZE);
    expect(second.data.data.map((company) => company.name)).toEqual(['Paged Broker 20', 'Paged Broker 21', 'Paged Broker 22']);
    expect((await search('name=paged%20broker&page=3')).data.data).toEqual([]);
  });

  it('refuses bad search input with a message: NUL bytes, a huge query, a bad page', async () => {
    const refusals = [`name=a${encodeURIComponent('\u0000')}b`, `name=${'x'.repeat(10_000)}`, 'page=0', 'page=abc', 'page=-1'];
    for (const query of refusals) {
      const answer = await search(query);
      expect(answer.status, query).toBeLessThan(500);
      expect(answer.code, query).toBe(1001);
      expect(answer.msg, query).not.toMatch(/_/);
    }
  });

  it('updates a company through the operator API, only for a content operator, refusing bad fields with a message', async () => {
    const created = await save({ name: 'Willow Markets', location: 'Auckland', type: 1 });
    const updated = await save({ id: created.id, location: '', email: 'hi@willow.example' });
    expect(updated).toMatchObject({ name: 'Willow Markets', location: '', email: 'hi@willow.example', status: 1 });

    const takeover = { id: created.id, name: 'Taken' };
    const signIn = { code: 999, msg: 'Please sign in to the back office.' };
    const user = await createTrader(server.database.db);
    expect(await server.call('POST', CompanyPath.adminSave, { body: takeover })).toMatchObject(signIn);
    expect(await server.call('POST', CompanyPath.adminSave, { body: takeover, token: user.token })).toMatchObject(signIn);
    expect(
      await server.call('POST', CompanyPath.adminSave, {
        body: takeover,
        headers: await server.operatorHeaders('sam', 'support'),
      }),
    ).toMatchObject({ code: 1003, msg: 'Your role may not do this.' });
    const refusals: Record<string, unknown>[] = [
      {},
      { name: '   ' },
      { id: 999_999, name: 'Ghost' },
      { id: created.id, status: 2 },
      { id: created.id, type: -1 },
      { id: created.id, loss_url: 'javascript:alert(1)' },
      { id: created.id, logo: 'data:image/svg+xml,<svg/>' },
      { id: created.id, name: 'Null\u0000Byte' },
      { id: created.id, sort: 'first' },
    ];
    for (const body of refusals) {
      const answer = await server.call('POST', CompanyPath.adminSave, { body, headers: await operator(), lang: 'de' });
      expect(answer.code, JSON.stringify(body)).not.toBe(1);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      expect(answer.msg, JSON.stringify(body)).not.toMatch(/^company_/);
    }
    const after = await server.call<CompanyView>('GET', CompanyPath.company, { headers: withCompany(created.id) });
    expect(after.data).toMatchObject({ name: 'Willow Markets', location: '', email: 'hi@willow.example' });
  });

  it('builds the manifest with the current company name, installable with its shipped icons', async () => {
    const nordwind = (await search('name=nordwind')).data.data[0]!;
    const fetchManifest = async (headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.baseUrl}${CompanyPath.manifest}`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
      expect(response.headers.get('vary')).toMatch(/cookie/i);
      return (await response.json()) as Record<string, unknown> & { icons: { sizes: string }[] };
    };
    const own = await fetchManifest();
    expect(own).toMatchObject({ name: 'Pipwise', short_name: 'Pipwise', start_url: './', display: 'standalone' });
    expect(own.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));

    const theirs = await fetchManifest(withCompany(nordwind.id));
    expect(theirs).toMatchObject({ name: 'Nordwind Capital', short_name: 'Nordwind Cap', start_url: './' });
    expect(theirs.icons).toEqual(own.icons);
  });
});
