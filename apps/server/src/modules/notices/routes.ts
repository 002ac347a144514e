import { ApiPath, ZAnnouncementCreate, ZNoticeInfoQuery, ZNoticeListQuery } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { requireUser } from '../../http/auth.js';
import { ok, parse } from '../../http/envelope.js';
import { requireOperator } from '../../http/operator.js';
import type { NoticesService } from './service.js';

/** The operator's path for publishing an announcement, until the back office has its screens. */
export const ANNOUNCEMENT_ADMIN_PATH = '/admin/api/announcements';

export function noticeRoutes(notices: NoticesService, config: Config) {
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

    app.post(ANNOUNCEMENT_ADMIN_PATH, async (request) => {
      requireOperator(request, config);
      return ok(request, await notices.create(parse(ZAnnouncementCreate, request.body)));
    });
  };
}
