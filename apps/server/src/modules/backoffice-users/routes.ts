import {
  invalid,
  ZAdminPageQuery,
  ZFreezeRequest,
  ZOutboxQuery,
  ZUserOrdersQuery,
  ZUserSearchQuery,
  ZUserUidParams,
} from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { ok, parse } from '../../http/envelope.js';
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
  return (app: FastifyInstance) => {
    app.get(USERS_ADMIN_PATHS.list, async (request) => {
      requireOperator(request);
      const query = parse(ZUserSearchQuery, request.query);
      return ok(request, await service.search(query.q, paging(query)));
    });

    app.get(USERS_ADMIN_PATHS.detail, async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      return ok(request, await service.detail(uid));
    });

    app.get(USERS_ADMIN_PATHS.orders, async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      const query = parse(ZUserOrdersQuery, request.query);
      return ok(request, await service.orders(uid, query.status, paging(query)));
    });

    app.get(USERS_ADMIN_PATHS.ledger, async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      return ok(request, await service.ledger(uid, paging(parse(ZAdminPageQuery, request.query)), request.lang));
    });

    for (const list of ['deposits', 'withdrawals', 'sessions'] as const) {
      app.get(USERS_ADMIN_PATHS[list], async (request) => {
        requireOperator(request);
        const { uid } = parse(ZUserUidParams, request.params);
        return ok(request, await service[list](uid, paging(parse(ZAdminPageQuery, request.query))));
      });
    }

    app.post(USERS_ADMIN_PATHS.freeze, async (request) => {
      const operator = requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      const change = parse(ZFreezeRequest, request.body);
      if (change.login === undefined && change.trading === undefined && change.withdrawals === undefined) {
        throw invalid('admin_freeze_empty');
      }
      return ok(request, await service.freeze(uid, change, operator, request.ip), 'admin_freeze_saved');
    });

    app.post(USERS_ADMIN_PATHS.revokeSessions, async (request) => {
      const operator = requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      const answer = await service.revokeSessions(uid, operator, request.ip);
      return ok(request, answer, 'admin_sessions_revoked', { count: answer.sessions_ended });
    });

    app.get(USERS_ADMIN_PATHS.outbox, async (request) => {
      requireOperator(request);
      const query = parse(ZOutboxQuery, request.query);
      return ok(request, await service.outbox(query.destination, paging(query)));
    });
  };
}
