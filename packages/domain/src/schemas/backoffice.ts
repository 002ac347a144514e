import { z } from 'zod';
import { OPERATOR_ROLES, REVIEW_QUEUES } from '../backoffice.js';
import { DepositStatus, WithdrawalStatus } from '../cashier.js';
import { dec } from '../money.js';
import { OrderStatus, type OrderStatusValue } from '../trading.js';
import { intFromInput, optionalText, pageQuery, positiveIntId, requiredText, withUnsafeCharactersReplaced } from './common.js';
import { decisionRequest, INTERNAL_NOTE_MAX } from './decisions.js';
import { ZCashierAmount } from './cashier.js';
import { ZIdentityListQuery } from './identity.js';

// The operator API's requests (`/admin/api`, docs/admin-api.md): the server parses with these and the
// back office's forms check with them, so both refuse the same input for the same reason. Message keys
// are translated by each side (the server's operator messages, the back office's locales).

/** `?page=` and `?page_size=` (at most 100) of every back-office list. */
export const ADMIN_PAGE_SIZE = 20;
export const ZAdminPageQuery = pageQuery.extend({
  page_size: intFromInput('admin_page_size_invalid', (number) =>
    number.min(1, { error: 'admin_page_size_invalid' }).max(100, { error: 'admin_page_size_invalid' }),
  ).default(ADMIN_PAGE_SIZE),
});

// Operators: signing in, enrolment, their own password and sessions, and managing them.

/** Shortest operator password, in characters. */
export const OPERATOR_PASSWORD_MIN_LENGTH = 12;

// The server answers any refusal of it as operator_login_failed; the keys are for the back office's form.
export const ZOperatorLoginRequest = z.object({
  // A malformed e-mail fails like a wrong one (and is audited like one), never reaching the database raw.
  email: z
    .string({ error: 'email_required' })
    .max(1000, { error: 'email_too_long' })
    .transform(withUnsafeCharactersReplaced)
    .pipe(z.string().trim().min(3, { error: 'email_required' }).max(254, { error: 'email_too_long' })),
  password: z
    .string({ error: 'password_required' })
    .min(1, { error: 'password_required' })
    .max(200, { error: 'password_too_long' }),
  otp: z.string({ error: 'otp_required' }).trim().max(10, { error: 'otp_required' }),
  /** The captcha's id and the text read from it, once the e-mail's logins need one. */
  key: z.string().max(100).optional(),
  captcha: z.string().max(20).optional(),
});
export const ZEnrolmentToken = z.string().max(100);
export const ZEnrolmentBeginRequest = z.object({ token: ZEnrolmentToken });
// The server answers any refusal of it as operator_enrolment_invalid; the keys are for the back office's form.
export const ZEnrolmentFinishRequest = z.object({
  token: ZEnrolmentToken,
  password: z.string().max(200, { error: 'enrol_password_too_long' }),
  otp: z.string().trim().max(10, { error: 'otp_required' }),
});
export const ZChangesQuery = z.object({ status: z.enum(['0', '1', '2']).optional() });
// The server answers any refusal of it as operator_password_invalid; the keys are for the back office's form.
export const ZOperatorPasswordRequest = z.object({
  current: z.string({ error: 'current_required' }).min(1, { error: 'current_required' }).max(200, { error: 'password_too_long' }),
  password: z.string().max(200, { error: 'password_too_long' }),
});
export const ZOperatorCreateRequest = z.object({
  email: z
    .string({ error: 'operator_email_invalid' })
    .trim()
    .max(254, { error: 'operator_email_invalid' })
    .pipe(z.email({ error: 'operator_email_invalid' })),
  role: z.enum(OPERATOR_ROLES, { error: 'operator_role_invalid' }),
});
export const ZOperatorRoleRequest = z.object({ role: z.enum(OPERATOR_ROLES) });
export const ZOperatorIdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** Is this password long enough for an operator (characters, not bytes)? */
export const isOperatorPasswordLongEnough = (password: string) => [...password].length >= OPERATOR_PASSWORD_MIN_LENGTH;

// Review queues and claims.

export const ZDepositQueueQuery = pageQuery.extend({
  status: intFromInput('deposit_status_invalid', (number) =>
    number
      .min(DepositStatus.unchecked, { error: 'deposit_status_invalid' })
      .max(DepositStatus.invalid, { error: 'deposit_status_invalid' }),
  ).default(DepositStatus.unchecked),
  uid: positiveIntId('uid_invalid').optional(),
});
export const ZDepositApproveRequest = z.object({ credited_amount: ZCashierAmount.optional() });
export const ZDepositDecisionRequest = decisionRequest('deposit_reason_required', 200);

export const ZWithdrawalQueueQuery = pageQuery.extend({
  status: intFromInput('withdraw_status_query_invalid', (number) =>
    number.min(WithdrawalStatus.unreviewed, { error: 'withdraw_status_query_invalid' }).max(WithdrawalStatus.invalid, {
      error: 'withdraw_status_query_invalid',
    }),
  ).default(WithdrawalStatus.unreviewed),
  uid: positiveIntId('uid_invalid').optional(),
});
export const ZWithdrawalRecordParams = z.object({ id: positiveIntId('record_invalid') });
export const ZWithdrawalDecisionRequest = decisionRequest('withdraw_reason_required', 200);

