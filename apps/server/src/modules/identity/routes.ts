import { ApiPath, ZIdentityRejectRequest, ZIdentityUserParams, ZRealNameRequest } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { ok, parse } from '../../http/envelope.js';
import { allow, requireOperator } from '../../http/operator.js';
import { requireRealUser } from '../../http/requests.js';
import type { IdentityService } from './service.js';

/** Operator API of the review queue (paths ours; the back office calls them). */
export const IdentityAdminPath = {
  list: '/admin/api/kyc',
  approve: '/admin/api/kyc/:userId/approve',
  reject: '/admin/api/kyc/:userId/reject',
  cardId: '/admin/api/kyc/:userId/card_id',
} as const;

export function identityRoutes(identity: IdentityService) {
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

    app.post(IdentityAdminPath.approve, allow('compliance'), async (request) => {
      const operator = requireOperator(request);
      const { userId } = parse(ZIdentityUserParams, request.params);
      return ok(request, await identity.approve(userId, { ...operator, ip: request.ip }), 'identity_approved');
    });

    app.post(IdentityAdminPath.reject, allow('compliance'), async (request) => {
      const operator = requireOperator(request);
      const { userId } = parse(ZIdentityUserParams, request.params);
      const { reason, internal_note } = parse(ZIdentityRejectRequest, request.body);
      const decided = await identity.reject(userId, { ...operator, ip: request.ip }, reason, internal_note ?? null);
      return ok(request, decided, 'identity_rejected');
    });

    app.get(IdentityAdminPath.cardId, allow('compliance'), async (request) => {
      const operator = requireOperator(request);
      const { userId } = parse(ZIdentityUserParams, request.params);
      return ok(request, await identity.reveal(userId, { ...operator, ip: request.ip }));
    });
  };
}
