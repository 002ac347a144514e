import { z } from 'zod';
import { COPY_PROVIDER_STATUSES } from '../schemas/backoffice-copy.js';
import { COPY_STATUSES, COPY_STOP_REASONS } from './copy.js';

// Answer schemas of the back office's copy-trading routes (`/admin/api/copy…`, `/admin/api/users/:uid/copies`).
// Money is USD as JSON numbers (2 decimals; realised results 6), percentages percent points, times ISO 8601.

const zInt = () => z.number().int();

/** One provider as operators see it: who, state, and the figures the public list compares. */
export const ZCopyProviderAdminView = z.object({
  id: zInt(),
  nickname: z.string(),
  uid: zInt(),
  /** Masked e-mail or phone, as the public sees the user. */
  user: z.string(),
  demo: z.boolean(),
  status: z.enum(COPY_PROVIDER_STATUSES),
  suspended_reason: z.string().nullable(),
  hidden: z.boolean(),
  automated: z.boolean(),
  fee_pct: zInt(),
  copiers: zInt(),
  copied_amount: z.number(),
  fees_earned: z.number(),
  return_12m: z.number().nullable(),
  max_drawdown: z.number(),
  risk_score: zInt().nullable(),
  created_at: z.string(),
});
export type CopyProviderAdminView = z.infer<typeof ZCopyProviderAdminView>;

/** One copy (a follower of a provider): its terms, state and money. */
export const ZCopyAdminView = z.object({
  id: zInt(),
  follower_uid: zInt(),
  provider_id: zInt(),
  provider_uid: zInt(),
  nickname: z.string(),
  amount: z.number(),
  stop_loss_pct: zInt(),
  status: z.enum(COPY_STATUSES),
  stop_reason: z.enum(COPY_STOP_REASONS).nullable(),
  /** Stopped with its positions left to the follower. */
  keep_positions: z.boolean(),
  realised: z.number(),
  fees_paid: z.number(),
  created_at: z.string(),
  stopped_at: z.string().nullable(),
});
export type CopyAdminView = z.infer<typeof ZCopyAdminView>;

/** One fee settlement: the follower's `copy_fee` ledger row (the provider got the same amount as income). */
export const ZCopyFeeAdminView = z.object({
  id: zInt(),
  copy_id: zInt(),
  follower_uid: zInt(),
  provider_id: zInt(),
  provider_uid: zInt(),
  nickname: z.string(),
  /** What the follower paid, positive. */
  amount: z.number(),
  created_at: z.string(),
});
export type CopyFeeAdminView = z.infer<typeof ZCopyFeeAdminView>;