export const ZKycQueueQuery = ZIdentityListQuery.extend({ uid: positiveIntId('uid_invalid').optional() });

export const ZClaimParams = z.object({
  queue: z.enum(REVIEW_QUEUES, { error: 'claim_queue_invalid' }),
  id: positiveIntId('claim_item_not_found'),
});

// Four-eyes balance adjustments.

/** 0 waiting for a second operator, 1 approved and posted, 2 rejected. */
export const AdjustmentStatus = { waiting: 0, approved: 1, rejected: 2 } as const;

/** Largest manual change either way: a bigger one is a mistake or needs a proper cashier record. */
export const ADJUSTMENT_LIMIT = '1000000';

/**
 * A signed amount of at most 2 decimals, not 0, within the limit, as decimal text (a leading + reads as a
 * credit); a JSON number is read through its shortest text.
 */
export const ZAdjustmentAmount = z
  .union([z.string(), z.number()], { error: 'adjustment_amount_invalid' })
  .transform((value) => (typeof value === 'number' ? String(value) : value.trim().replace(/^\+/, '')))
  .refine((text) => /^-?\d{1,13}(\.\d{1,2})?$/.test(text) && !dec(text).isZero() && dec(text).abs().lte(ADJUSTMENT_LIMIT), {
    error: 'adjustment_amount_invalid',
  });
export const ZAdjustmentRequest = z.object({
  uid: positiveIntId('uid_invalid'),
  amount: ZAdjustmentAmount,
  reason: requiredText('adjustment_reason_required', 200),
  internal_note: optionalText(INTERNAL_NOTE_MAX),
});
export const ZAdjustmentQuery = pageQuery.extend({
  status: intFromInput('adjustment_status_invalid', (number) =>
    number.min(AdjustmentStatus.waiting, { error: 'adjustment_status_invalid' }).max(AdjustmentStatus.rejected, {
      error: 'adjustment_status_invalid',
    }),
  ).optional(),
});
export const ZAdjustmentParams = z.object({ id: positiveIntId('adjustment_not_found') });
export const ZAdjustmentApproveRequest = z.object({ note: optionalText(200) });
export const ZAdjustmentRejectRequest = z.object({ reason: requiredText('adjustment_reason_required', 200) });

// Users, their freezes, and the outbox.

export const ZUserUidParams = z.object({
  uid: intFromInput('admin_user_not_found', (number) => number.positive({ error: 'admin_user_not_found' })),
});
export const ZUserSearchQuery = ZAdminPageQuery.extend({
  q: z
    .string({ error: 'admin_user_query_invalid' })
    .trim()
    .max(100, { error: 'admin_user_query_invalid' })
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
});
const ORDER_STATUSES: readonly number[] = Object.values(OrderStatus);
export const ZUserOrdersQuery = ZAdminPageQuery.extend({
  status: intFromInput('admin_order_status_invalid')
    .refine((value) => ORDER_STATUSES.includes(value), { error: 'admin_order_status_invalid' })
    .transform((value) => value as OrderStatusValue)
    .optional(),
});
export const ZFreezeRequest = z.strictObject(
  {
    login: z.boolean({ error: 'admin_freeze_empty' }).optional(),
    trading: z.boolean({ error: 'admin_freeze_empty' }).optional(),
    withdrawals: z.boolean({ error: 'admin_freeze_empty' }).optional(),
  },
  { error: 'admin_freeze_empty' },
);
export const ZOutboxQuery = ZAdminPageQuery.extend({
  destination: z
    .string({ error: 'admin_outbox_destination_invalid' })
    .trim()
    .max(254, { error: 'admin_outbox_destination_invalid' })
    .optional()
    .transform((value) => (value === '' ? undefined : value?.includes('@') ? value.toLowerCase() : value)),
});

// The audit log.

const auditFilterText = (max: number) =>
  z
    .string({ error: 'audit_filter_invalid' })
    .trim()
    .max(max, { error: 'audit_filter_invalid' })
    .optional()
    .transform((value) => (value === '' ? undefined : value));
const auditTime = z
  .string({ error: 'audit_time_invalid' })
  .trim()
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === '') return undefined;
    const parsed = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? new Date(value) : null;
    if (!parsed || Number.isNaN(parsed.getTime())) {
      context.addIssue({ code: 'custom', message: 'audit_time_invalid' });
      return z.NEVER;
    }
    return parsed;
  });

/** Exact matches on the indexed columns; `from` inclusive, `to` exclusive (ISO 8601). */
export const ZAuditFilter = z.object({
  action: auditFilterText(100),
  actor: auditFilterText(300),
  target_type: auditFilterText(100),
  target_id: auditFilterText(100),
  from: auditTime,
  to: auditTime,
});
export type TAuditFilter = z.output<typeof ZAuditFilter>;
export const ZAuditQuery = ZAuditFilter.extend(pageQuery.shape).extend({
  page_size: intFromInput('admin_page_size_invalid', (number) =>
    number.min(1, { error: 'admin_page_size_invalid' }).max(100, { error: 'admin_page_size_invalid' }),
  ).default(50),
});
