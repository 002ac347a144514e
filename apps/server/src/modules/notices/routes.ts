import { ApiPath, ZNoticeInfoQuery, ZNoticeListQuery } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../http/auth.js';
import { ok, parse } from '../../http/envelope.js';
import type { NoticesService } from './service.js';

/** What users ask for; the operators' routes are in admin.ts. */
export function noticeRoutes(notices: NoticesService) {
  return (app: FastifyInstance) => {
    app.get(ApiPath.noticeList, async (request) => {
      const { userId } = requireUser(request);
      const { page } = parse(ZNoticeListQuery, request.query);
      return ok(request, await notices.list(userId, request.lang, page));
    });

    app.get(ApiPath.noticeUnreadCount, async (request) => {
      const { userId } = requireUser(request);
      return ok(request, { count: await notices.unreadCount(userId, request.lang) });
    });

    app.get(ApiPath.noticeInfo, async (request) => {
      const { userId } = requireUser(request);
      const { id } = parse(ZNoticeInfoQuery, request.query);
      return ok(request, await notices.open(userId, id));
    });
  };
}
