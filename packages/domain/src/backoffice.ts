/**
 * The back office's roles (who may do what is decided per route on the server; the admin app uses the
 * same list to show only what an operator may use). superadmin may do everything and manages operators.
 */
export const OPERATOR_ROLES = ['superadmin', 'finance', 'compliance', 'support', 'content'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const isOperatorRole = (value: unknown): value is OperatorRole =>
  typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);

/**
 * Settings that move money or risk: only a superadmin may change them (finance works the queues they
 * govern), and one that weakens a control waits for a second superadmin; every other setting is the
 * content team's (and superadmin's). The server enforces it; the admin app shows who may edit.
 */
export const MONEY_SETTING_KEYS: readonly string[] = [
  'trade_fee_type',
  'demo_start_balance',
  'stop_out_level',
  'margin_call_level',
  'withdraw_requires_kyc',
  'payout_method_cooldown_hours',
  'deposit_expiry_days',
  'withdraw_four_eyes_above',
  'withdraw_rate_max_age_hours',
  'review_claim_minutes',
  'copy_min_amount',
  'copy_fee_max_pct',
];

/** The review queues: each item can be claimed by one operator at a time (advisory). */
export const REVIEW_QUEUES = ['deposits', 'withdrawals', 'kyc'] as const;
export type ReviewQueue = (typeof REVIEW_QUEUES)[number];

/** 0 waiting for a second superadmin, 1 approved (applied), 2 rejected. */
export const ChangeStatus = { waiting: 0, approved: 1, rejected: 2 } as const;

/** A change that waits for a second superadmin (`GET /admin/api/changes`), as the server answers it and the back office shows it. */
export interface PendingChangeView {
  id: number;
  /** 'settings', 'operator.add', 'operator.role' or 'operator.enable'. */
  kind: string;
  payload: Record<string, unknown>;
  status: number;
  maker: string;
  checker: string | null;
  created_at: string;
  decided_at: string | null;
}
