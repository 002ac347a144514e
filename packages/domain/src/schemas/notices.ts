import { z } from 'zod';
import { LANGUAGES } from '../languages.js';
import { pageQuery, positiveIntId, requiredText } from './common.js';

/** GET /api/notice/list. */
export const ZNoticeListQuery = pageQuery;
export type TNoticeListQuery = z.infer<typeof ZNoticeListQuery>;

/** GET /api/notice/info. */
export const ZNoticeInfoQuery = z.object({ id: positiveIntId('notice_id_invalid') });
export type TNoticeInfoQuery = z.infer<typeof ZNoticeInfoQuery>;

/** Longest announcement body accepted from an operator (HTML, before sanitising). */
export const ANNOUNCEMENT_CONTENT_MAX = 50_000;

/**
 * POST /admin/api/announcements. The content is HTML and may span lines, so it is checked for NUL only
 * (PostgreSQL text cannot hold one); the server sanitises it before storing.
 */
export const ZAnnouncementCreate = z.object({
  lang: z.enum(LANGUAGES, { error: 'notice_lang_invalid' }),
  title: requiredText('notice_title_required', 200),
  content: z
    .string({ error: 'notice_content_required' })
    .max(ANNOUNCEMENT_CONTENT_MAX, { error: 'field_too_long' })
    .refine((value) => !value.includes('\u0000'), { error: 'field_invalid' }),
  published: z.boolean({ error: 'field_invalid' }).default(true),
});
export type TAnnouncementCreate = z.infer<typeof ZAnnouncementCreate>;

/** An announcement in the list; `read` is whether this user has opened it. */
export interface NoticeItemView {
  id: number;
  title: string;
  /** ISO 8601; the client formats it in the reader's language. */
  created_at: string;
  read: boolean;
}

/** The announcement itself: `content` is sanitised HTML. */
export interface NoticeDetailView extends NoticeItemView {
  content: string;
}

export interface NoticeListView {
  data: NoticeItemView[];
  total: number;
  page: number;
  page_size: number;
}

export interface NoticeUnreadView {
  count: number;
}
