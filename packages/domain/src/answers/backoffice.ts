import { z } from 'zod';
import { OPERATOR_ROLES, type PendingChangeView } from '../backoffice.js';
import { RealNameStatus } from '../schemas/identity.js';
import { SETTING_RULES } from '../schemas/backoffice-catalogue.js';
import type {
  AdjustmentView,
  AnnouncementAdminView,
  AuditChainView,
  AuditRowView,
  CategoryAdminView,
  ChangeApprovalView,
  DepositChannelView,
  EnrolmentStartView,
  IdentityQueueItemView,
  InstrumentAdminView,
  NewsAdminView,
  OperatorEnrolmentView,
  OperatorRecordView,
  OperatorRowView,
  OperatorSessionView,
  OperatorSignInView,
  OperatorWithdrawalView,
  OutboxMessageView,
  OutboxPageView,
  PendingChangeRefView,
  ReviewClaimView,
  ReviewContextView,
  ReviewUserView,
  RiskView,
  SignedInOperatorView,
  WithdrawCurrencyAdminListView,
  WithdrawCurrencyAdminView,
} from '../views/backoffice.js';
import type { IdentityCardIdView, IdentityReviewView, RealNameView } from '../views/identity.js';
import { pageOf, ZPayoutWarningView, ZWithdrawalView } from './cashier.js';

// Answer schemas of the operator API and of real-name verification, for the OpenAPI documents; each
// satisfies its view and the routes are typed by them, so a field added to one side only is a compile error.

const zInt = () => z.number().int();
const ZRole = z.enum(OPERATOR_ROLES);

export const ZSignedInOperatorView = z.object({
  id: zInt(),
  email: z.string(),
  role: ZRole,
}) satisfies z.ZodType<SignedInOperatorView>;

export const ZOperatorSignInView = z.object({
  token: z.string(),
  operator: ZSignedInOperatorView,
}) satisfies z.ZodType<OperatorSignInView>;

export const ZOperatorRowView = z.object({
  id: zInt(),
  email: z.string(),
  role: ZRole,
  disabled: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
}) satisfies z.ZodType<OperatorRowView>;

export const ZOperatorEnrolmentView = z.object({
  email: z.string(),
  role: ZRole,
  link: z.string().describe('a path of the back office, shown once'),
  expires_at: z.string(),
}) satisfies z.ZodType<OperatorEnrolmentView>;

export const ZEnrolmentStartView = z.object({
  email: z.string(),
  role: ZRole,
  otpauth: z.string(),
}) satisfies z.ZodType<EnrolmentStartView>;

export const ZOperatorSessionView = z.object({
  id: zInt(),
  created_at: z.string(),
  expires_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  current: z.boolean(),
}) satisfies z.ZodType<OperatorSessionView>;

export const ZPendingChangeView = z.object({
  id: zInt(),
  kind: z.string(),
  payload: z.record(z.string(), z.unknown()),
  status: zInt().describe('0 waiting, 1 approved, 2 rejected'),
  maker: z.string(),
  checker: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
}) satisfies z.ZodType<PendingChangeView>;

export const ZPendingChangeRefView = z.object({
  pending_change: ZPendingChangeView,
}) satisfies z.ZodType<PendingChangeRefView>;

export const ZOperatorRecordView = z.object({
  id: zInt(),
  email: z.string(),
  role: ZRole,
  disabled: z.boolean(),
  createdBy: z.string(),
  createdAt: z.string(),
  passwordChangedAt: z.string().nullable(),
}) satisfies z.ZodType<OperatorRecordView>;

export const ZChangeApprovalView = z.object({
  change: ZPendingChangeView,
  result: z.union([ZOperatorEnrolmentView, ZOperatorRecordView, z.null()]),
}) satisfies z.ZodType<ChangeApprovalView>;

export const ZAdjustmentView = z.object({
  id: zInt(),
  uid: zInt(),
  amount: z.number().describe('signed: a credit is positive'),
  reason: z.string(),
  internal_note: z.string().nullable(),
  status: zInt().describe('0 waiting, 1 approved and posted, 2 rejected'),
  maker: z.string(),
  checker: z.string().nullable(),
  checker_note: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
}) satisfies z.ZodType<AdjustmentView>;

