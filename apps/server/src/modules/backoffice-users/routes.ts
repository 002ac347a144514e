import { intFromInput, invalid, OrderStatus, pageQuery, type OrderStatusValue } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok, parse } from '../../http/envelope.js';
import { requireOperator } from '../../http/operator.js';
import type { BackofficeUsersService } from './service.js';

export const DEFAULT_PAGE_SIZE = 20;

/** `?page=` and `?page_size=` (at most 100) of every back-office list. */
export const adminPageQuery = pageQuery.extend({
  page_size: intFromInput('admin_page_size_invalid', (number) =>
    number.min(1, { error: 'admin_page_size_invalid' }).max(100, { error: 'admin_page_size_invalid' }),
  ).default(DEFAULT_PAGE_SIZE),
});
const paging = (query: { page: number; page_size: number }) => ({ page: query.page, pageSize: query.page_size });

const ZUidParams = z.object({
  uid: intFromInput('admin_user_not_found', (number) => number.positive({ error: 'admin_user_not_found' })),
});
const ZSearchQuery = adminPageQuery.extend({
  q: z
    .string({ error: 'admin_user_query_invalid' })
    .trim()
    .max(100, { error: 'admin_user_query_invalid' })
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
});
const ORDER_STATUSES: readonly number[] = Object.values(OrderStatus);
const ZOrdersQuery = adminPageQuery.extend({
  status: intFromInput('admin_order_status_invalid')
    .refine((value) => ORDER_STATUSES.includes(value), { error: 'admin_order_status_invalid' })
    .transform((value) => value as OrderStatusValue)
    .optional(),
});
const ZFreezeBody = z.strictObject(
  {
    login: z.boolean({ error: 'admin_freeze_empty' }).optional(),
    trading: z.boolean({ error: 'admin_freeze_empty' }).optional(),
    withdrawals: z.boolean({ error: 'admin_freeze_empty' }).optional(),
  },
  { error: 'admin_freeze_empty' },
);
const ZOutboxQuery = adminPageQuery.extend({
  destination: z
    .string({ error: 'admin_outbox_destination_invalid' })
    .trim()
    .max(254, { error: 'admin_outbox_destination_invalid' })
    .optional()
    .transform((value) => (value === '' ? undefined : value?.includes('@') ? value.toLowerCase() : value)),
});

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
      const query = parse(ZSearchQuery, request.query);
      return ok(request, await service.search(query.q, paging(query)));
    });

    app.get(USERS_ADMIN_PATHS.detail, async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUidParams, request.params);
      return ok(request, await service.detail(uid));
    });

    app.get(USERS_ADMIN_PATHS.orders, async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUidParams, request.params);
      const query = parse(ZOrdersQuery, request.query);
      return ok(request, await service.orders(uid, query.status, paging(query)));
    });

    app.get(USERS_ADMIN_PATHS.ledger, async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUidParams, request.params);
      return ok(request, await service.ledger(uid, paging(parse(adminPageQuery, request.query)), request.lang));
    });

    for (const list of ['deposits', 'withdrawals', 'sessions'] as const) {
      app.get(USERS_ADMIN_PATHS[list], async (request) => {
        requireOperator(request);
        const { uid } = parse(ZUidParams, request.params);
        return ok(request, await service[list](uid, paging(parse(adminPageQuery, request.query))));
      });
    }

    app.post(USERS_ADMIN_PATHS.freeze, async (request) => {
      const operator = requireOperator(request);
      const { uid } = parse(ZUidParams, request.params);
      const change = parse(ZFreezeBody, request.body);
      if (change.login === undefined && change.trading === undefined && change.withdrawals === undefined) {
        throw invalid('admin_freeze_empty');
      }
      return ok(request, await service.freeze(uid, change, operator, request.ip), 'admin_freeze_saved');
    });

    app.post(USERS_ADMIN_PATHS.revokeSessions, async (request) => {
      const operator = requireOperator(request);
      const { uid } = parse(ZUidParams, request.params);
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
