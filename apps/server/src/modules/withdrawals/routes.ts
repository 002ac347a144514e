import {
  ApiPath,
  forbidden,
  intFromInput,
  positiveIntId,
  requiredText,
  WithdrawalStatus,
  ZBindDrawMethodRequest,
  ZDeleteDrawMethodRequest,
  ZDrawMethodQuery,
  ZDrawSymbolQuery,
  ZIdempotencyKey,
  ZRecordIdRequest,
  ZWithdrawListQuery,
  ZWithdrawRequest,
  type DrawMethodView,
  type WithdrawalStatusValue,
  type WithdrawalView,
  type WithdrawCurrencyView,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { idempotentRequest } from '../../db/idempotency.js';
import { requireUser, type Principal } from '../../http/auth.js';
import { ok, parse } from '../../http/envelope.js';
import { requireOperator } from '../../http/operator.js';
import { formatDateTime } from '../trading/present.js';
import { presentCurrency, presentMethod, presentWithdrawal } from './present.js';
import { WITHDRAWAL_PAGE_SIZE, type Decision, type WithdrawalRecord, type WithdrawalsService } from './service.js';

/**
 * Per session (many users may share an address); a request without a session counts against its
 * address. Requests and binds are rare, so their limit is low enough that a script cannot flood the
 * operators' queue or the owner's inbox.
 */
const perSession = (max: number) => ({
  config: {
    rateLimit: {
      max,
      timeWindow: '1 minute',
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) =>
        request.principal ? `session:${request.principal.sessionId}` : `ip:${request.ip}`,
    },
  },
});

export const WITHDRAWAL_LIMITS = { write: perSession(20), read: perSession(120), operator: perSession(600) };

export const WITHDRAWAL_ADMIN_PATHS = {
  list: '/admin/api/withdrawals',
  approve: '/admin/api/withdrawals/:id/approve',
  reject: '/admin/api/withdrawals/:id/reject',
  void: '/admin/api/withdrawals/:id/void',
} as const;

const ZOperatorQueueQuery = z.object({
  status: intFromInput('withdraw_status_query_invalid', (number) =>
    number.min(WithdrawalStatus.unreviewed, { error: 'withdraw_status_query_invalid' }).max(WithdrawalStatus.invalid, {
      error: 'withdraw_status_query_invalid',
    }),
  ).default(WithdrawalStatus.unreviewed),
});
const ZRecordPath = z.object({ id: positiveIntId('record_invalid') });
const ZDecisionReason = z.object({ reason: requiredText('withdraw_reason_required', 200) });

/** Fields of a form, a JSON body or the query: the client sends GET payloads in the query. */
const input = (request: FastifyRequest) => ({
  ...(request.query as Record<string, unknown>),
  ...(typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {}),
});

const idempotencyKey = (request: FastifyRequest) => {
  const header = request.headers['idempotency-key'];
  return header === undefined ? undefined : parse(ZIdempotencyKey, Array.isArray(header) ? header[0] : header);
};

/** Demo accounts have no cashier (spec §5, §6). */
function requireRealUser(request: FastifyRequest): Principal {
  const principal = requireUser(request);
  if (principal.isDemo) throw forbidden('demo_not_allowed');
  return principal;
}

