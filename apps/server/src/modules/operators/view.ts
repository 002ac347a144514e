import { isOperatorRole, type OperatorRole } from '@pipwise/domain';
import type { operators } from '../../db/schema.js';

export interface OperatorView {
  id: number;
  email: string;
  role: OperatorRole;
  disabled: boolean;
  createdBy: string;
  createdAt: string;
  passwordChangedAt: string | null;
}

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
