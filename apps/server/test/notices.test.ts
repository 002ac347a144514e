import { ApiPath, ResponseCode, type NoticeDetailView, type NoticeListView, type NoticeUnreadView } from '@pipwise/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { announcementReads, announcements } from '../src/db/schema.js';
import { EXAMPLE_ANNOUNCEMENTS, seedAnnouncements } from '../src/modules/notices/seed.js';
import { createTrader, expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

const ADMIN_PATH = '/admin/api/announcements';

/** Announcements through real HTTP: per-user read state, the operator's create with sanitised HTML. */
describe.each(DB_KINDS)('announcements on %s', (kind) => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;

  beforeAll(async () => {
    server = await startTestServer(kind);
    alice = await createTrader(server.database.db);
    bob = await createTrader(server.database.db);
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const list = (token: string, query = '', lang = 'en') =>
    server.call<NoticeListView>('GET', `${ApiPath.noticeList}${query}`, { token, lang });
  const open = (token: string, id: string | number) =>
    server.call<NoticeDetailView>('GET', `${ApiPath.noticeInfo}?id=${encodeURIComponent(String(id))}`, { token });
  const unread = async (token: string, lang = 'en') =>
    (await server.call<NoticeUnreadView>('GET', ApiPath.noticeUnreadCount, { token, lang })).data.count;
  const create = async (body: Record<string, unknown>, headers?: Record<string, string>) =>
    server.call<NoticeDetailView>('POST', ADMIN_PATH, {
      body,
      headers: headers ?? (await server.operatorHeaders('alice', 'content')),
    });
  const readRows = async () => (await server.database.db.select({ n: count() }).from(announcementReads))[0]?.n;

  it('seeds two announcements per language once: a second seed leaves the table as it is', async () => {
    const { db } = server.database;
    const before = await db.select({ n: count() }).from(announcements);
    expect(before[0]?.n).toBe(Object.keys(EXAMPLE_ANNOUNCEMENTS).length * 2);
    await seedAnnouncements(db);
    expect(await db.select({ n: count() }).from(announcements)).toEqual(before);
  });

  it('lists the reader’s language, newest first, everything unread at first', async () => {
    const answer = await list(alice.token);
    expect(answer).toMatchObject({ code: 1, data: { total: 2, page: 1, page_size: 10 } });
    expect(answer.data.data.map((item) => [item.title, item.read])).toEqual([
      [EXAMPLE_ANNOUNCEMENTS.en[1].title, false],
      [EXAMPLE_ANNOUNCEMENTS.en[0].title, false],
    ]);
    const german = await list(alice.token, '', 'de');
    expect(german.data.data.map((item) => item.title)).toEqual([
      EXAMPLE_ANNOUNCEMENTS.de[1].title,
      EXAMPLE_ANNOUNCEMENTS.de[0].title,
    ]);
    expect(await unread(alice.token)).toBe(2);
  });

  it('marks an announcement read for the one user who opened it, once however often it is opened', async () => {
    const [newest] = (await list(alice.token)).data.data;
    const first = await open(alice.token, newest!.id);
    expect(first).toMatchObject({ code: 1, data: { id: newest!.id, read: true, title: newest!.title } });
    expect(first.data.content).toContain('<p>');
    const rowsAfterFirst = await readRows();
    expect((await open(alice.token, newest!.id)).code).toBe(1);
    expect(await readRows()).toBe(rowsAfterFirst);

    expect((await list(alice.token)).data.data.map((item) => item.read)).toEqual([true, false]);
    expect(await unread(alice.token)).toBe(1);
    // Bob's state is his own.
    expect((await list(bob.token)).data.data.map((item) => item.read)).toEqual([false, false]);
    expect(await unread(bob.token)).toBe(2);
  });

  it('asks for a session on every user call', async () => {
    for (const path of [ApiPath.noticeList, ApiPath.noticeUnreadCount, `${ApiPath.noticeInfo}?id=1`]) {
      expect((await server.call('GET', path)).code, path).toBe(999);
    }
  });

  it('refuses bad ids and pages with a localized message and records no read', async () => {
    const before = await readRows();
    for (const id of ['0', '-1', 'abc', '1.5', '', '0x10', '1\u0000', '99999999999']) {
      const answer = await open(bob.token, id);
      expect(answer.code, JSON.stringify(id)).not.toBe(1);
    }
    expect((await open(bob.token, 'abc')).msg).toBe('The announcement id is not valid');
    expect((await server.call('GET', `${ApiPath.noticeInfo}?id=abc`, { token: bob.token, lang: 'de' })).msg).toBe(
      'Die Mitteilungs-ID ist ungültig',
    );
    expect(await open(bob.token, 99_999_999)).toMatchObject({
      code: ResponseCode.notFound,
      msg: 'The announcement does not exist',
    });
    for (const page of ['0', 'x', '%00']) {
      expect((await list(bob.token, `?page=${page}`)).code, page).toBe(1001);
    }
    expect(await readRows()).toBe(before);
    expect(await unread(bob.token)).toBe(2);
  });

  it('never shows a draft, neither listed nor opened', async () => {
    const [draft] = await server.database.db
      .insert(announcements)
      .values({ lang: 'en', title: 'Draft', content: '<p>not yet</p>', published: false })
      .returning({ id: announcements.id });
    expect((await list(bob.token)).data.data.map((item) => item.title)).not.toContain('Draft');
    expect((await open(bob.token, draft!.id)).code).toBe(ResponseCode.notFound);
    expect(await unread(bob.token)).toBe(2);
  });

  it('lets only an operator publish, and strips scripts and handlers from the HTML before storing it', async () => {
    const body = {
      lang: 'en',
      title: 'Maintenance on Sunday',
      content:
        '<p onclick="steal()">Trading pauses <b>02:00–03:00 UTC</b>.</p><script>alert(1)</script><img src="javascript:alert(1)"><a href="javascript:alert(1)">x</a><a href="https://status.example">status</a>',
    };
    const signIn = { code: ResponseCode.notLoggedIn, msg: 'Please sign in to the back office.' };
    expect(await create(body, { authorization: 'Bearer pwo_wrong' })).toMatchObject(signIn);
    expect(await server.call('POST', ADMIN_PATH, { body, token: alice.token })).toMatchObject(signIn);
    expect(await create(body, await server.operatorHeaders('desk', 'support'))).toMatchObject({
      code: ResponseCode.forbidden,
      msg: 'Your role may not do this.',
    });
    expect((await list(alice.token)).data.data.map((notice) => notice.title)).not.toContain(body.title);

    const created = await create(body);
    expect(created).toMatchObject({ code: 1, data: { title: 'Maintenance on Sunday', read: false } });
    const [stored] = await server.database.db.select().from(announcements).where(eq(announcements.id, created.data.id));
    expect(stored!.content).toContain('<b>02:00–03:00 UTC</b>');
    expect(stored!.content).toContain('href="https://status.example"');
    expect(stored!.content).not.toMatch(/script|onclick|javascript:/i);

    expect((await list(alice.token)).data.data[0]).toMatchObject({ id: created.data.id, read: false });
    expect(await unread(alice.token)).toBe(2);
    expect((await open(alice.token, created.data.id)).data.content).toBe(stored!.content);
  });

  it('refuses a bad announcement with a localized message and stores nothing', async () => {
    const before = await server.database.db.select({ n: count() }).from(announcements);
    const refusals: [Record<string, unknown>, string][] = [
      [{ lang: 'xx', title: 'T', content: '<p>c</p>' }, 'The announcement language is not valid'],
      [{ lang: 'en', title: '  ', content: '<p>c</p>' }, 'Enter the announcement title'],
      [{ lang: 'en', title: 'T' }, 'Enter the announcement content'],
      [{ lang: 'en', title: 'T\u0000', content: '<p>c</p>' }, ''],
      [{ lang: 'en', title: 'T', content: '<p>\u0000</p>' }, ''],
      [{ lang: 'en', title: 'T', content: '<p>c</p>', published: 'yes' }, ''],
    ];
    for (const [body, msg] of refusals) {
      const answer = await create(body);
      expect(answer.code, JSON.stringify(body)).toBe(1001);
      if (msg) expect(answer.msg).toBe(msg);
    }
    expect(await server.database.db.select({ n: count() }).from(announcements)).toEqual(before);
  });
});
