import {
  ZKycQueueQuery,
  ApiPath,
  ZIdentityRejectRequest,
  ZIdentityUserParams,
  ZRealNameRequest,
  ZIdentityCardIdView,
  ZIdentityQueueItemView,
  ZIdentityReviewView,
  ZRealNameView,
  pageOf,
  type IdentityQueueItemView,
} from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator } from '../../http/operator.js';
import { requireRealUser } from '../../http/requests.js';
import { queuePage, type ReviewDesk } from '../../review/desk.js';
import { IDENTITY_PAGE_SIZE, type IdentityService } from './service.js';

/** Operator API of the review queue (paths ours; the back office calls them). */
export const IdentityAdminPath = {
  list: '/admin/api/kyc',
  approve: '/admin/api/kyc/:userId/approve',
  reject: '/admin/api/kyc/:userId/reject',
  cardId: '/admin/api/kyc/:userId/card_id',
} as const;

/** A real-name record is keyed by its user: the item claimed is the user. */
const queueItem = (row: { user_id: number }) => ({ id: row.user_id, userId: row.user_id });

export function identityRoutes(identity: IdentityService, desk: ReviewDesk) {
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.post(ApiPath.realName, { schema: { body: ZRealNameRequest, response: answers(ZRealNameView) } }, async (request) => {
      const { userId } = requireRealUser(request);
      const body = parse(ZRealNameRequest, request.body);
      return ok(request, await identity.submit(userId, body), 'real_name_submitted');
    });

    app.get(ApiPath.realNameCenter, { schema: { response: answers(ZRealNameView) } }, async (request) => {
      const { userId } = requireRealUser(request);
      return ok(request, await identity.center(userId));
    });

    const queue = { querystring: ZKycQueueQuery, response: answers(pageOf(ZIdentityQueueItemView)) };
    app.get(IdentityAdminPath.list, { schema: queue }, async (request) => {
      requireOperator(request);
      const query = parse(ZKycQueueQuery, request.query);
      const userId = await desk.userOfUid(query.uid);
      const list =
        userId === null
          ? queuePage([], 0, query.page, IDENTITY_PAGE_SIZE)
          : await identity.list(query.status, query.page, userId);
      const contextOf = await desk.contextOf('kyc', list.data.map(queueItem));
      const data = list.data.map((row): IdentityQueueItemView => {
        const context = contextOf(queueItem(row));
        return {
          ...row,
          uid: context.user?.uid ?? null,
          card_id_masked: row.card_id,
          front_url: row.front_pic,
          reverse_url: row.reverse_pic,
          ...context,
        };
      });
      return ok(request, { ...list, data });
    });

    const approve = { params: ZIdentityUserParams, response: answers(ZIdentityReviewView) };
    app.post(IdentityAdminPath.approve, { schema: approve }, async (request) => {
      const operator = requireOperator(request);
      const { userId } = parse(ZIdentityUserParams, request.params);
      return ok(request, await identity.approve(userId, { ...operator, ip: request.ip }), 'identity_approved');
    });

    const reject = { params: ZIdentityUserParams, body: ZIdentityRejectRequest, response: answers(ZIdentityReviewView) };
    app.post(IdentityAdminPath.reject, { schema: reject }, async (request) => {
      const operator = requireOperator(request);
      const { userId } = parse(ZIdentityUserParams, request.params);
      const { reason, internal_note } = parse(ZIdentityRejectRequest, request.body);
      const decided = await identity.reject(userId, { ...operator, ip: request.ip }, reason, internal_note ?? null);
      return ok(request, decided, 'identity_rejected');
    });

    const cardId = { params: ZIdentityUserParams, response: answers(ZIdentityCardIdView) };
    app.get(IdentityAdminPath.cardId, { schema: cardId }, async (request) => {
      const operator = requireOperator(request);
      const { userId } = parse(ZIdentityUserParams, request.params);
      return ok(request, await identity.reveal(userId, { ...operator, ip: request.ip }));
    });
  };
}
