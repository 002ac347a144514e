import { ApiPath, type NewsDetailView, type NewsListView } from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { news } from '../src/db/schema.js';
import { createTrader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

const hoursAfter = (hours: number) => new Date(Date.UTC(2026, 0, 1, hours));

/**
 * News through real HTTP. The table starts empty (the back office publishes later), so the rows are
 * written straight into it here.
 */
describe.each(DB_KINDS)('news on %s', (kind) => {
  let server: TestServer;
  let draftId: number;
  let firstEnglishId: number;

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  const list = (query: string, lang = 'en') => server.call<NewsListView>('GET', `${ApiPath.newsList}${query}`, { lang });
  const titles = (answer: { data: NewsListView }) => answer.data.data.map((item) => item.title);

  it('answers an empty list while nothing is published', async () => {
    expect(await list('')).toMatchObject({ status: 200, code: 1, data: { data: [], total: 0, page: 1, page_size: 10 } });
  });

  describe('with articles', () => {
    beforeAll(async () => {
      const { db } = server.database;
      const english = await db
        .insert(news)
        .values(
          Array.from({ length: 12 }, (_, i) => ({
            categoryId: 1,
            lang: 'en',
            title: `EN ${i + 1}`,
            description: `Summary ${i + 1}`,
            logo: `/uploads/news-${i + 1}.png`,
            content: `<p>Body ${i + 1}</p>`,
            published: true,
            createdAt: hoursAfter(i + 1),
          })),
        )
        .returning({ id: news.id });
      firstEnglishId = english[0]!.id;
      const [draft] = await db
        .insert(news)
        .values({ categoryId: 1, lang: 'en', title: 'Draft', published: false, createdAt: hoursAfter(100) })
        .returning({ id: news.id });
      draftId = draft!.id;
      await db.insert(news).values([
        { categoryId: 1, lang: 'jp', title: 'JP 1', published: true, createdAt: hoursAfter(20) },
        { categoryId: 1, lang: 'jp', title: 'JP 2', published: true, createdAt: hoursAfter(21) },
        { categoryId: 3, lang: 'de', title: 'DE 1', published: true, createdAt: hoursAfter(30) },
      ]);
    });

    it('pages the published articles of the reader’s language, newest first, 10 a page', async () => {
      const first = await list('?page=1');
      expect(first.data).toMatchObject({ total: 12, page: 1, page_size: 10 });
      expect(titles(first)).toEqual(['EN 12', 'EN 11', 'EN 10', 'EN 9', 'EN 8', 'EN 7', 'EN 6', 'EN 5', 'EN 4', 'EN 3']);
      expect(first.data.data[0]).toEqual({
        id: firstEnglishId + 11,
        lang: 'en',
        title: 'EN 12',
        desc: 'Summary 12',
        logo: '/uploads/news-12.png',
        created_at: '2026-01-01T12:00:00.000Z',
      });
      const second = await list('?page=2&timestamp=1795394716733');
      expect(second.data).toMatchObject({ total: 12, page: 2 });
      expect(titles(second)).toEqual(['EN 2', 'EN 1']);
      expect((await list('?page=3')).data).toMatchObject({ data: [], total: 12, page: 3 });
    });

    it('never lists a draft', async () => {
      const all = [...titles(await list('?page=1')), ...titles(await list('?page=2'))];
      expect(all).not.toContain('Draft');
    });

    it('shows the reader’s language, else English, else any language', async () => {
      expect(titles(await list('', 'jp'))).toEqual(['JP 2', 'JP 1']);
      // French has no article: English. "tw" reads as Traditional Chinese, which has none either.
      expect((await list('', 'fr')).data.total).toBe(12);
      expect((await list('', 'tw')).data.total).toBe(12);
      // Category 3 has only a German article: every reader gets it rather than an empty list.
      for (const lang of ['fr', 'en', 'jp', 'de']) {
        expect(titles(await list('?category_id=3', lang)), lang).toEqual(['DE 1']);
      }
      expect(titles(await list('?category_id=1', 'jp'))).toEqual(['JP 2', 'JP 1']);
      expect((await list('?category_id=1&page=2', 'fr')).data).toMatchObject({ total: 12, page: 2 });
      expect((await list('?category_id=0', 'de')).data.total).toBe(1);
      expect(await list('?category_id=7')).toMatchObject({ code: 1, data: { data: [], total: 0 } });
    });

    it('gives one article with its content, whatever the reader’s language', async () => {
      const answer = await server.call<NewsDetailView>('GET', `${ApiPath.newsInfo}?id=${firstEnglishId}`, { lang: 'jp' });
      expect(answer).toMatchObject({ status: 200, code: 1 });
      expect(answer.data).toEqual({
        id: firstEnglishId,
        lang: 'en',
        title: 'EN 1',
        desc: 'Summary 1',
        logo: '/uploads/news-1.png',
        created_at: '2026-01-01T01:00:00.000Z',
        content: '<p>Body 1</p>',
      });
    });

    it('refuses unknown, unpublished and malformed ids and bad paging with a clear message, changing nothing', async () => {
      const snapshot = async () => {
        const result: unknown = await server.database.db.execute(sql`SELECT json_agg(n ORDER BY id) AS rows FROM news n`);
        return JSON.stringify((result as { rows: unknown[] }).rows);
      };
      const before = await snapshot();
      const cases: [string, string, number, string][] = [
        [`${ApiPath.newsInfo}?id=99999999`, 'en', 1004, 'The news article does not exist'],
        [`${ApiPath.newsInfo}?id=${draftId}`, 'en', 1004, 'The news article does not exist'],
        [`${ApiPath.newsInfo}?id=99999999`, 'jp', 1004, 'ニュース記事が存在しません'],
        [`${ApiPath.newsInfo}?id=abc`, 'en', 1001, 'The news id is not valid'],
        [`${ApiPath.newsInfo}`, 'en', 1001, 'The news id is not valid'],
        [`${ApiPath.newsInfo}?id=0`, 'en', 1001, 'The news id is not valid'],
        [`${ApiPath.newsInfo}?id=-3`, 'en', 1001, 'The news id is not valid'],
        [`${ApiPath.newsInfo}?id=1.5`, 'de', 1001, 'Die Nachrichten-ID ist ungültig'],
        [`${ApiPath.newsList}?page=0`, 'en', 1001, 'The page number is not valid'],
        [`${ApiPath.newsList}?page=-1`, 'en', 1001, 'The page number is not valid'],
        [`${ApiPath.newsList}?page=abc`, 'en', 1001, 'The page number is not valid'],
        [`${ApiPath.newsList}?page=1.5`, 'en', 1001, 'The page number is not valid'],
        [`${ApiPath.newsList}?page=99999999999`, 'en', 1001, 'The page number is not valid'],
        [`${ApiPath.newsList}?category_id=abc`, 'en', 1001, 'The news category is not valid'],
        [`${ApiPath.newsList}?category_id=-1`, 'en', 1001, 'The news category is not valid'],
      ];
      for (const [path, lang, code, msg] of cases) {
        const answer = await server.call('GET', path, { lang });
        expect({ path, status: answer.status, code: answer.code, msg: answer.msg, data: answer.data }).toEqual({
          path,
          status: 200,
          code,
          msg,
          data: null,
        });
      }
      expect(await snapshot()).toBe(before);
    });
  });
});

describe.each(DB_KINDS)('news published through the operator API on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  const operator = () => server.operatorHeaders('editor', 'content');
  const stored = async () =>
    Number(((await server.database.db.execute(sql`SELECT COUNT(*) AS n FROM news`)) as { rows: { n: string }[] }).rows[0]!.n);

  it('stores the article with its markup sanitised, and readers get it', async () => {
    const published = await server.call<NewsDetailView>('POST', '/admin/api/news', {
      headers: await operator(),
      body: {
        lang: 'en',
        title: 'Rates on hold',
        description: 'No change',
        content: '<p>Kept</p><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a>',
      },
    });
    expect(published.code).toBe(1);
    const shown = await server.call<NewsDetailView>('GET', `${ApiPath.newsInfo}?id=${published.data.id}`);
    expect(shown.data.content).toContain('<p>Kept</p>');
    expect(shown.data.content).not.toMatch(/script|onerror|javascript:/);
  });

  it('refuses anyone but a content operator and refuses bad articles, storing nothing', async () => {
    const before = await stored();
    const article = { lang: 'en', title: 'T', content: '<p>x</p>' };
    const signIn = { code: 999, msg: 'Please sign in to the back office.' };
    const reader = await createTrader(server.database.db);
    expect(await server.call('POST', '/admin/api/news', { body: article })).toMatchObject(signIn);
    expect(await server.call('POST', '/admin/api/news', { body: article, token: reader.token })).toMatchObject(signIn);
    expect(
      await server.call('POST', '/admin/api/news', { body: article, headers: await server.operatorHeaders('cash', 'finance') }),
    ).toMatchObject({ code: 1003, msg: 'Your role may not do this.' });
    for (const body of [
      { ...article, lang: 'xx' },
      { ...article, title: '' },
      { ...article, title: 'a\u0000b' },
      { ...article, content: 'x'.repeat(50_001) },
      { lang: 'en', title: 'T' },
    ]) {
      expect(
        (await server.call('POST', '/admin/api/news', { body, headers: await operator() })).code,
        JSON.stringify(body).slice(0, 60),
      ).toBe(1001);
    }
    expect(await stored()).toBe(before);
  });
});
