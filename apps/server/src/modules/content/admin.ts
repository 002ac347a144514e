import {
  notFound,
  type OperatorPageView,
  ZContentAdminQuery,
  ZNewsAdminChange,
  ZNewsAdminCreate,
  type ContentAdminQuery,
  type NewsAdminView,
} from '@pipwise/domain';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { countOf, paged } from '../../db/paging.js';
import { news } from '../../db/schema.js';
import { registerAdminCrud } from '../../http/admin-crud.js';
import { sanitizeContentHtml } from '../../http/html.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import type { AuditService } from '../audit/service.js';

type NewsRow = typeof news.$inferSelect;

/** An article as the reader's detail shows it, plus what only the back office edits. */
const newsAdminView = (row: NewsRow): NewsAdminView => ({
  id: row.id,
  lang: row.lang,
  title: row.title,
  desc: row.description,
  logo: row.logo,
  cover: row.logo,
  content: row.content,
  category_id: row.categoryId,
  published: row.published,
  created_at: row.createdAt.toISOString(),
});

/**
 * The operators' side of news. Every change is audited in its transaction; readers query the table
 * directly (no cache), so a published article is in the phone's next list.
 */
export class NewsAdmin {
  constructor(private readonly deps: { db: Db; audit: AuditService }) {}

  async list(query: ContentAdminQuery): Promise<OperatorPageView<NewsAdminView>> {
    const conditions: (SQL | undefined)[] = [
      query.lang ? eq(news.lang, query.lang) : undefined,
      query.published ? eq(news.published, query.published === '1') : undefined,
    ];
    const where = and(...conditions);
    return paged(
      { page: query.page, pageSize: query.page_size },
      async (limit, offset) =>
        (
          await this.deps.db
            .select()
            .from(news)
            .where(where)
            .orderBy(desc(news.createdAt), desc(news.id))
            .limit(limit)
            .offset(offset)
        ).map(newsAdminView),
      () => countOf(this.deps.db.select({ n: count() }).from(news).where(where)),
    );
  }

  async create(input: z.infer<typeof ZNewsAdminCreate>, by: OperatorPrincipal, ip: string): Promise<NewsAdminView> {
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(news)
        .values({
          lang: input.lang,
          title: input.title,
          description: input.description ?? '',
          logo: input.cover,
          content: sanitizeContentHtml(input.content),
          categoryId: input.category_id,
          published: input.published,
        })
        .returning();
      const view = newsAdminView(row!);
      await this.deps.audit.record({ by, action: 'news.create', targetType: 'news', targetId: row!.id, after: view, ip }, tx);
      return view;
    });
  }

  async update(id: number, change: z.infer<typeof ZNewsAdminChange>, by: OperatorPrincipal, ip: string): Promise<NewsAdminView> {
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(news).where(eq(news.id, id)).for('update');
      if (!row) throw notFound('news_not_found');
      const [after] = await tx
        .update(news)
        .set({
          lang: change.lang,
          title: change.title,
          description: change.description,
          logo: change.cover,
          content: change.content === undefined ? undefined : sanitizeContentHtml(change.content),
          categoryId: change.category_id,
          published: change.published,
        })
        .where(eq(news.id, id))
        .returning();
      const view = newsAdminView(after!);
      await this.deps.audit.record(
        { by, action: 'news.update', targetType: 'news', targetId: id, before: newsAdminView(row), after: view, ip },
        tx,
      );
      return view;
    });
  }

  async remove(id: number, by: OperatorPrincipal, ip: string) {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.delete(news).where(eq(news.id, id)).returning();
      if (!row) throw notFound('news_not_found');
      await this.deps.audit.record(
        { by, action: 'news.delete', targetType: 'news', targetId: id, before: newsAdminView(row), ip },
        tx,
      );
    });
  }
}

export function registerNewsAdminRoutes(app: FastifyInstance, admin: NewsAdmin) {
  registerAdminCrud(
    app,
    '/admin/api/news',
    'content',
    { query: ZContentAdminQuery, create: ZNewsAdminCreate, change: ZNewsAdminChange, notFoundKey: 'news_not_found' },
    admin,
  );
}
