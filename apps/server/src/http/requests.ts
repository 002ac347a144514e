import { forbidden, ZIdempotencyKey } from '@pipwise/domain';
import type { FastifyRequest } from 'fastify';
import { requireUser, type Principal } from './auth.js';
import { parse } from './envelope.js';

/**
 * A per-minute rate limit keyed by session, so many users behind one address are not throttled
 * together. Counted after authentication (preHandler), so the key is the session's id; a request
 * without a valid session counts against its address.
 */
export const perSession = (max: number) => ({
  config: {
    rateLimit: {
      max,
      timeWindow: '1 minute',
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) =>
        request.principal ? `session:${request.principal.sessionId}` : `ip:${request.ip}`,
    },
  },
});

/** Fields of a form, a JSON body or the query: the spec leaves some methods open, GET payloads ride in the query. */
export const requestInput = (request: FastifyRequest): Record<string, unknown> => ({
  ...(request.query as Record<string, unknown>),
  ...(typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {}),
});

/** The request's `Idempotency-Key` header, checked; undefined when none was sent. */
export const idempotencyKeyOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers['idempotency-key'];
  return header === undefined ? undefined : parse(ZIdempotencyKey, Array.isArray(header) ? header[0] : header);
};

/** The logged-in user of a real account: demo accounts have no cashier or identity (docs/api.md). */
export function requireRealUser(request: FastifyRequest): Principal {
  const principal = requireUser(request);
  if (principal.isDemo) throw forbidden('demo_not_allowed');
  return principal;
}
