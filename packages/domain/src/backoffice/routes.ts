import { OPERATOR_ROLES, type OperatorRole } from '../backoffice.js';

/** Who may call a back-office route: these roles (superadmin always may), every role, or 'public' (signing in, the API's description). */
export type OperatorAccess = readonly OperatorRole[] | 'public';

const ALL = OPERATOR_ROLES;
const USERS_READERS: readonly OperatorRole[] = ['support', 'finance', 'compliance'];
/** Copy trading's providers: content hides them from the list, compliance suspends them, support and finance answer about them. */
const COPY_READERS: readonly OperatorRole[] = ['support', 'finance', 'compliance', 'content'];

/**
 * Every `/admin/api` route and who may call it, `METHOD /admin/api/path` as the server registers it. The
 * server's guard enforces this table (a route missing from it stops the server at start), the role-matrix
 * test probes every row with every role, and docs/admin-api.md's roles table is checked against it.
 * Widening a route's roles is a change to this table, in review. Some handlers narrow further: a claim's
 * queue is its own role's, and money settings are superadmin's only.
 */
export const OPERATOR_ROUTE_ROLES: ReadonlyMap<string, OperatorAccess> = new Map<string, OperatorAccess>([
  ['POST /admin/api/login', 'public'],
  ['GET /admin/api/captcha', 'public'],
  ['POST /admin/api/enrolment/begin', 'public'],
  ['POST /admin/api/enrolment/finish', 'public'],
  ['GET /admin/api/openapi.json', 'public'],
  ['GET /admin/api/me', ALL],
  ['POST /admin/api/logout', ALL],
  ['POST /admin/api/me/password', ALL],
  ['GET /admin/api/me/sessions', ALL],
  ['DELETE /admin/api/me/sessions/:id', ALL],
  ['GET /admin/api/operators', ['superadmin']],
  ['POST /admin/api/operators', ['superadmin']],
  ['POST /admin/api/operators/:id/disable', ['superadmin']],
  ['POST /admin/api/operators/:id/enable', ['superadmin']],
  ['POST /admin/api/operators/:id/reset', ['superadmin']],
  ['PUT /admin/api/operators/:id/role', ['superadmin']],
  ['GET /admin/api/changes', ['superadmin']],
  ['POST /admin/api/changes/:id/approve', ['superadmin']],
  ['POST /admin/api/changes/:id/reject', ['superadmin']],
  ['GET /admin/api/deposits', ['finance']],
  ['POST /admin/api/deposits/:id/approve', ['finance']],
  ['POST /admin/api/deposits/:id/reject', ['finance']],
  ['POST /admin/api/deposits/:id/void', ['finance']],
  ['GET /admin/api/withdrawals', ['finance']],
  ['POST /admin/api/withdrawals/:id/approve', ['finance']],
  ['POST /admin/api/withdrawals/:id/reject', ['finance']],
  ['POST /admin/api/withdrawals/:id/void', ['finance']],
  ['GET /admin/api/kyc', ['compliance']],
  ['POST /admin/api/kyc/:userId/approve', ['compliance']],
  ['POST /admin/api/kyc/:userId/reject', ['compliance']],
  ['GET /admin/api/kyc/:userId/card_id', ['compliance']],
  ['POST /admin/api/claims/:queue/:id', ['finance', 'compliance']],
  ['DELETE /admin/api/claims/:queue/:id', ['finance', 'compliance']],
  ['GET /admin/api/uploads/:id', USERS_READERS],
  ['GET /admin/api/adjustments', ['finance']],
  ['POST /admin/api/adjustments', ['finance']],
  ['POST /admin/api/adjustments/:id/approve', ['finance']],
  ['POST /admin/api/adjustments/:id/reject', ['finance']],
  ['GET /admin/api/instruments', ['content']],
  ['PUT /admin/api/instruments/:id', ['content']],
  ['GET /admin/api/categories', ['content']],
  ['POST /admin/api/categories', ['content']],
  ['PUT /admin/api/categories/:id', ['content']],
  ['GET /admin/api/deposit-channels', ['finance']],
  ['POST /admin/api/deposit-channels', ['finance']],
  ['PUT /admin/api/deposit-channels/:id', ['finance']],
  ['GET /admin/api/withdraw-currencies', ['finance']],
  ['POST /admin/api/withdraw-currencies', ['finance']],
  ['PUT /admin/api/withdraw-currencies/:id', ['finance']],
  ['GET /admin/api/companies', ['content']],
  ['POST /admin/api/companies', ['content']],
  ['PUT /admin/api/companies/:id', ['content']],
  ['GET /admin/api/news', ['content']],
  ['POST /admin/api/news', ['content']],
  ['PUT /admin/api/news/:id', ['content']],
  ['DELETE /admin/api/news/:id', ['content']],
  ['GET /admin/api/announcements', ['content']],
  ['POST /admin/api/announcements', ['content']],
  ['PUT /admin/api/announcements/:id', ['content']],
  ['DELETE /admin/api/announcements/:id', ['content']],
  ['GET /admin/api/settings', ['content', 'finance']],
  ['POST /admin/api/settings', ['content']],
  ['PUT /admin/api/settings/:key', ['content']],
  ['GET /admin/api/users', USERS_READERS],
  ['GET /admin/api/users/:uid', USERS_READERS],
  ['GET /admin/api/users/:uid/orders', USERS_READERS],
  ['GET /admin/api/users/:uid/ledger', USERS_READERS],
  ['GET /admin/api/users/:uid/deposits', USERS_READERS],
  ['GET /admin/api/users/:uid/withdrawals', USERS_READERS],
  ['GET /admin/api/users/:uid/sessions', USERS_READERS],
  ['POST /admin/api/users/:uid/freeze', USERS_READERS],
  ['POST /admin/api/users/:uid/revoke-sessions', ['support']],
  ['GET /admin/api/users/:uid/copies', USERS_READERS],
  ['GET /admin/api/copy/providers', COPY_READERS],
  ['POST /admin/api/copy/providers/:id/hide', ['content']],
  ['POST /admin/api/copy/providers/:id/unhide', ['content']],
  ['POST /admin/api/copy/providers/:id/suspend', ['compliance']],
  ['POST /admin/api/copy/providers/:id/unsuspend', ['compliance']],
  ['GET /admin/api/copy/fees', ['finance', 'support']],
  ['GET /admin/api/feedback', ['support']],
  ['POST /admin/api/feedback/:id/handled', ['support']],
  ['GET /admin/api/outbox', ['support']],
  ['GET /admin/api/risk', ['finance', 'support']],
  ['GET /admin/api/audit', ['superadmin']],
  ['GET /admin/api/audit.csv', ['superadmin']],
  ['GET /admin/api/audit/verify', ['superadmin']],
]);

/** The table's key of a route. */
export const operatorRouteKey = (method: string, path: string) => `${method} ${path}`;

/** May an operator of `role` call a route of this access? superadmin may call every route. */
export const operatorMayCall = (access: OperatorAccess, role: OperatorRole) =>
  access === 'public' || role === 'superadmin' || access.includes(role);