export const ZReviewClaimView = z.object({ operator: z.string(), expires_at: z.string() }) satisfies z.ZodType<ReviewClaimView>;

export const ZReviewUserView = z.object({
  uid: zInt(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  balance: z.number(),
  lock_balance: z.number(),
  equity: z.number(),
  kyc_status: zInt(),
  deposits_total: z.number(),
  withdrawals_total: z.number(),
  created_at: z.string(),
}) satisfies z.ZodType<ReviewUserView>;

export const ZReviewContextView = z.object({
  claim: ZReviewClaimView.nullable(),
  user: ZReviewUserView.nullable(),
}) satisfies z.ZodType<ReviewContextView>;

export const ZOperatorWithdrawalView = ZWithdrawalView.extend({
  user_id: zInt(),
  method_id: zInt(),
  first_approved_by: z.string().nullable(),
  first_approved_at: z.string().nullable(),
  needs_second_approval: z.boolean(),
  warnings: z.array(ZPayoutWarningView),
  decided_by: z.string().nullable(),
  internal_note: z.string().nullable(),
}) satisfies z.ZodType<OperatorWithdrawalView>;

const ZRealNameStatus = z.union(Object.values(RealNameStatus).map((value) => z.literal(value)));

export const ZRealNameView = z.object({
  review_status: ZRealNameStatus,
  name: z.string().nullable(),
  card_id: z.string().nullable().describe('masked: ****1234'),
  front_pic: z.string().nullable(),
  reverse_pic: z.string().nullable(),
  reason: z.string().nullable(),
}) satisfies z.ZodType<RealNameView>;

export const ZIdentityReviewView = z.object({
  user_id: zInt(),
  review_status: ZRealNameStatus,
  name: z.string(),
  card_id: z.string(),
  front_pic: z.string(),
  reverse_pic: z.string(),
  reason: z.string().nullable(),
  internal_note: z.string().nullable(),
  submitted_at: z.string(),
  reviewed_at: z.string().nullable(),
  reviewed_by: z.string().nullable(),
}) satisfies z.ZodType<IdentityReviewView>;

export const ZIdentityQueueItemView = ZIdentityReviewView.extend(ZReviewContextView.shape).extend({
  uid: zInt().nullable(),
  card_id_masked: z.string(),
  front_url: z.string(),
  reverse_url: z.string(),
}) satisfies z.ZodType<IdentityQueueItemView>;

export const ZIdentityCardIdView = z.object({ user_id: zInt(), card_id: z.string() }) satisfies z.ZodType<IdentityCardIdView>;

const ZDayTotal = z.object({ count: zInt(), amount: z.number() });

export const ZRiskView = z.object({
  instruments: z.array(
    z.object({
      code: z.string(),
      long_lots: z.number(),
      short_lots: z.number(),
      net_lots: z.number(),
      net_exposure_usd: z.number().nullable(),
      floating_pnl: z.number(),
    }),
  ),
  book: z.object({
    net_exposure_usd: z.number(),
    floating_pnl: z.number(),
    clients_net_exposure_usd: z.number(),
    clients_floating_pnl: z.number(),
  }),
  stop_out_level: z.number(),
  nearest_stop_out: z.array(
    z.object({ uid: zInt().nullable(), equity: z.number(), used_margin: z.number(), margin_level: z.number() }),
  ),
  today: z.object({ deposits: ZDayTotal, withdrawals: ZDayTotal, new_users: zInt() }),
  at: z.string(),
}) satisfies z.ZodType<RiskView>;

export const ZAuditRowView = z.object({
  id: zInt(),
  at: z.string(),
  actor: z.string(),
  operator_id: zInt().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  hash: z.string(),
}) satisfies z.ZodType<AuditRowView>;

export const ZAuditChainView = z.object({
  ok: z.boolean(),
  rows: zInt(),
  broken_at: zInt().nullable(),
  head: z.string().nullable(),
  legacy_rows: zInt(),
  keyed_since: z.object({ id: zInt(), at: z.string() }).nullable(),
}) satisfies z.ZodType<AuditChainView>;

export const ZOutboxMessageView = z.object({
  id: zInt(),
  channel: z.enum(['email', 'sms']),
  destination: z.string(),
  subject: z.string(),
  body: z.string(),
  delivered: z.boolean(),
  kept_reason: z.enum(['no_smtp_url', 'no_sms_gateway']),
  created_at: z.string(),
}) satisfies z.ZodType<OutboxMessageView>;

export const ZOutboxPageView = pageOf(ZOutboxMessageView).extend({
  mail: z.enum(['smtp', 'outbox']),
}) satisfies z.ZodType<OutboxPageView>;

/** `GET /settings`: each setting's value as stored text. */
export const ZSettingsView = z.object(
  Object.fromEntries(Object.keys(SETTING_RULES).map((key) => [key, z.string()])) as Record<
    keyof typeof SETTING_RULES,
    z.ZodString
  >,
);

export const ZInstrumentAdminView = z.object({
  id: zInt(),
  code: z.string(),
  show_code: z.string(),
  name: z.string(),
  category_id: zInt(),
  price_precision: zInt(),
  spread: z.string(),
  leverages: z.array(z.number()),
  fee_rate: z.string(),
  min_lots: z.string(),
  lot_step: z.string(),
  max_lots: z.string(),
  contract_size: z.string(),
  margin_mode: zInt(),
  session: z.string(),
  enabled: z.boolean(),
  sort: zInt(),
}) satisfies z.ZodType<InstrumentAdminView>;

export const ZCategoryAdminView = z.object({
  id: zInt(),
  slug: z.string(),
  sort: zInt(),
  names: z.record(z.string(), z.string()),
}) satisfies z.ZodType<CategoryAdminView>;

export const ZNewsAdminView = z.object({
  id: zInt(),
  lang: z.string(),
  title: z.string(),
  desc: z.string(),
  logo: z.string(),
  cover: z.string(),
  content: z.string(),
  category_id: zInt(),
  published: z.boolean(),
  created_at: z.string(),
}) satisfies z.ZodType<NewsAdminView>;

export const ZAnnouncementAdminView = z.object({
  id: zInt(),
  lang: z.string(),
  title: z.string(),
  content: z.string(),
  published: z.boolean(),
  created_at: z.string(),
  read: z.boolean(),
}) satisfies z.ZodType<AnnouncementAdminView>;

export const ZDepositChannelView = z.object({
  id: zInt(),
  type: zInt(),
  currency_code: z.string(),
  protocol_code: z.string(),
  address: z.string(),
  bank_name: z.string(),
  bank_address: z.string(),
  bank_swift: z.string(),
  payee_name: z.string(),
  payee_account: z.string(),
  bank_remark: z.string(),
  min_amount: z.string(),
  max_amount: z.string(),
  enabled: z.boolean(),
  sort: zInt(),
}) satisfies z.ZodType<DepositChannelView>;

export const ZWithdrawCurrencyAdminView = z.object({
  id: zInt(),
  type: zInt(),
  code: z.string(),
  protocol: z.string(),
  fee_type: zInt(),
  draw_rate: z.string(),
  usd_price: z.string(),
  usd_price_updated_at: z.string(),
  min_amount: z.string(),
  max_amount: z.string(),
  enabled: z.boolean(),
  sort: zInt(),
}) satisfies z.ZodType<WithdrawCurrencyAdminView>;

export const ZWithdrawCurrencyAdminListView = ZWithdrawCurrencyAdminView.extend({
  rate_source: z.enum(['market', 'operator']),
  rate_pair: z.string().nullable(),
  rate: z.string(),
  rate_at: z.string(),
  rate_expires_at: z.string().nullable(),
}) satisfies z.ZodType<WithdrawCurrencyAdminListView>;
