import { ApiPath, AppError } from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpRequestSeconds, ordersPlacedTotal, ordersRefusedTotal } from './metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Why the request was refused, for the metrics: an AppError's message key, or the HTTP failure. */
    refusal?: string;
  }
}

/** The reason of a failure that is not an AppError: the message the envelope answers with (http/envelope.ts). */
function refusalOf(error: Error): string {
  if (error instanceof AppError) return error.key;
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status === 429) return 'too_many_requests';
  if (status === 413) return 'payload_too_large';
  return status >= 400 && status < 500 ? 'body_invalid' : 'internal_error';
}

/**
 * Times every request by its route pattern (`/v1/api/order/:id`, never the raw URL, so the label set
 * stays small; `unmatched` for 404s), and counts order submissions by outcome: the engine's own code
 * need not know about HTTP. A repeated submission (the same Idempotency-Key) counts again.
 */
export function registerHttpMetrics(app: FastifyInstance) {
  app.decorateRequest('refusal', undefined);
  app.addHook('onError', async (request, _reply, error) => {
    request.refusal = refusalOf(error);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestSeconds.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    if (isOrderSubmission(request, route)) {
      if (request.refusal) ordersRefusedTotal.inc({ reason: request.refusal });
      else if (reply.statusCode === 200) ordersPlacedTotal.inc();
    }
  });
}

const isOrderSubmission = (request: FastifyRequest, route: string) => request.method === 'POST' && route === ApiPath.submitOrder;
