import { ApiPath, ZNewsDetailView, ZNewsInfoQuery, ZNewsListQuery, ZNewsListView } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import type { ContentService } from './service.js';

/** What readers (the phone app) ask for; the operators' routes are in admin.ts. */
export function contentRoutes(content: ContentService) {
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.get(ApiPath.newsList, { schema: { querystring: ZNewsListQuery, response: answers(ZNewsListView) } }, async (request) => {
      const query = parse(ZNewsListQuery, request.query);
      return ok(request, await content.list(request.lang, query.category_id, query.page));
    });

    app.get(
      ApiPath.newsInfo,
      { schema: { querystring: ZNewsInfoQuery, response: answers(ZNewsDetailView) } },
      async (request) => {
        const { id } = parse(ZNewsInfoQuery, request.query);
        return ok(request, await content.info(id));
      },
    );
  };
}
