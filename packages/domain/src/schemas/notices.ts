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

/**
 * What an account notice tells its user: a position or pending order the engine closed, retired or
 * filled (`order`), or the account's margin level reaching the margin-call level (`margin_call`).
 */
export const AccountNoticeKind = { order: 'order', marginCall: 'margin_call' } as const;
export type AccountNoticeKindValue = (typeof AccountNoticeKind)[keyof typeof AccountNoticeKind];

/**
 * One account notice as its user reads it (GET /api/notice/account_list and the NOTICE socket push):
 * the figures are the ones stored with the order; the client writes the sentence in its language.
 */
export interface AccountNoticeView {
  id: number;
  kind: AccountNoticeKindValue;
  /**
   * `order`: take_profit, stop_loss, stop_out, margin_short or trading_frozen (a pending order retired),
   * or `filled` (a pending order opened); null for `margin_call`.
   */
  reason: string | null;
  order_id: number | null;
  /** The instrument's display code. */
  code: string | null;
  /** 1 buy, 2 sell. */
  side: number | null;
  lots: number | null;
  /** The close or fill price (the target, for a retired pending order). */
  price: number | null;
  /** Decimals the instrument's prices are shown with. */
  precision: number | null;
  /** The closed position's profit in USD as stored with it; null for a fill or a retired pending order. */
  profit: number | null;
  /** `margin_call`: the account's margin level (percent) when it reached the margin-call level. */
  margin_level: number | null;
  /** `margin_call`: the setting it reached, and the stop-out level then in force (percent). */
  margin_call_level: number | null;
  stop_out_level: number | null;
  /** ISO 8601. */
  created_at: string;
  read: boolean;
}

export interface AccountNoticeListView {
  data: AccountNoticeView[];
  total: number;
  page: number;
  page_size: number;
}

/** GET /api/notice/account_list. */
export const ZAccountNoticeListQuery = pageQuery;
export type TAccountNoticeListQuery = z.infer<typeof ZAccountNoticeListQuery>;
