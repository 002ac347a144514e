import {
  dec,
  forbidden,
  intFromInput,
  notFound,
  pageQuery,
  positiveIntId,
  requiredText,
  optionalText,
  INTERNAL_NOTE_MAX,
  type OperatorRole,
  type WithdrawalStatusValue,
  ZIdentityListQuery,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok, parse } from '../../http/envelope.js';
import { allow, requireOperator, type OperatorPrincipal } from '../../http/operator.js';
import { requestInput } from '../../http/requests.js';
import { presentOperatorDeposit } from '../deposits/present.js';
import { ZDepositQueueQuery } from '../deposits/routes.js';
import { DEPOSIT_PAGE_SIZE, type DepositsService } from '../deposits/service.js';
import { IDENTITY_PAGE_SIZE, type IdentityService } from '../identity/service.js';
import { presentOperatorWithdrawal } from '../withdrawals/present.js';
import { ZWithdrawalQueueQuery } from '../withdrawals/routes.js';
import { WITHDRAWAL_PAGE_SIZE, type WithdrawalsService } from '../withdrawals/service.js';
import { AdjustmentStatus, type AdjustmentRecord, type AdjustmentsService } from './adjustments.js';
import type { ReviewClaims } from './claims.js';
import type { UserSummaries } from './summary.js';
import { REVIEW_QUEUES, type ReviewQueue } from './types.js';

export const REVIEW_PATHS = {
  deposits: '/admin/api/deposits',
  withdrawals: '/admin/api/withdrawals',
  kyc: '/admin/api/kyc',
  claim: '/admin/api/claims/:queue/:id',
  adjustments: '/admin/api/adjustments',
  approveAdjustment: '/admin/api/adjustments/:id/approve',
  rejectAdjustment: '/admin/api/adjustments/:id/reject',
} as const;

/** Who works each queue (superadmin always may). */
const QUEUE_ROLES: Record<ReviewQueue, OperatorRole> = { deposits: 'finance', withdrawals: 'finance', kyc: 'compliance' };

/** Largest manual change either way: a bigger one is a mistake or needs a proper cashier record. */
export const ADJUSTMENT_LIMIT = '1000000';

const ZClaimPath = z.object({
  queue: z.enum(REVIEW_QUEUES, { error: 'claim_queue_invalid' }),
  id: positiveIntId('claim_item_not_found'),
});
const ZAdjustmentAmount = z
  .union([z.string(), z.number()], { error: 'adjustment_amount_invalid' })
  .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
  .refine((text) => /^-?\d{1,13}(\.\d{1,2})?$/.test(text) && !dec(text).isZero() && dec(text).abs().lte(ADJUSTMENT_LIMIT), {
    error: 'adjustment_amount_invalid',
  });
const ZAdjustmentRequest = z.object({
  uid: positiveIntId('uid_invalid'),
  amount: ZAdjustmentAmount,
  reason: requiredText('adjustment_reason_required', 200),
  internal_note: optionalText(INTERNAL_NOTE_MAX),
});
const ZAdjustmentQuery = pageQuery.extend({
  status: intFromInput('adjustment_status_invalid', (number) =>
    number.min(AdjustmentStatus.waiting, { error: 'adjustment_status_invalid' }).max(AdjustmentStatus.rejected, {
      error: 'adjustment_status_invalid',
    }),
  ).optional(),
});
const ZKycQueueQuery = ZIdentityListQuery.extend({ uid: positiveIntId('uid_invalid').optional() });
const ZAdjustmentPath = z.object({ id: positiveIntId('adjustment_not_found') });
const ZApproveAdjustment = z.object({ note: optionalText(200) });
const ZRejectAdjustment = z.object({ reason: requiredText('adjustment_reason_required', 200) });

export interface ReviewServices {
  deposits: DepositsService;
  withdrawals: WithdrawalsService;
  identity: IdentityService;
  claims: ReviewClaims;
  summaries: UserSummaries;
  adjustments: AdjustmentsService;
}

const signer = (operator: OperatorPrincipal, request: FastifyRequest) => ({ ...operator, ip: request.ip });

