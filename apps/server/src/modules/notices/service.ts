import { notFound, type Language, type NoticeDetailView, type NoticeItemView, type NoticeListView } from '@pipwise/domain';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { announcementReads, announcements } from '../../db/schema.js';

export const NOTICE_PAGE_SIZE = 10;

type AnnouncementRow = typeof announcements.$inferSelect;

const itemView = (row: Pick<AnnouncementRow, 'id' | 'title' | 'createdAt'>, read: boolean): NoticeItemView => ({
  id: row.id,
  title: row.title,
  created_at: row.createdAt.toISOString(),
  read,
});

/** Announcements to every user, and which of them each user has opened; drafts are never shown. */
export class NoticesService {
  constructor(private readonly db: Db) {}

  /**
   * The language announcements are shown in: the reader's when it has any, else English, else none (null:
   * every language), so the list and the unread count always speak of the same announcements.
   */
  private async listLanguage(lang: Language): Promise<string | null> {
    const rows = await this.db
      .selectDistinct({ lang: announcements.lang })
      .from(announcements)
      .where(and(eq(announcements.published, true), inArray(announcements.lang, [lang, 'en'])));
    const present = new Set(rows.map((row) => row.lang));
    if (present.has(lang)) return lang;
    return present.has('en') ? 'en' : null;
  }

  private async visible(lang: Language) {
    const language = await this.listLanguage(lang);
    return and(eq(announcements.published, true), language === null ? undefined : eq(announcements.lang, language));
  }

  /** This user's read row of each announcement, when there is one. */
  private readBy(userId: number) {
    return and(eq(announcementReads.announcementId, announcements.id), eq(announcementReads.userId, userId));
  }

  /** A page of announcements, newest first, each with whether this user has opened it. */
  async list(userId: number, lang: Language, page: number): Promise<NoticeListView> {
    const where = await this.visible(lang);
    const [rows, [totals]] = await Promise.all([
      this.db
        .select({
          id: announcements.id,
          title: announcements.title,
          createdAt: announcements.createdAt,
          read: sql<boolean>`${announcementReads.userId} IS NOT NULL`,
        })
        .from(announcements)
        .leftJoin(announcementReads, this.readBy(userId))
        .where(where)
        .orderBy(desc(announcements.createdAt), desc(announcements.id))
        .limit(NOTICE_PAGE_SIZE)
        .offset((page - 1) * NOTICE_PAGE_SIZE),
      this.db.select({ total: count() }).from(announcements).where(where),
    ]);
    return {
      data: rows.map((row) => itemView(row, Boolean(row.read))),
      total: Number(totals?.total ?? 0),
      page,
      page_size: NOTICE_PAGE_SIZE,
    };
  }

  /** How many of the announcements the list shows this user has not opened. */
  async unreadCount(userId: number, lang: Language): Promise<number> {
    const [row] = await this.db
      .select({ unread: count() })
      .from(announcements)
      .leftJoin(announcementReads, this.readBy(userId))
      .where(and(await this.visible(lang), isNull(announcementReads.userId)));
    return Number(row?.unread ?? 0);
  }

  /** One published announcement by id; opening it marks it read for this user (again is a no-op). */
  async open(userId: number, id: number): Promise<NoticeDetailView> {
    const [row] = await this.db
      .select()
      .from(announcements)
      .where(and(eq(announcements.id, id), eq(announcements.published, true)))
      .limit(1);
    if (!row) throw notFound('notice_not_found');
    await this.db.insert(announcementReads).values({ userId, announcementId: id }).onConflictDoNothing();
    return { ...itemView(row, true), content: row.content };
  }
}
