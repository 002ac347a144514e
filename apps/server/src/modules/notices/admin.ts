import {
  notFound,
  type OperatorPageView,
  ZAnnouncementChange,
  ZAnnouncementCreate,
  ZContentAdminQuery,
  type AnnouncementAdminView,
  type ContentAdminQuery,
} from '@pipwise/domain';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { countOf, paged } from '../../db/paging.js';
import { announcementReads, announcements } from '../../db/schema.js';
import { registerAdminCrud } from '../../http/admin-crud.js';
import { sanitizeContentHtml } from '../../http/html.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import type { AuditService } from '../audit/service.js';

type AnnouncementRow = typeof announcements.$inferSelect;

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
  constructor(private readonly deps: { db: Db; audit: AuditService }) {}

  async list(query: ContentAdminQuery): Promise<OperatorPageView<AnnouncementAdminView>> {
    const conditions: (SQL | undefined)[] = [
      query.lang ? eq(announcements.lang, query.lang) : undefined,
      query.published ? eq(announcements.published, query.published === '1') : undefined,
    ];
    const where = and(...conditions);
    return paged(
      { page: query.page, pageSize: query.page_size },
      async (limit, offset) =>
        (
          await this.deps.db
            .select()
            .from(announcements)
            .where(where)
            .orderBy(desc(announcements.createdAt), desc(announcements.id))
            .limit(limit)
            .offset(offset)
        ).map(announcementAdminView),
      () => countOf(this.deps.db.select({ n: count() }).from(announcements).where(where)),
    );
  }

  async create(input: z.infer<typeof ZAnnouncementCreate>, by: OperatorPrincipal, ip: string): Promise<AnnouncementAdminView> {
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(announcements)
        .values({ lang: input.lang, title: input.title, content: sanitizeContentHtml(input.content), published: input.published })
        .returning();
      const view = announcementAdminView(row!);
      await this.deps.audit.record(
        { by, action: 'announcement.create', targetType: 'announcement', targetId: row!.id, after: view, ip },
        tx,
      );
      return view;
    });
  }

  async update(
    id: number,
    change: z.infer<typeof ZAnnouncementChange>,
    by: OperatorPrincipal,
    ip: string,
  ): Promise<AnnouncementAdminView> {
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(announcements).where(eq(announcements.id, id)).for('update');
      if (!row) throw notFound('notice_not_found');
      const [after] = await tx
        .update(announcements)
        .set({
          lang: change.lang,
          title: change.title,
          content: change.content === undefined ? undefined : sanitizeContentHtml(change.content),
          published: change.published,
        })
        .where(eq(announcements.id, id))
        .returning();
      const view = announcementAdminView(after!);
      await this.deps.audit.record(
        {
          by,
          action: 'announcement.update',
          targetType: 'announcement',
          targetId: id,
          before: announcementAdminView(row),
          after: view,
          ip,
        },
        tx,
      );
      return view;
    });
  }

  /** Removes the announcement and who had read it (the read rows point at it). */
  async remove(id: number, by: OperatorPrincipal, ip: string) {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(announcements).where(eq(announcements.id, id)).for('update');
      if (!row) throw notFound('notice_not_found');
      await tx.delete(announcementReads).where(eq(announcementReads.announcementId, id));
      await tx.delete(announcements).where(eq(announcements.id, id));
      await this.deps.audit.record(
        { by, action: 'announcement.delete', targetType: 'announcement', targetId: id, before: announcementAdminView(row), ip },
        tx,
      );
    });
  }
}

export function registerAnnouncementAdminRoutes(app: FastifyInstance, admin: AnnouncementsAdmin) {
  registerAdminCrud(
    app,
    '/admin/api/announcements',
    'content',
    { query: ZContentAdminQuery, create: ZAnnouncementCreate, change: ZAnnouncementChange, notFoundKey: 'notice_not_found' },
    admin,
  );
}
