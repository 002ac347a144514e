import {
  invalid,
  ZAdminPageQuery,
  ZFreezeRequest,
  ZOutboxQuery,
  ZUserOrdersQuery,
  ZUserSearchQuery,
  ZUserUidParams,
  pageOf,
  ZFreezeSavedView,
  ZOutboxPageView,
  ZSessionsRevokedView,
  ZUserDepositRowView,
  ZUserDetailView,
  ZUserLedgerRowView,
  ZUserOrderView,
  ZUserRowView,
  ZUserSessionRowView,
  ZUserWithdrawalRowView,
} from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator } from '../../http/operator.js';
import type { BackofficeUsersService } from './service.js';

const paging = (query: { page: number; page_size: number }) => ({ page: query.page, pageSize: query.page_size });

export const USERS_ADMIN_PATHS = {
  list: '/admin/api/users',
  detail: '/admin/api/users/:uid',
  orders: '/admin/api/users/:uid/orders',
  ledger: '/admin/api/users/:uid/ledger',
  deposits: '/admin/api/users/:uid/deposits',
  withdrawals: '/admin/api/users/:uid/withdrawals',
  sessions: '/admin/api/users/:uid/sessions',
  freeze: '/admin/api/users/:uid/freeze',
  revokeSessions: '/admin/api/users/:uid/revoke-sessions',
  outbox: '/admin/api/outbox',
} as const;

export function backofficeUserRoutes(service: BackofficeUsersService) {
  const params = ZUserUidParams;
  const rows = { deposits: ZUserDepositRowView, withdrawals: ZUserWithdrawalRowView, sessions: ZUserSessionRowView };
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.get(
      USERS_ADMIN_PATHS.list,
      { schema: { querystring: ZUserSearchQuery, response: answers(pageOf(ZUserRowView)) } },
      async (request) => {
        requireOperator(request);
        const query = parse(ZUserSearchQuery, request.query);
        return ok(request, await service.search(query.q, paging(query)));
      },
    );

    app.get(USERS_ADMIN_PATHS.detail, { schema: { params, response: answers(ZUserDetailView) } }, async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      return ok(request, await service.detail(uid));
    });

    const orders = { params, querystring: ZUserOrdersQuery, response: answers(pageOf(ZUserOrderView)) };
    app.get(USERS_ADMIN_PATHS.orders, { schema: orders }, async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      const query = parse(ZUserOrdersQuery, request.query);
      return ok(request, await service.orders(uid, query.status, paging(query)));
    });

    const ledger = { params, querystring: ZAdminPageQuery, response: answers(pageOf(ZUserLedgerRowView)) };
    app.get(USERS_ADMIN_PATHS.ledger, { schema: ledger }, async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      return ok(request, await service.ledger(uid, paging(parse(ZAdminPageQuery, request.query)), request.lang));
    });

    for (const list of ['deposits', 'withdrawals', 'sessions'] as const) {
      const schema = { params, querystring: ZAdminPageQuery, response: answers(pageOf(rows[list])) };
      instance.get(USERS_ADMIN_PATHS[list], { schema }, async (request) => {
        requireOperator(request);
        const { uid } = parse(ZUserUidParams, request.params);
        return ok(request, await service[list](uid, paging(parse(ZAdminPageQuery, request.query))));
      });
    }

    const freeze = { params, body: ZFreezeRequest, response: answers(ZFreezeSavedView) };
    app.post(USERS_ADMIN_PATHS.freeze, { schema: freeze }, async (request) => {
      const operator = requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      const change = parse(ZFreezeRequest, request.body);
      if (change.login === undefined && change.trading === undefined && change.withdrawals === undefined) {
        throw invalid('admin_freeze_empty');
      }
      return ok(request, await service.freeze(uid, change, operator, request.ip), 'admin_freeze_saved');
    });

    app.post(
      USERS_ADMIN_PATHS.revokeSessions,
      { schema: { params, response: answers(ZSessionsRevokedView) } },
      async (request) => {
        const operator = requireOperator(request);
        const { uid } = parse(ZUserUidParams, request.params);
        const answer = await service.revokeSessions(uid, operator, request.ip);
        return ok(request, answer, 'admin_sessions_revoked', { count: answer.sessions_ended });
      },
    );

    app.get(
      USERS_ADMIN_PATHS.outbox,
      { schema: { querystring: ZOutboxQuery, response: answers(ZOutboxPageView) } },
      async (request) => {
        requireOperator(request);
        const query = parse(ZOutboxQuery, request.query);
        return ok(request, await service.outbox(query.destination, paging(query)));
      },
    );
  };
}
