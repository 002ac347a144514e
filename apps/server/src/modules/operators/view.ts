import { isOperatorRole, type OperatorRecordView, type OperatorRole } from '@pipwise/domain';
import type { operators } from '../../db/schema.js';

/** The stored operator; an approved role change answers it as it is (the domain's OperatorRecordView). */
export type OperatorView = OperatorRecordView;

/** The role a stored operator acts in: one this version does not know counts as support, a narrow one. */
export const roleOf = (stored: string): OperatorRole => (isOperatorRole(stored) ? stored : 'support');

export function toView(row: typeof operators.$inferSelect): OperatorView {
  return {
    id: row.id,
    email: row.email,
    role: roleOf(row.role),
    disabled: row.disabledAt !== null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    passwordChangedAt: row.passwordChangedAt?.toISOString() ?? null,
  };
}