export function withdrawalRoutes(withdrawals: WithdrawalsService, config: Config, clock: Clock) {
  const operatorView = (record: WithdrawalRecord, request: FastifyRequest) => ({
    ...presentWithdrawal(record, request.lang),
    user_id: record.withdrawal.userId,
    method_id: record.withdrawal.methodId,
    decided_by: record.withdrawal.decidedBy,
  });

  return (app: FastifyInstance) => {
    app.get(ApiPath.drawSymbols, WITHDRAWAL_LIMITS.read, async (request) => {
      requireRealUser(request);
      const { type } = parse(ZDrawSymbolQuery, request.query);
      return ok<WithdrawCurrencyView[]>(request, (await withdrawals.currencies(type)).map(presentCurrency));
    });

    app.post(ApiPath.draw, WITHDRAWAL_LIMITS.write, async (request) => {
      const { userId } = requireRealUser(request);
      const body = parse(ZWithdrawRequest, input(request));
      const outcome = await withdrawals.withdraw(userId, body, idempotentRequest(idempotencyKey(request), body), request.lang);
      return ok<WithdrawalView>(request, presentWithdrawal(outcome.record, request.lang), outcome.msgKey);
    });

    app.get(ApiPath.drawList, WITHDRAWAL_LIMITS.read, async (request) => {
      const { userId } = requireRealUser(request);
      const { type, page } = parse(ZWithdrawListQuery, request.query);
      const list = await withdrawals.list(userId, type, page);
      return ok(request, {
        data: list.rows.map((record) => presentWithdrawal(record, request.lang)),
        total: list.total,
        page,
        page_size: WITHDRAWAL_PAGE_SIZE,
      });
    });

    app.post(ApiPath.drawCancel, WITHDRAWAL_LIMITS.write, async (request) => {
      const { userId } = requireRealUser(request);
      const { id } = parse(ZRecordIdRequest, input(request));
      return ok<WithdrawalView>(
        request,
        presentWithdrawal(await withdrawals.cancel(userId, id), request.lang),
        'withdraw_cancelled',
      );
    });

    app.get(ApiPath.getDrawMethod, WITHDRAWAL_LIMITS.read, async (request) => {
      const { userId } = requireRealUser(request);
      const { draw_type, draw_id } = parse(ZDrawMethodQuery, request.query);
      const now = clock.now();
      return ok<DrawMethodView[]>(
        request,
        (await withdrawals.methods(userId, draw_type, draw_id)).map((method) => presentMethod(method, now)),
      );
    });

    app.post(ApiPath.bindDrawMethod, WITHDRAWAL_LIMITS.write, async (request) => {
      const { userId } = requireRealUser(request);
      const body = parse(ZBindDrawMethodRequest, input(request));
      const bound = await withdrawals.bind(userId, body);
      return ok<DrawMethodView>(request, presentMethod(bound, clock.now()), 'method_bound', {
        time: formatDateTime(bound.method.usableAt, request.lang),
      });
    });

    app.post(ApiPath.delDrawMethod, WITHDRAWAL_LIMITS.write, async (request) => {
      const { userId } = requireRealUser(request);
      const { id } = parse(ZDeleteDrawMethodRequest, input(request));
      await withdrawals.remove(userId, id);
      return ok(request, null, 'method_deleted');
    });

    app.get(WITHDRAWAL_ADMIN_PATHS.list, WITHDRAWAL_LIMITS.operator, async (request) => {
      requireOperator(request, config);
      const { status } = parse(ZOperatorQueueQuery, request.query);
      const rows = await withdrawals.queue(status as WithdrawalStatusValue);
      return ok(
        request,
        rows.map((record) => operatorView(record, request)),
      );
    });

    const decide = (decision: Decision, needsReason: boolean) => async (request: FastifyRequest) => {
      const operator = requireOperator(request, config);
      const { id } = parse(ZRecordPath, request.params);
      const reason = needsReason ? parse(ZDecisionReason, input(request)).reason : null;
      const outcome = await withdrawals.decide(id, decision, operator, reason);
      return ok(request, operatorView(outcome.record, request), outcome.msgKey);
    };
    app.post(WITHDRAWAL_ADMIN_PATHS.approve, WITHDRAWAL_LIMITS.operator, decide('approve', false));
    app.post(WITHDRAWAL_ADMIN_PATHS.reject, WITHDRAWAL_LIMITS.operator, decide('reject', true));
    app.post(WITHDRAWAL_ADMIN_PATHS.void, WITHDRAWAL_LIMITS.operator, decide('void', true));
  };
}
