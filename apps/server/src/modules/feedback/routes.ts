import {
  ApiPath,
  ZFeedbackAdminView,
  ZFeedbackListQuery,
  ZFeedbackParams,
  ZFeedbackRequest,
  ZFeedbackSubmittedView,
  pageOf,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator } from '../../http/operator.js';
import type { FeedbackService } from './service.js';

/** Operator API of the feedback queue (paths ours; the back office calls them). */
export const FeedbackAdminPath = {
  list: '/admin/api/feedback',
  handled: '/admin/api/feedback/:id/handled',
} as const;

/**
 * A person writes a few feedbacks, not dozens: per session when signed in, per address for visitors
 * (counted after authentication, so signed-in users behind one address do not share a budget).
 */
export const FEEDBACK_SUBMIT_LIMIT = { max: 5, timeWindow: '10 minutes' } as const;

const submitLimit = {
  config: {
    rateLimit: {
      ...FEEDBACK_SUBMIT_LIMIT,
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) =>
        request.principal ? `feedback-session:${request.principal.sessionId}` : `feedback-ip:${request.ip}`,
    },
  },
};

export function feedbackRoutes(service: FeedbackService) {
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    const submit = { body: ZFeedbackRequest, response: answers(ZFeedbackSubmittedView) };
    app.post(ApiPath.feedbackSubmit, { ...submitLimit, schema: submit }, async (request) => {
      const input = parse(ZFeedbackRequest, request.body);
      return ok(request, await service.submit(request.principal, input, request.lang), 'feedback_submitted');
    });

    const list = { querystring: ZFeedbackListQuery, response: answers(pageOf(ZFeedbackAdminView)) };
    app.get(FeedbackAdminPath.list, { schema: list }, async (request) => {
      requireOperator(request);
      const { status, page } = parse(ZFeedbackListQuery, request.query);
      return ok(request, await service.list(status, page));
    });

    const handled = { params: ZFeedbackParams, response: answers(ZFeedbackAdminView) };
    app.post(FeedbackAdminPath.handled, { schema: handled }, async (request) => {
      const operator = requireOperator(request);
      const { id } = parse(ZFeedbackParams, request.params);
      return ok(request, await service.markHandled(id, operator, request.ip), 'feedback_handled');
    });
  };
}
