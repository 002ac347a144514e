import { ApiPath, ZIdentityListQuery, ZIdentityRejectRequest, ZIdentityUserParams, ZRealNameRequest } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { ok, parse } from '../../http/envelope.js';
import { requireOperator } from '../../http/operator.js';
import { requireRealUser } from '../../http/requests.js';
import type { IdentityService } from './service.js';

/** Operator API of the review queue (paths ours; the back office calls them). */
export const IdentityAdminPath = {
  list: '/admin/api/identity',
  approve: '/admin/api/identity/:userId/approve',
  reject: '/admin/api/identity/:userId/reject',
  cardId: '/admin/api/identity/:userId/card_id',
} as const;

export function identityRoutes(identity: IdentityService, config: Config) {
  return (app: FastifyInstance) => {
    app.post(ApiPath.realName, async (request) => {
      const { userId } = requireRealUser(request);
      const body = parse(ZRealNameRequest, request.body);
      return ok(request, await identity.submit(userId, body), 'real_name_submitted');
    });

    app.get(ApiPath.realNameCenter, async (request) => {
      const { userId } = requireRealUser(request);
      return ok(request, await identity.center(userId));
    });

    app.get(IdentityAdminPath.list, async (request) => {
      requireOperator(request, config);
      const { status, page } = parse(ZIdentityListQuery, request.query);
      return ok(request, await identity.list(status, page));
    });

    app.post(IdentityAdminPath.approve, async (request) => {
      const operator = requireOperator(request, config);
      const { userId } = parse(ZIdentityUserParams, request.params);
      return ok(request, await identity.approve(userId, operator), 'identity_approved');
    });

    app.post(IdentityAdminPath.reject, async (request) => {
      const operator = requireOperator(request, config);
      const { userId } = parse(ZIdentityUserParams, request.params);
      const { reason } = parse(ZIdentityRejectRequest, request.body);
      return ok(request, await identity.reject(userId, operator, reason), 'identity_rejected');
    });

    app.get(IdentityAdminPath.cardId, async (request) => {
      const operator = requireOperator(request, config);
      const { userId } = parse(ZIdentityUserParams, request.params);
      return ok(request, await identity.reveal(userId, operator));
    });
  };
}
