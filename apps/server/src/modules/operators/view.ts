import { isOperatorRole, type OperatorRecordView } from '@pipwise/domain';
import type { operators } from '../../db/schema.js';

/** The stored operator; an approved role change answers it as it is (the domain's OperatorRecordView). */
export type OperatorView = OperatorRecordView;

export function toView(row: typeof operators.$inferSelect): OperatorView {
  return {
    id: row.id,
    email: row.email,
    role: isOperatorRole(row.role) ? row.role : 'support',
    disabled: row.disabledAt !== null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    passwordChangedAt: row.passwordChangedAt?.toISOString() ?? null,
  };
}
