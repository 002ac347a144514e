import { AppError, forbidden, type OperatorRole } from '@pipwise/domain';
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

/** Which operators may call a route: roles (superadmin always may), or 'public' for login alone. */
export type OperatorAccess = readonly OperatorRole[] | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    operatorAccess?: OperatorAccess;
  }
  interface FastifyRequest {
    operator: OperatorPrincipal | null;
  }
  interface FastifyInstance {
    /** Every back-office route with its declared access: the role-matrix test walks them all. */
    operatorRoutes: { method: string; url: string; access: OperatorAccess }[];
  }
}

export const ADMIN_API = '/admin/api';

/** Route options declaring who may call it: `app.get(path, allow('finance'), handler)`. */
export const allow = (...roles: OperatorRole[]) => ({ config: { operatorAccess: roles } });
export const openToOperatorsLoggingIn = () => ({ config: { operatorAccess: 'public' as const } });

/**
 * The back office's guard. Every route under /admin/api must declare its roles (the server refuses to
 * start otherwise), and before its handler runs the operator's session is resolved and the role
 * checked here, in one place. User tokens are a different kind and never resolve as operators.
 */
export function registerOperatorAuth(app: FastifyInstance, resolve: OperatorResolver) {
  app.decorate('operatorRoutes', []);
  app.decorateRequest('operator', null);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${ADMIN_API}/`) && route.url !== ADMIN_API) return;
    const access = route.config?.operatorAccess;
    if (!access) throw new Error(`${[route.method].flat().join(',')} ${route.url} declares no operator roles`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.operatorRoutes.push({ method, url: route.url, access });
    }
  });
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.operatorAccess;
    if (!access) return;
    const token = tokenFromHeader(request.headers.authorization);
    request.operator = token ? await resolve(token) : null;
    if (access === 'public') return;
    if (!request.operator) throw new AppError('notLoggedIn', 'operator_not_logged_in');
    if (request.operator.role !== 'superadmin' && !access.includes(request.operator.role)) {
      throw forbidden('operator_role_forbidden');
    }
  });
}

/** The operator of a back-office route (the guard has already checked them). */
export function requireOperator(request: FastifyRequest): OperatorPrincipal {
  if (!request.operator) throw new AppError('notLoggedIn', 'operator_not_logged_in');
  return request.operator;
}

/** Who made a change, as services record it (an operator principal, or the command line). */
export type Operator = Pick<OperatorPrincipal, 'actor'> & { id?: number };
