import {
  dec,
  forbidden,
  notFound,
  ZAdjustmentApproveRequest,
  ZAdjustmentParams,
  ZAdjustmentQuery,
  ZAdjustmentRejectRequest,
  ZAdjustmentRequest,
  ZClaimParams,
  ZAdjustmentView,
  ZReviewClaimView,
  pageOf,
  type AdjustmentView,
  type OperatorRole,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator, type OperatorPrincipal } from '../../http/operator.js';
import { requestInput } from '../../http/requests.js';
import type { ReviewClaims } from '../../review/claims.js';
import type { ReviewQueue } from '../../review/decisions.js';
import type { AdjustmentRecord, AdjustmentsService } from './adjustments.js';

export const REVIEW_PATHS = {
  claim: '/admin/api/claims/:queue/:id',
  adjustments: '/admin/api/adjustments',
  approveAdjustment: '/admin/api/adjustments/:id/approve',
  rejectAdjustment: '/admin/api/adjustments/:id/reject',
} as const;

/** Who works each queue (superadmin always may). */
const QUEUE_ROLES: Record<ReviewQueue, OperatorRole> = { deposits: 'finance', withdrawals: 'finance', kyc: 'compliance' };

/** Whether an item of a queue exists, as the module owning the queue answers it. */
export interface QueueItems {
  exists(id: number): Promise<boolean>;
}

export interface ReviewServices {
  /** Each queue's owner: deposits, withdrawals and identity (the `kyc` queue). */
  queues: Record<ReviewQueue, QueueItems>;
  claims: ReviewClaims;
  adjustments: AdjustmentsService;
}

const signer = (operator: OperatorPrincipal, request: FastifyRequest) => ({ ...operator, ip: request.ip });

function presentAdjustment(row: AdjustmentRecord): AdjustmentView {
  return {
    id: row.id,
    uid: row.uid,
    amount: dec(row.amount).toNumber(),
    reason: row.reason,
    internal_note: row.internalNote,
    status: row.status,
    maker: row.makerEmail,
    checker: row.checkerEmail,
    checker_note: row.checkerNote,
    created_at: row.createdAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * Claims on the review queues' items and four-eyes balance adjustments. Each queue's list and decisions
 * are its owning module's routes (deposits, withdrawals, identity).
 */
export function reviewRoutes(services: ReviewServices) {
  const { queues, claims, adjustments } = services;

  const mayWork = (operator: OperatorPrincipal, queue: ReviewQueue) => {
    if (operator.role !== 'superadmin' && operator.role !== QUEUE_ROLES[queue]) throw forbidden('operator_role_forbidden');
  };

  const adjustment = answers(ZAdjustmentView);
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.post(REVIEW_PATHS.claim, { schema: { params: ZClaimParams, response: answers(ZReviewClaimView) } }, async (request) => {
      const operator = requireOperator(request);
      const { queue, id } = parse(ZClaimParams, request.params);
      mayWork(operator, queue);
      if (!(await queues[queue].exists(id))) throw notFound('claim_item_not_found');
      return ok(request, await claims.claim(queue, String(id), signer(operator, request)), 'claim_taken');
    });

    app.delete(REVIEW_PATHS.claim, { schema: { params: ZClaimParams, response: answers(z.null()) } }, async (request) => {
      const operator = requireOperator(request);
      const { queue, id } = parse(ZClaimParams, request.params);
      mayWork(operator, queue);
      await claims.release(queue, String(id), signer(operator, request));
      return ok(request, null, 'claim_released');
    });

    app.post(REVIEW_PATHS.adjustments, { schema: { body: ZAdjustmentRequest, response: adjustment } }, async (request) => {
      const operator = requireOperator(request);
      const { internal_note, ...body } = parse(ZAdjustmentRequest, requestInput(request));
      const created = await adjustments.create({ ...body, internalNote: internal_note ?? null }, signer(operator, request));
      return ok(request, presentAdjustment(created), 'adjustment_created');
    });

    const list = { querystring: ZAdjustmentQuery, response: answers(pageOf(ZAdjustmentView)) };
    app.get(REVIEW_PATHS.adjustments, { schema: list }, async (request) => {
      requireOperator(request);
      const query = parse(ZAdjustmentQuery, request.query);
      const list = await adjustments.list(query.status, query.page);
      return ok(request, { ...list, data: list.data.map(presentAdjustment) });
    });

    const approve = { params: ZAdjustmentParams, body: ZAdjustmentApproveRequest, response: adjustment };
    app.post(REVIEW_PATHS.approveAdjustment, { schema: approve }, async (request) => {
      const operator = requireOperator(request);
      const { id } = parse(ZAdjustmentParams, request.params);
      const { note } = parse(ZAdjustmentApproveRequest, requestInput(request));
      const approved = await adjustments.approve(id, signer(operator, request), note ?? null);
      return ok(request, presentAdjustment(approved), 'adjustment_approved');
    });

    const reject = { params: ZAdjustmentParams, body: ZAdjustmentRejectRequest, response: adjustment };
    app.post(REVIEW_PATHS.rejectAdjustment, { schema: reject }, async (request) => {
      const operator = requireOperator(request);
      const { id } = parse(ZAdjustmentParams, request.params);
      const { reason } = parse(ZAdjustmentRejectRequest, requestInput(request));
      return ok(
        request,
        presentAdjustment(await adjustments.reject(id, signer(operator, request), reason)),
        'adjustment_rejected',
      );
    });
  };
}
