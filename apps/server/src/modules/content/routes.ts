import { ApiPath, ZNewsInfoQuery, ZNewsListQuery } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { ok, parse } from '../../http/envelope.js';
import type { ContentService } from './service.js';

/** What readers (the phone app) ask for; the operators' routes are in admin.ts. */
export function contentRoutes(content: ContentService) {
  return (app: FastifyInstance) => {
    app.get(ApiPath.newsList, async (request) => {
      const query = parse(ZNewsListQuery, request.query);
      return ok(request, await content.list(request.lang, query.category_id, query.page));
    });

    app.get(ApiPath.newsInfo, async (request) => {
      const { id } = parse(ZNewsInfoQuery, request.query);
      return ok(request, await content.info(id));
    });
  };
}