function presentAdjustment(row: AdjustmentRecord) {
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
 * The review queues as operators work them — each item with its proof, its live claim and a summary of
 * its user — plus claims and four-eyes balance adjustments. Decisions on queue items are the owning
 * modules' routes (deposits, withdrawals, identity).
 */
export function reviewRoutes(services: ReviewServices) {
  const { deposits, withdrawals, identity, claims, summaries, adjustments } = services;

  /** The user filter of a queue: a uid nobody has matches nothing (null), none given matches everyone. */
  const userFilter = async (uid: number | undefined) => (uid === undefined ? undefined : await summaries.userIdOfUid(uid));

  const exists: Record<ReviewQueue, (id: number) => Promise<boolean>> = {
    deposits: (id) => deposits.exists(id),
    withdrawals: (id) => withdrawals.exists(id),
    kyc: (id) => identity.exists(id),
  };

  const mayWork = (operator: OperatorPrincipal, queue: ReviewQueue) => {
    if (operator.role !== 'superadmin' && operator.role !== QUEUE_ROLES[queue]) throw forbidden('operator_role_forbidden');
  };

  const page = <T>(data: T[], total: number, pageNumber: number, pageSize: number) => ({
    data,
    total,
    page: pageNumber,
    page_size: pageSize,
  });

  return (app: FastifyInstance) => {
    app.get(REVIEW_PATHS.deposits, allow('finance'), async (request) => {
      requireOperator(request);
      const query = parse(ZDepositQueueQuery, request.query);
      const userId = await userFilter(query.uid);
      if (userId === null) return ok(request, page([], 0, query.page, DEPOSIT_PAGE_SIZE));
      const queue = await deposits.queue(query.status, query.page, userId);
      const [claimed, users] = await Promise.all([
        claims.live(
          'deposits',
          queue.rows.map((row) => row.id),
        ),
        summaries.of(queue.rows.map((row) => row.userId)),
      ]);
      const data = queue.rows.map((record) => ({
        ...presentOperatorDeposit(record, request.lang, deposits.proofUrl(record.proofUploadId)),
        claim: claimed.get(String(record.id)) ?? null,
        user: users.get(record.userId) ?? null,
      }));
      return ok(request, page(data, queue.total, query.page, DEPOSIT_PAGE_SIZE));
    });

    app.get(REVIEW_PATHS.withdrawals, allow('finance'), async (request) => {
      requireOperator(request);
      const query = parse(ZWithdrawalQueueQuery, request.query);
      const userId = await userFilter(query.uid);
      if (userId === null) return ok(request, page([], 0, query.page, WITHDRAWAL_PAGE_SIZE));
      const queue = await withdrawals.queue(query.status as WithdrawalStatusValue, query.page, userId);
      const [claimed, users, threshold, warnings] = await Promise.all([
        claims.live(
          'withdrawals',
          queue.rows.map((row) => row.withdrawal.id),
        ),
        summaries.of(queue.rows.map((row) => row.withdrawal.userId)),
        withdrawals.fourEyesThreshold(),
        withdrawals.warnings(queue.rows.map((row) => row.withdrawal)),
      ]);
      const data = queue.rows.map((record) => ({
        ...presentOperatorWithdrawal(
          record,
          request.lang,
          withdrawals.needsSecondApproval(record.withdrawal, threshold),
          warnings.get(record.withdrawal.id) ?? [],
        ),
        claim: claimed.get(String(record.withdrawal.id)) ?? null,
        user: users.get(record.withdrawal.userId) ?? null,
      }));
      return ok(request, page(data, queue.total, query.page, WITHDRAWAL_PAGE_SIZE));
    });

    app.get(REVIEW_PATHS.kyc, allow('compliance'), async (request) => {
      requireOperator(request);
      const query = parse(ZKycQueueQuery, request.query);
      const userId = await userFilter(query.uid);
      const list =
        userId === null
          ? { data: [], total: 0, page: query.page, page_size: IDENTITY_PAGE_SIZE }
          : await identity.list(query.status, query.page, userId);
      const [claimed, users] = await Promise.all([
        claims.live(
          'kyc',
          list.data.map((row) => row.user_id),
        ),
        summaries.of(list.data.map((row) => row.user_id)),
      ]);
      const data = list.data.map((row) => ({
        ...row,
        uid: users.get(row.user_id)?.uid ?? null,
        card_id_masked: row.card_id,
        front_url: row.front_pic,
        reverse_url: row.reverse_pic,
        claim: claimed.get(String(row.user_id)) ?? null,
        user: users.get(row.user_id) ?? null,
      }));
      return ok(request, { ...list, data });
    });

    app.post(REVIEW_PATHS.claim, allow('finance', 'compliance'), async (request) => {
      const operator = requireOperator(request);
      const { queue, id } = parse(ZClaimPath, request.params);
      mayWork(operator, queue);
      if (!(await exists[queue](id))) throw notFound('claim_item_not_found');
      return ok(request, await claims.claim(queue, String(id), signer(operator, request)), 'claim_taken');
    });

    app.delete(REVIEW_PATHS.claim, allow('finance', 'compliance'), async (request) => {
      const operator = requireOperator(request);
      const { queue, id } = parse(ZClaimPath, request.params);
      mayWork(operator, queue);
      await claims.release(queue, String(id), signer(operator, request));
      return ok(request, null, 'claim_released');
    });

    app.post(REVIEW_PATHS.adjustments, allow('finance'), async (request) => {
      const operator = requireOperator(request);
      const { internal_note, ...body } = parse(ZAdjustmentRequest, requestInput(request));
      const created = await adjustments.create({ ...body, internalNote: internal_note ?? null }, signer(operator, request));
      return ok(request, presentAdjustment(created), 'adjustment_created');
    });

    app.get(REVIEW_PATHS.adjustments, allow('finance'), async (request) => {
      requireOperator(request);
      const query = parse(ZAdjustmentQuery, request.query);
      const list = await adjustments.list(query.status, query.page);
      return ok(request, { ...list, data: list.data.map(presentAdjustment) });
    });

    app.post(REVIEW_PATHS.approveAdjustment, allow('finance'), async (request) => {
      const operator = requireOperator(request);
      const { id } = parse(ZAdjustmentPath, request.params);
      const { note } = parse(ZApproveAdjustment, requestInput(request));
      const approved = await adjustments.approve(id, signer(operator, request), note ?? null);
      return ok(request, presentAdjustment(approved), 'adjustment_approved');
    });

    app.post(REVIEW_PATHS.rejectAdjustment, allow('finance'), async (request) => {
      const operator = requireOperator(request);
      const { id } = parse(ZAdjustmentPath, request.params);
      const { reason } = parse(ZRejectAdjustment, requestInput(request));
      return ok(
        request,
        presentAdjustment(await adjustments.reject(id, signer(operator, request), reason)),
        'adjustment_rejected',
      );
    });
  };
}
