import { ApiPath, type NewsDetailView, type NewsListView, type NoticeListView, type NoticeUnreadView } from '@pipwise/domain';
import { desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcementReads, announcements, auditLog, news } from '../src/db/schema.js';
import { createTrader, type Trader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

interface NewsAdminRow {
  id: number;
  lang: string;
  title: string;
  desc: string;
  cover: string;
  content: string;
  category_id: number;
  published: boolean;
}
interface Page<T> {
  data: T[];
  total: number;
  page: number;
  page_size: number;
}

/**
 * News and announcements through the back office: one row per language, HTML sanitised when saved,
 * every change audited, and what is published is what the phone app's next request shows (the readers
 * query the tables; nothing is cached).
 */
describe.each(DB_KINDS)('content in the back office on %s', (kind) => {
  let server: TestServer;
  let editor: Record<string, string>;
  let reader: Trader;

  beforeAll(async () => {
    server = await startTestServer(kind);
    editor = await server.operatorHeaders('edna', 'content');
    reader = await createTrader(server.database.db);
  });
  afterAll(() => server.close());

  const audits = (targetType: string) =>
    server.database.db.select().from(auditLog).where(eq(auditLog.targetType, targetType)).orderBy(desc(auditLog.id));
  const publicNews = async (lang = 'en') =>
    (await server.call<NewsListView>('GET', ApiPath.newsList, { lang })).data.data.map((item) => item.title);

  describe('news', () => {
    const create = (body: Record<string, unknown>, headers = editor) =>
      server.call<NewsAdminRow>('POST', '/admin/api/news', { body, headers });
    const update = (id: number | string, body: Record<string, unknown>) =>
      server.call<NewsAdminRow>('PUT', `/admin/api/news/${id}`, { body, headers: editor });

    it('publishes an article the app lists at once, sanitised; a draft stays hidden until published', async () => {
      const article = await create({
        lang: 'en',
        title: 'Gold at a record',
        description: 'XAU above 4,100',
        cover: '/covers/gold.png',
        content: '<p>Up</p><script>alert(1)</script><a href="javascript:alert(2)" onclick="x()">more</a>',
      });
      expect(article).toMatchObject({ code: 1, data: { lang: 'en', published: true, cover: '/covers/gold.png' } });
      expect(article.data.content).toContain('<p>Up</p>');
      expect(article.data.content).not.toMatch(/script|javascript:|onclick/);
      expect(await publicNews()).toEqual(['Gold at a record']);
      const detail = await server.call<NewsDetailView>('GET', `${ApiPath.newsInfo}?id=${article.data.id}`);
      expect(detail.data).toMatchObject({
        title: 'Gold at a record',
        desc: 'XAU above 4,100',
        logo: '/covers/gold.png',
      });

      const draft = await create({ lang: 'en', title: 'Rates draft', content: '<p>soon</p>', published: false });
      expect(await publicNews()).not.toContain('Rates draft');
      const published = await update(draft.data.id, { published: true, content: '<p>now</p><img src="x" onerror="y()">' });
      expect(published.data).toMatchObject({ published: true, content: '<p>now</p><img src="x" />' });
      expect(await publicNews()).toEqual(['Rates draft', 'Gold at a record']);

      const german = await create({ lang: 'de', title: 'Gold auf Rekord', content: '<p>Hoch</p>' });
      expect(german.code).toBe(1);
      expect(await publicNews('de')).toEqual(['Gold auf Rekord']);
      expect(await publicNews('fr')).toEqual(['Rates draft', 'Gold at a record']);

      const actions = (await audits('news')).map((row) => [row.action, row.targetId]);
      expect(actions).toEqual([
        ['news.create', String(german.data.id)],
        ['news.update', String(draft.data.id)],
        ['news.create', String(draft.data.id)],
        ['news.create', String(article.data.id)],
      ]);
      const [, updateRow] = await audits('news');
      expect(updateRow).toMatchObject({
        actor: 'operator:edna@ops.test',
        before: expect.objectContaining({ published: false, content: '<p>soon</p>' }),
        after: expect.objectContaining({ published: true }),
      });
    });

    it('lists for the back office with language and published filters, paged', async () => {
      const list = async (query: string) =>
        (await server.call<Page<NewsAdminRow>>('GET', `/admin/api/news${query}`, { headers: editor })).data;
      expect((await list('')).total).toBe(3);
      expect((await list('?lang=de')).data.map((row) => row.title)).toEqual(['Gold auf Rekord']);
      const hidden = await create({ lang: 'en', title: 'Hidden', content: '<p>x</p>', published: false });
      expect((await list('?published=0')).data.map((row) => row.id)).toEqual([hidden.data.id]);
      expect((await list('?published=1&lang=en')).total).toBe(2);
      expect(await list('?page=2&page_size=2')).toMatchObject({ total: 4, page: 2, page_size: 2 });
      expect((await list('?page=2&page_size=2')).data).toHaveLength(2);
    });

    it('unpublishes and deletes: the article leaves the app at once', async () => {
      const article = await create({ lang: 'en', title: 'Short-lived', content: '<p>x</p>' });
      expect(await publicNews()).toContain('Short-lived');
      await update(article.data.id, { published: false });
      expect(await publicNews()).not.toContain('Short-lived');
      expect(await server.call('DELETE', `/admin/api/news/${article.data.id}`, { headers: editor })).toMatchObject({ code: 1 });
      expect(await server.database.db.select().from(news).where(eq(news.id, article.data.id))).toEqual([]);
      expect(await server.call('DELETE', `/admin/api/news/${article.data.id}`, { headers: editor })).toMatchObject({
        code: 1004,
        msg: 'The news article does not exist',
      });
      const [deleted] = await audits('news');
      expect(deleted).toMatchObject({
        action: 'news.delete',
        before: expect.objectContaining({ title: 'Short-lived' }),
        after: null,
      });
    });

    it('refuses bad input and other roles with a clear message, storing and auditing nothing', async () => {
      const rows = async () => server.database.db.select().from(news).orderBy(news.id);
      const before = await rows();
      const auditCount = (await audits('news')).length;
      const [existing] = before;
      const cases: [string, string, Record<string, unknown>, number, string][] = [
        ['POST', '/admin/api/news', { lang: 'xx', title: 'T', content: '<p>x</p>' }, 1001, "Choose the article's language"],
        ['POST', '/admin/api/news', { lang: 'en', title: ' ', content: '<p>x</p>' }, 1001, "Enter the article's title"],
        [
          'POST',
          '/admin/api/news',
          { lang: 'en', title: 'T', content: '<p>x</p>', cover: 'javascript:alert(1)' },
          1001,
          'The cover must be an image on this site: a path starting with / (the app blocks images from other sites).',
        ],
        ['PUT', `/admin/api/news/${existing!.id}`, {}, 1001, 'Nothing to change: name at least one field.'],
        ['PUT', `/admin/api/news/${existing!.id}`, { published: 'yes' }, 1001, 'This value is not valid'],
        ['PUT', '/admin/api/news/99999999', { title: 'x' }, 1004, 'The news article does not exist'],
        ['PUT', '/admin/api/news/abc', { title: 'x' }, 1004, 'The news article does not exist'],
        ['GET', '/admin/api/news?lang=xx', {}, 1001, "The language filter is not one of the app's languages."],
        ['GET', '/admin/api/news?published=yes', {}, 1001, 'The published filter must be 0 or 1.'],
        ['GET', '/admin/api/news?page_size=101', {}, 1001, 'The page size must be a whole number from 1 to 100.'],
      ];
      for (const [method, path, body, code, msg] of cases) {
        const answer = await server.call(method as 'GET', path, { body: method === 'GET' ? undefined : body, headers: editor });
        expect({ path, body, code: answer.code, msg: answer.msg }).toEqual({ path, body, code, msg });
      }
      // The app's Content-Security-Policy shows images of its own origin only: a cover from elsewhere
      // would be a broken image on every phone, so it is refused when saved, in the operator's language.
      for (const cover of [
        'https://cdn.example/gold.png',
        'http://cdn.example/gold.png',
        '//cdn.example/gold.png',
        '/\\cdn.example/x.png',
        'data:image/png;base64,AAAA',
      ]) {
        for (const [method, path] of [
          ['POST', '/admin/api/news'],
          ['PUT', `/admin/api/news/${existing!.id}`],
        ] as const) {
          const answer = await server.call(method, path, {
            body: { lang: 'en', title: 'T', content: '<p>x</p>', cover },
            headers: editor,
            lang: 'hk',
          });
          expect({ cover, method, code: answer.code, msg: answer.msg }).toEqual({
            cover,
            method,
            code: 1001,
            msg: '封面須為本站圖片：以 / 開頭的路徑（應用程式會封鎖其他網站的圖片）。',
          });
        }
      }
      const finance = await server.operatorHeaders('fiona', 'finance');
      expect(await create({ lang: 'en', title: 'T', content: '<p>x</p>' }, finance)).toMatchObject({ code: 1003 });
      expect(await server.call('DELETE', `/admin/api/news/${existing!.id}`, { headers: finance })).toMatchObject({ code: 1003 });
      expect(await rows()).toEqual(before);
      expect((await audits('news')).length).toBe(auditCount);
    });
  });

  describe('announcements', () => {
    const create = (body: Record<string, unknown>) =>
      server.call<{ id: number; published: boolean }>('POST', '/admin/api/announcements', { body, headers: editor });
    const userList = async () =>
      (await server.call<NoticeListView>('GET', ApiPath.noticeList, { token: reader.token })).data.data.map((item) => item.title);
    const unread = async () =>
      (await server.call<NoticeUnreadView>('GET', ApiPath.noticeUnreadCount, { token: reader.token })).data.count;

    it('publishes, edits, unpublishes and deletes; users see each step on their next request', async () => {
      const before = await unread();
      const created = await create({ lang: 'en', title: 'Maintenance Sunday', content: '<p>02:00</p><iframe src="x"></iframe>' });
      expect(created.code).toBe(1);
      const id = created.data.id;
      expect((await userList())[0]).toBe('Maintenance Sunday');
      expect(await unread()).toBe(before + 1);

      const edited = await server.call('PUT', `/admin/api/announcements/${id}`, {
        headers: editor,
        body: { title: 'Maintenance Saturday' },
      });
      expect(edited).toMatchObject({ code: 1, data: { title: 'Maintenance Saturday', content: '<p>02:00</p>' } });
      expect((await userList())[0]).toBe('Maintenance Saturday');

      await server.call('GET', `${ApiPath.noticeInfo}?id=${id}`, { token: reader.token });
      expect(
        await server.database.db.select().from(announcementReads).where(eq(announcementReads.announcementId, id)),
      ).toHaveLength(1);

      await server.call('PUT', `/admin/api/announcements/${id}`, { headers: editor, body: { published: false } });
      expect(await userList()).not.toContain('Maintenance Saturday');
      await server.call('PUT', `/admin/api/announcements/${id}`, { headers: editor, body: { published: true } });
      expect(await userList()).toContain('Maintenance Saturday');

      expect(await server.call('DELETE', `/admin/api/announcements/${id}`, { headers: editor })).toMatchObject({ code: 1 });
      expect(await userList()).not.toContain('Maintenance Saturday');
      expect(await server.database.db.select().from(announcements).where(like(announcements.title, 'Maintenance%'))).toEqual([]);
      expect(await unread()).toBe(before);

      const actions = (await audits('announcement')).map((row) => row.action);
      expect(actions).toEqual([
        'announcement.delete',
        'announcement.update',
        'announcement.update',
        'announcement.update',
        'announcement.create',
      ]);
      const admin = await server.call<Page<{ lang: string }>>('GET', '/admin/api/announcements?lang=jp', { headers: editor });
      expect(admin.data.total).toBe(2);
      expect(admin.data.data.every((row) => row.lang === 'jp')).toBe(true);
    });

    it('refuses bad input with a clear message and changes nothing', async () => {
      const rows = () => server.database.db.select().from(announcements).orderBy(announcements.id);
      const before = await rows();
      expect(await create({ lang: 'en', title: '', content: '<p>x</p>' })).toMatchObject({
        code: 1001,
        msg: 'Enter the announcement title',
      });
      expect(
        await server.call('PUT', '/admin/api/announcements/99999999', { headers: editor, body: { title: 'x' } }),
      ).toMatchObject({ code: 1004, msg: 'The announcement does not exist' });
      expect(
        await server.call('POST', '/admin/api/announcements', {
          headers: await server.operatorHeaders('sue', 'support'),
          body: { lang: 'en', title: 'T', content: 'x' },
        }),
      ).toMatchObject({ code: 1003, msg: 'Your role may not do this.' });
      expect(await rows()).toEqual(before);
    });
  });
});
