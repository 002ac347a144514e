/**
 * The back office's roles (who may do what is decided per route on the server; the admin app uses the
 * same list to show only what an operator may use). superadmin may do everything and manages operators.
 */
export const OPERATOR_ROLES = ['superadmin', 'finance', 'compliance', 'support', 'content'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const isOperatorRole = (value: unknown): value is OperatorRole =>
  typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);

/** The review queues: each item can be claimed by one operator at a time (advisory). */
export const REVIEW_QUEUES = ['deposits', 'withdrawals', 'kyc'] as const;
export type ReviewQueue = (typeof REVIEW_QUEUES)[number];
