import {
  type OperatorPageView,
  ZAnnouncementChange,
  ZAnnouncementCreate,
  ZAnnouncementAdminView,
  pageOf,
  ZContentAdminQuery,
  type AnnouncementAdminView,
  type ContentAdminQuery,
} from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AuditedRows, contentPage } from '../../db/audited-rows.js';
import type { Db } from '../../db/client.js';
import { announcementReads, announcements } from '../../db/schema.js';
import { registerAdminCrud } from '../../http/admin-crud.js';
import { sanitizeContentHtml } from '../../http/html.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import type { AuditService } from '../audit/service.js';

type AnnouncementRow = typeof announcements.$inferSelect;

/** The answer to an id that names no announcement, whether the path cannot be one or the row is gone. */
const NOT_FOUND = 'notice_not_found';

/** An announcement as the user's detail shows it (never read by an operator), plus language and state. */
const announcementAdminView = (row: AnnouncementRow): AnnouncementAdminView => ({
  id: row.id,
  lang: row.lang,
  title: row.title,
  content: row.content,
  published: row.published,
  created_at: row.createdAt.toISOString(),
  read: false,
});

/**
 * The operators' side of announcements. Every change is audited in its transaction; users' lists and
 * unread counts query the table directly (no cache), so a change shows on their next request.
 */
export class AnnouncementsAdmin {
  private readonly rows: AuditedRows<typeof announcements, AnnouncementAdminView>;

  constructor(deps: { db: Db; audit: AuditService }) {
    this.rows = new AuditedRows(deps, {
      table: announcements,
      view: announcementAdminView,
      target: 'announcement',
      notFoundKey: NOT_FOUND,
    });
  }

  list(query: ContentAdminQuery): Promise<OperatorPageView<AnnouncementAdminView>> {
    return contentPage(this.rows, query);
  }

  create(input: z.infer<typeof ZAnnouncementCreate>, by: OperatorPrincipal, ip: string): Promise<AnnouncementAdminView> {
    return this.rows.create(
      { lang: input.lang, title: input.title, content: sanitizeContentHtml(input.content), published: input.published },
      by,
      ip,
    );
  }

  update(
    id: number,
    change: z.infer<typeof ZAnnouncementChange>,
    by: OperatorPrincipal,
    ip: string,
  ): Promise<AnnouncementAdminView> {
    return this.rows.update(
      id,
      () => ({
        lang: change.lang,
        title: change.title,
        content: change.content === undefined ? undefined : sanitizeContentHtml(change.content),
        published: change.published,
      }),
      by,
      ip,
    );
  }

  /** Removes the announcement and who had read it (the read rows point at it). */
  remove(id: number, by: OperatorPrincipal, ip: string) {
    return this.rows.remove(id, by, ip, (tx) => tx.delete(announcementReads).where(eq(announcementReads.announcementId, id)));
  }
}

export function registerAnnouncementAdminRoutes(app: FastifyInstance, admin: AnnouncementsAdmin) {
  registerAdminCrud(
    app,
    '/admin/api/announcements',
    'content',
    {
      query: ZContentAdminQuery,
      create: ZAnnouncementCreate,
      change: ZAnnouncementChange,
      row: ZAnnouncementAdminView,
      list: pageOf(ZAnnouncementAdminView),
      notFoundKey: NOT_FOUND,
    },
    admin,
  );
}
