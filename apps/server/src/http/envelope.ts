import { AppError, DEFAULT_LANGUAGE, ResponseCode, type Envelope, type Language, type SuccessEnvelope } from '@pipwise/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hasMessage, translate } from '../i18n/catalog.js';
import { envelope, requestLanguage } from './transport.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
  }
}

/** Success envelope; `msgKey` lets a route confirm an action in the user's language. */
export function ok<T>(
  request: FastifyRequest,
  data: T,
  msgKey = 'ok',
  params?: Record<string, string | number>,
): SuccessEnvelope<T> {
  return { code: ResponseCode.ok, msg: translate(request.lang, msgKey, params), data };
}

/**
 * Parses input with a shared zod schema; the first failure becomes a translated message. Schemas carry
 * message keys as their error text; anything else (zod's own wording) is replaced by a generic
 * "field is not valid" naming the field, so zod's English never reaches a user.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || 'input';
  if (issue && hasMessage(issue.message)) throw new AppError('invalidInput', issue.message, { field });
  const missing = issue?.code === 'invalid_type' && issue.input === undefined;
  throw new AppError('invalidInput', missing ? 'field_required' : 'field_invalid', { field });
}

function envelopeFor(request: FastifyRequest, error: AppError): Envelope<null> {
  return { code: error.code, msg: translate(request.lang, error.key, error.params), data: null };
}

/** One place turns every failure into the envelope: never a stack trace or SQL text in `msg`. */
export function registerEnvelope(app: FastifyInstance) {
  app.decorateRequest('lang', 'hk');
  app.addHook('onRequest', async (request) => {
    request.lang = requestLanguage(request.headers);
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(envelope(request.lang, ResponseCode.notFound, 'route_not_found'));
  });

  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply: FastifyReply) => {
    try {
      return answerError(error, request, reply);
    } catch (failure) {
      // Fastify's own fallback would answer outside the envelope, quoting the internal message.
      request.log.error({ err: failure, cause: error }, 'the error handler failed');
      return reply.code(500).send(envelope(DEFAULT_LANGUAGE, ResponseCode.internal, 'internal_error'));
    }
  });
}

function answerError(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.kind === 'tooManyRequests') {
      // Every 429 says when to come back; the limiter that refused knows best, a minute otherwise.
      const retryAfter = error.params.retry_after ?? 60;
      return reply.code(429).header('retry-after', String(retryAfter)).send(envelopeFor(request, error));
    }
    return reply.code(200).send(envelopeFor(request, error));
  }
  const statusCode = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (statusCode === 429) {
    return reply
      .code(429)
      .send({ code: ResponseCode.tooManyRequests, msg: translate(request.lang, 'too_many_requests'), data: null });
  }
  // A body refused by its size or type was not read: closing the connection spares reading the rest.
  if (statusCode === 413 || statusCode === 415) void reply.header('connection', 'close');
  if (statusCode === 413) {
    return reply
      .code(413)
      .send({ code: ResponseCode.invalidInput, msg: translate(request.lang, 'payload_too_large'), data: null });
  }
  if (statusCode >= 400 && statusCode < 500) {
    request.log.info({ err: error }, 'rejected malformed request');
    return reply.code(200).send({ code: ResponseCode.invalidInput, msg: translate(request.lang, 'body_invalid'), data: null });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ code: ResponseCode.internal, msg: translate(request.lang, 'internal_error'), data: null });
}
