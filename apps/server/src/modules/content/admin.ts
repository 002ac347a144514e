import {
  type OperatorPageView,
  ZContentAdminQuery,
  ZNewsAdminChange,
  ZNewsAdminCreate,
  ZNewsAdminView,
  pageOf,
  type ContentAdminQuery,
  type NewsAdminView,
} from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AuditedRows, contentPage } from '../../db/audited-rows.js';
import type { Db } from '../../db/client.js';
import { news } from '../../db/schema.js';
import { registerAdminCrud } from '../../http/admin-crud.js';
import { sanitizeContentHtml } from '../../http/html.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import type { AuditService } from '../audit/service.js';

type NewsRow = typeof news.$inferSelect;

/** The answer to an id that names no article, whether the path cannot be one or the row is gone. */
const NOT_FOUND = 'news_not_found';

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
  private readonly rows: AuditedRows<typeof news, NewsAdminView>;

  constructor(deps: { db: Db; audit: AuditService }) {
    this.rows = new AuditedRows(deps, { table: news, view: newsAdminView, target: 'news', notFoundKey: NOT_FOUND });
  }

  list(query: ContentAdminQuery): Promise<OperatorPageView<NewsAdminView>> {
    return contentPage(this.rows, query);
  }

  create(input: z.infer<typeof ZNewsAdminCreate>, by: OperatorPrincipal, ip: string): Promise<NewsAdminView> {
    return this.rows.create(
      {
        lang: input.lang,
        title: input.title,
        description: input.description ?? '',
        logo: input.cover,
        content: sanitizeContentHtml(input.content),
        categoryId: input.category_id,
        published: input.published,
      },
      by,
      ip,
    );
  }

  update(id: number, change: z.infer<typeof ZNewsAdminChange>, by: OperatorPrincipal, ip: string): Promise<NewsAdminView> {
    return this.rows.update(
      id,
      () => ({
        lang: change.lang,
        title: change.title,
        description: change.description,
        logo: change.cover,
        content: change.content === undefined ? undefined : sanitizeContentHtml(change.content),
        categoryId: change.category_id,
        published: change.published,
      }),
      by,
      ip,
    );
  }

  remove(id: number, by: OperatorPrincipal, ip: string) {
    return this.rows.remove(id, by, ip);
  }
}

export function registerNewsAdminRoutes(app: FastifyInstance, admin: NewsAdmin) {
  registerAdminCrud(
    app,
    '/admin/api/news',
    'content',
    {
      query: ZContentAdminQuery,
      create: ZNewsAdminCreate,
      change: ZNewsAdminChange,
      row: ZNewsAdminView,
      list: pageOf(ZNewsAdminView),
      notFoundKey: NOT_FOUND,
    },
    admin,
  );
}
