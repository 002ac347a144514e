import { notLoggedIn } from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface Principal {
  userId: number;
  sessionId: number;
  isDemo: boolean;
}

/** Looks a raw token up; returns null for unknown, expired or revoked tokens. Provided by the accounts module. */
export type TokenResolver = (token: string) => Promise<Principal | null>;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    token: string | null;
  }
}

/** Accepts `authorization: <token>` and `authorization: Bearer <token>`. */
export function tokenFromHeader(header: string | string[] | undefined): string | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  const token = value.replace(/^Bearer\s+/i, '').trim();
  return token && token !== 'null' && token !== 'undefined' ? token : null;
}

export function registerAuth(app: FastifyInstance, resolve: TokenResolver) {
  app.decorateRequest('principal', null);
  app.decorateRequest('token', null);
  app.addHook('preHandler', async (request) => {
    request.token = tokenFromHeader(request.headers.authorization);
    request.principal = request.token ? await resolve(request.token) : null;
  });
}

/** The logged-in user, or the 999 envelope. */
export function requireUser(request: FastifyRequest): Principal {
  if (!request.principal) throw notLoggedIn();
  return request.principal;
}
