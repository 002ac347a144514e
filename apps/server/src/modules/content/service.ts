import {
  notFound,
  resolveLanguage,
  type Language,
  type NewsDetailView,
  type NewsItemView,
  type NewsListView,
} from '@pipwise/domain';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { news } from '../../db/schema.js';

export const NEWS_PAGE_SIZE = 10;

type NewsRow = typeof news.$inferSelect;

const itemView = (row: Pick<NewsRow, 'id' | 'lang' | 'title' | 'description' | 'logo' | 'createdAt'>): NewsItemView => ({
  id: row.id,
  lang: resolveLanguage(row.lang),
  title: row.title,
  desc: row.description,
  logo: row.logo,
  created_at: row.createdAt.toISOString(),
});

/** News as the back office published it; drafts (`published` false) are never shown. */
export class ContentService {
  constructor(private readonly db: Db) {}

  /**
   * The language a list is shown in: the reader's when it has articles (in the category asked for),
   * else English, else none (null: every language), so a reader is never shown an empty list while
   * articles exist.
   */
  private async listLanguage(lang: Language, category: SQL | undefined): Promise<string | null> {
    const rows = await this.db
      .selectDistinct({ lang: news.lang })
      .from(news)
      .where(and(eq(news.published, true), category, inArray(news.lang, [lang, 'en'])));
    const present = new Set(rows.map((row) => row.lang));
    if (present.has(lang)) return lang;
    return present.has('en') ? 'en' : null;
  }

  /** A page of published articles, newest first; category 0 means every category. */
  async list(lang: Language, categoryId: number, page: number): Promise<NewsListView> {
    const category = categoryId > 0 ? eq(news.categoryId, categoryId) : undefined;
    const language = await this.listLanguage(lang, category);
    const where = and(eq(news.published, true), category, language === null ? undefined : eq(news.lang, language));
    const [rows, [totals]] = await Promise.all([
      this.db
        .select({
          id: news.id,
          lang: news.lang,
          title: news.title,
          description: news.description,
          logo: news.logo,
          createdAt: news.createdAt,
        })
        .from(news)
        .where(where)
        .orderBy(desc(news.createdAt), desc(news.id))
        .limit(NEWS_PAGE_SIZE)
        .offset((page - 1) * NEWS_PAGE_SIZE),
      this.db.select({ total: count() }).from(news).where(where),
    ]);
    return { data: rows.map(itemView), total: totals?.total ?? 0, page, page_size: NEWS_PAGE_SIZE };
  }

  /** One published article by id, whatever its language (the id names the article). */
  async info(id: number): Promise<NewsDetailView> {
    const [row] = await this.db
      .select()
      .from(news)
      .where(and(eq(news.id, id), eq(news.published, true)))
      .limit(1);
    if (!row) throw notFound('news_not_found');
    return { ...itemView(row), content: row.content };
  }
}
