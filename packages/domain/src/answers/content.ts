import { z } from 'zod';
import type { CompanyPageView, CompanyStatusView, CompanyView } from '../company.js';
import { LANGUAGES } from '../languages.js';
import type { CompanyAdminView } from '../views/backoffice.js';
import type { NewsDetailView, NewsItemView, NewsListView } from '../schemas/content.js';
import type { FeedbackAdminView, FeedbackSubmittedView } from '../schemas/feedback.js';
import { FEEDBACK_CATEGORIES } from '../schemas/feedback.js';
import type {
  AccountNoticeListView,
  AccountNoticeView,
  NoticeDetailView,
  NoticeItemView,
  NoticeListView,
  NoticeUnreadView,
} from '../schemas/notices.js';
import { AccountNoticeKind } from '../schemas/notices.js';
import type { LeaderboardEntryView } from '../schemas/social.js';
import { pageOf } from './cashier.js';

// Answer schemas of news, announcements, companies, the leaderboard and feedback, for the OpenAPI documents;
// each satisfies its view and the routes are typed by them, so a field added to one side only is a compile error.

const zInt = () => z.number().int();

export const ZNewsItemView = z.object({
  id: zInt(),
  lang: z.enum(LANGUAGES),
  title: z.string(),
  desc: z.string(),
  logo: z.string(),
  created_at: z.string(),
}) satisfies z.ZodType<NewsItemView>;

export const ZNewsDetailView = ZNewsItemView.extend({
  content: z.string().describe('sanitised HTML'),
}) satisfies z.ZodType<NewsDetailView>;

export const ZNewsListView = pageOf(ZNewsItemView) satisfies z.ZodType<NewsListView>;

export const ZNoticeItemView = z.object({
  id: zInt(),
  title: z.string(),
  created_at: z.string(),
  read: z.boolean(),
}) satisfies z.ZodType<NoticeItemView>;

export const ZNoticeDetailView = ZNoticeItemView.extend({
  content: z.string().describe('sanitised HTML'),
}) satisfies z.ZodType<NoticeDetailView>;

export const ZNoticeListView = pageOf(ZNoticeItemView) satisfies z.ZodType<NoticeListView>;

export const ZNoticeUnreadView = z.object({ count: zInt() }) satisfies z.ZodType<NoticeUnreadView>;

export const ZAccountNoticeView = z.object({
  id: zInt(),
  kind: z.enum([AccountNoticeKind.order, AccountNoticeKind.marginCall]),
  reason: z.string().nullable(),
  order_id: zInt().nullable(),
  code: z.string().nullable(),
  side: zInt().nullable(),
  lots: z.number().nullable(),
  price: z.number().nullable(),
  precision: zInt().nullable(),
  profit: z.number().nullable(),
  margin_level: z.number().nullable(),
  margin_call_level: z.number().nullable(),
  stop_out_level: z.number().nullable(),
  created_at: z.string(),
  read: z.boolean(),
}) satisfies z.ZodType<AccountNoticeView>;

export const ZAccountNoticeListView = pageOf(ZAccountNoticeView) satisfies z.ZodType<AccountNoticeListView>;

/** POST /api/notice/account_read: how many notices it marked read. */
export const ZAccountNoticeReadView = z.object({ marked: zInt() });

export const ZCompanyView = z.object({
  id: zInt(),
  name: z.string(),
  logo: z.string(),
  url: z.string(),
  subject: z.string(),
  registered_address: z.string(),
  location: z.string(),
  email: z.string(),
}) satisfies z.ZodType<CompanyView>;

export const ZCompanyStatusView = z.object({
  status: zInt(),
  type: zInt(),
  loss_url: z.string(),
  is_main: z.boolean(),
}) satisfies z.ZodType<CompanyStatusView>;

export const ZCompanyPageView = pageOf(ZCompanyView) satisfies z.ZodType<CompanyPageView>;

export const ZCompanyAdminView = ZCompanyView.extend(ZCompanyStatusView.shape).extend({
  sort: zInt(),
}) satisfies z.ZodType<CompanyAdminView>;

export const ZLeaderboardEntryView = z.object({
  user: z.string().describe('masked display name'),
  uid: zInt(),
  three_week_profit: z.number(),
  three_week_rate: z.number(),
  three_week_win: z.number(),
  total_rate: z.number(),
  total_trade_num: zInt(),
  multiple: z.number(),
  code: z.string(),
}) satisfies z.ZodType<LeaderboardEntryView>;

export const ZFeedbackSubmittedView = z.object({ id: zInt() }) satisfies z.ZodType<FeedbackSubmittedView>;

export const ZFeedbackAdminView = z.object({
  id: zInt(),
  uid: zInt().nullable(),
  category: z.enum(FEEDBACK_CATEGORIES),
  text: z.string(),
  contact: z.string().nullable(),
  upload_id: z.string().nullable(),
  lang: z.string(),
  status: zInt(),
  handled_by: z.string().nullable(),
  handled_at: z.string().nullable(),
  created_at: z.string(),
}) satisfies z.ZodType<FeedbackAdminView>;
