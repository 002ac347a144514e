import { ApiPath, ZNewsCreate, ZNewsInfoQuery, ZNewsListQuery } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { ok, parse } from '../../http/envelope.js';
import { requireOperator } from '../../http/operator.js';
import type { ContentService } from './service.js';

/** Where an operator publishes news until the back office has its screen. */
export const NEWS_ADMIN_PATH = '/admin/api/news';

export function contentRoutes(content: ContentService, config: Config) {
  return (app: FastifyInstance) => {
    app.get(ApiPath.newsList, async (request) => {
      const query = parse(ZNewsListQuery, request.query);
      return ok(request, await content.list(request.lang, query.category_id, query.page));
    });

    app.get(ApiPath.newsInfo, async (request) => {
      const { id } = parse(ZNewsInfoQuery, request.query);
      return ok(request, await content.info(id));
    });

    app.post(NEWS_ADMIN_PATH, async (request) => {
      requireOperator(request, config);
      return ok(request, await content.create(parse(ZNewsCreate, request.body)));
    });
  };
}
