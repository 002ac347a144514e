import { AppError, forbidden, OPERATOR_ROUTE_ROLES, operatorMayCall, operatorRouteKey, type OperatorRole } from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tokenFromHeader } from './auth.js';

/** A signed-in operator, as every back-office route sees them. */
export interface OperatorPrincipal {
  id: number;
  email: string;
  role: OperatorRole;
  sessionId: number;
  /** `operator:<email>`: the actor written on every state change and audit row. */
  actor: string;
}

/** Looks an operator session token up; null for unknown, expired, revoked or disabled. */
export type OperatorResolver = (token: string) => Promise<OperatorPrincipal | null>;

declare module 'fastify' {
  interface FastifyRequest {
    operator: OperatorPrincipal | null;
  }
  interface FastifyInstance {
    /** Every back-office route registered: the role-matrix test checks each is in the roles table. */
    operatorRoutes: { method: string; url: string }[];
  }
}

export const ADMIN_API = '/admin/api';

const isBackOffice = (url: string | undefined): url is string =>
  url !== undefined && (url.startsWith(`${ADMIN_API}/`) || url === ADMIN_API);

/** Who may call a back-office route, from the domain's table (HEAD is its GET's); undefined for any other route. */
const accessOf = (method: string, url: string | undefined) =>
  isBackOffice(url) ? OPERATOR_ROUTE_ROLES.get(operatorRouteKey(method === 'HEAD' ? 'GET' : method, url)) : undefined;

/**
 * The back office's guard. Who may call each route under /admin/api is the domain's one table
 * (OPERATOR_ROUTE_ROLES): a route missing from it stops the server at start. Before a route's handler
 * runs the operator's session is resolved and the role checked here, in one place. User tokens are a different kind and never resolve as operators.
 */
export function registerOperatorAuth(app: FastifyInstance, resolve: OperatorResolver) {
  app.decorate('operatorRoutes', []);
  app.decorateRequest('operator', null);
  app.addHook('onRoute', (route) => {
    if (!isBackOffice(route.url)) return;
    for (const method of [route.method].flat()) {
      const access = accessOf(method, route.url);
      if (!access) throw new Error(`${method} ${route.url} is not in the operator roles table (OPERATOR_ROUTE_ROLES)`);
      if (method !== 'HEAD') app.operatorRoutes.push({ method, url: route.url });
    }
  });
  app.addHook('preHandler', async (request) => {
    const access = accessOf(request.method, request.routeOptions.url);
    if (!access) return;
    const token = tokenFromHeader(request.headers.authorization);
    request.operator = token ? await resolve(token) : null;
    if (access === 'public') return;
    if (!request.operator) throw new AppError('notLoggedIn', 'operator_not_logged_in');
    if (!operatorMayCall(access, request.operator.role)) throw forbidden('operator_role_forbidden');
  });
}

/** The operator of a back-office route (the guard has already checked them). */
export function requireOperator(request: FastifyRequest): OperatorPrincipal {
  if (!request.operator) throw new AppError('notLoggedIn', 'operator_not_logged_in');
  return request.operator;
}

/** Who made a change, as services record it (an operator principal, or the command line). */
export type Operator = Pick<OperatorPrincipal, 'actor'> & { id?: number };
