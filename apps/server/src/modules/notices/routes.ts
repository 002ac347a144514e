import {
  ApiPath,
  ZAccountNoticeListQuery,
  ZAccountNoticeListView,
  ZAccountNoticeReadView,
  ZNoticeDetailView,
  ZNoticeInfoQuery,
  ZNoticeListQuery,
  ZNoticeListView,
  ZNoticeUnreadView,
} from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../http/auth.js';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import type { AccountNotices } from './account.js';
import type { NoticesService } from './service.js';

/** What users ask for; the operators' routes are in admin.ts. */
export function noticeRoutes(notices: NoticesService, accountNotices: AccountNotices) {
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.get(
      ApiPath.noticeList,
      { schema: { querystring: ZNoticeListQuery, response: answers(ZNoticeListView) } },
      async (request) => {
        const { userId } = requireUser(request);
        const { page } = parse(ZNoticeListQuery, request.query);
        return ok(request, await notices.list(userId, request.lang, page));
      },
    );

    app.get(ApiPath.noticeUnreadCount, { schema: { response: answers(ZNoticeUnreadView) } }, async (request) => {
      const { userId } = requireUser(request);
      return ok(request, { count: await notices.unreadCount(userId, request.lang) });
    });

    app.get(
      ApiPath.noticeInfo,
      { schema: { querystring: ZNoticeInfoQuery, response: answers(ZNoticeDetailView) } },
      async (request) => {
        const { userId } = requireUser(request);
        const { id } = parse(ZNoticeInfoQuery, request.query);
        return ok(request, await notices.open(userId, id));
      },
    );

    app.get(
      ApiPath.accountNoticeList,
      { schema: { querystring: ZAccountNoticeListQuery, response: answers(ZAccountNoticeListView) } },
      async (request) => {
        const { userId } = requireUser(request);
        const { page } = parse(ZAccountNoticeListQuery, request.query);
        return ok(request, await accountNotices.list(userId, page));
      },
    );

    app.get(ApiPath.accountNoticeUnread, { schema: { response: answers(ZNoticeUnreadView) } }, async (request) => {
      const { userId } = requireUser(request);
      return ok(request, { count: await accountNotices.unreadCount(userId) });
    });

    app.post(ApiPath.accountNoticeRead, { schema: { response: answers(ZAccountNoticeReadView) } }, async (request) => {
      const { userId } = requireUser(request);
      return ok(request, { marked: await accountNotices.markAllRead(userId) });
    });
  };
}
