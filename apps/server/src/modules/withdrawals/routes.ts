import {
  ZWithdrawalDecisionRequest,
  ZWithdrawalQueueQuery,
  ZWithdrawalRecordParams,
  ApiPath,
  ZBindDrawMethodRequest,
  ZDeleteDrawMethodRequest,
  ZDrawMethodQuery,
  ZDrawSymbolQuery,
  ZRecordIdRequest,
  ZWithdrawListQuery,
  ZWithdrawRequest,
  ZDrawMethodView,
  ZOperatorWithdrawalView,
  ZReviewContextView,
  ZWithdrawalView,
  ZWithdrawCurrencyView,
  ZWithdrawRulesView,
  pageOf,
  type DrawMethodView,
  type OperatorWithdrawalView,
  type ReviewContextView,
  type WithdrawalStatusValue,
  type WithdrawalView,
  type WithdrawCurrencyView,
  type WithdrawRulesView,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { idempotentRequest } from '../../db/idempotency.js';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator } from '../../http/operator.js';
import { idempotencyKeyOf, perSession, requestInput, requireRealUser } from '../../http/requests.js';
import { queuePage, type ReviewDesk } from '../../review/desk.js';
import { formatDateTime } from '../../i18n/dates.js';
import { presentCurrency, presentMethod, presentOperatorWithdrawal, presentWithdrawal } from './present.js';
import type { Decision } from './decisions.js';
import { WITHDRAWAL_PAGE_SIZE } from './records.js';
import type { WithdrawalsService } from './service.js';

export const WITHDRAWAL_LIMITS = { write: perSession(20), read: perSession(120) };

export const WITHDRAWAL_ADMIN_PATHS = {
  list: '/admin/api/withdrawals',
  approve: '/admin/api/withdrawals/:id/approve',
  reject: '/admin/api/withdrawals/:id/reject',
  void: '/admin/api/withdrawals/:id/void',
} as const;

export function withdrawalRoutes(withdrawals: WithdrawalsService, desk: ReviewDesk, config: Config, clock: Clock) {
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    const symbols = { querystring: ZDrawSymbolQuery, response: answers(z.array(ZWithdrawCurrencyView)) };
    app.get(ApiPath.drawSymbols, { ...WITHDRAWAL_LIMITS.read, schema: symbols }, async (request) => {
      requireRealUser(request);
      const { type } = parse(ZDrawSymbolQuery, request.query);
      return ok<WithdrawCurrencyView[]>(request, (await withdrawals.currencies.quoted(type)).map(presentCurrency));
    });

    app.get(
      ApiPath.drawRules,
      { ...WITHDRAWAL_LIMITS.read, schema: { response: answers(ZWithdrawRulesView) } },
      async (request) => {
        const { userId } = requireRealUser(request);
        const rules = await withdrawals.requests.rules(userId);
        return ok<WithdrawRulesView>(request, { kyc_required: rules.kycRequired });
      },
    );

    const draw = { body: ZWithdrawRequest, response: answers(ZWithdrawalView) };
    app.post(ApiPath.draw, { ...WITHDRAWAL_LIMITS.write, schema: draw }, async (request) => {
      const { userId } = requireRealUser(request);
      const body = parse(ZWithdrawRequest, requestInput(request));
      const outcome = await withdrawals.requests.withdraw(
        userId,
        body,
        idempotentRequest(idempotencyKeyOf(request), body),
        request.lang,
      );
      return ok<WithdrawalView>(request, presentWithdrawal(outcome.record, request.lang), outcome.msgKey);
    });

    const list = { querystring: ZWithdrawListQuery, response: answers(pageOf(ZWithdrawalView)) };
    app.get(ApiPath.drawList, { ...WITHDRAWAL_LIMITS.read, schema: list }, async (request) => {
      const { userId } = requireRealUser(request);
      const { type, page } = parse(ZWithdrawListQuery, request.query);
      const list = await withdrawals.requests.list(userId, type, page);
      return ok(request, {
        data: list.rows.map((record) => presentWithdrawal(record, request.lang)),
        total: list.total,
        page,
        page_size: WITHDRAWAL_PAGE_SIZE,
      });
    });

    const cancel = { body: ZRecordIdRequest, response: answers(ZWithdrawalView) };
    app.post(ApiPath.drawCancel, { ...WITHDRAWAL_LIMITS.write, schema: cancel }, async (request) => {
      const { userId } = requireRealUser(request);
      const { id } = parse(ZRecordIdRequest, requestInput(request));
      return ok<WithdrawalView>(
        request,
        presentWithdrawal(await withdrawals.requests.cancel(userId, id), request.lang),
        'withdraw_cancelled',
      );
    });

    const methods = { querystring: ZDrawMethodQuery, response: answers(z.array(ZDrawMethodView)) };
    app.get(ApiPath.getDrawMethod, { ...WITHDRAWAL_LIMITS.read, schema: methods }, async (request) => {
      const { userId } = requireRealUser(request);
      const { draw_type, draw_id } = parse(ZDrawMethodQuery, request.query);
      const now = clock.now();
      return ok<DrawMethodView[]>(
        request,
        (await withdrawals.payoutMethods.list(userId, draw_type, draw_id)).map((method) => presentMethod(method, now)),
      );
    });

    const bind = { body: ZBindDrawMethodRequest, response: answers(ZDrawMethodView) };
    app.post(ApiPath.bindDrawMethod, { ...WITHDRAWAL_LIMITS.write, schema: bind }, async (request) => {
      const { userId } = requireRealUser(request);
      const body = parse(ZBindDrawMethodRequest, requestInput(request));
      const bound = await withdrawals.payoutMethods.bind(userId, body);
      return ok<DrawMethodView>(request, presentMethod(bound, clock.now()), 'method_bound', {
        time: formatDateTime(bound.method.usableAt, request.lang),
      });
    });

    const remove = { body: ZDeleteDrawMethodRequest, response: answers(z.null()) };
    app.post(ApiPath.delDrawMethod, { ...WITHDRAWAL_LIMITS.write, schema: remove }, async (request) => {
      const { userId } = requireRealUser(request);
      const { id } = parse(ZDeleteDrawMethodRequest, requestInput(request));
      await withdrawals.payoutMethods.remove(userId, id);
      return ok(request, null, 'method_deleted');
    });

    const queue = {
      querystring: ZWithdrawalQueueQuery,
      response: answers(pageOf(ZOperatorWithdrawalView.extend(ZReviewContextView.shape))),
    };
    app.get(WITHDRAWAL_ADMIN_PATHS.list, { schema: queue }, async (request) => {
      requireOperator(request);
      const query = parse(ZWithdrawalQueueQuery, request.query);
      const userId = await desk.userOfUid(query.uid);
      if (userId === null) return ok(request, queuePage([], 0, query.page, WITHDRAWAL_PAGE_SIZE));
      const queue = await withdrawals.queue.page(query.status as WithdrawalStatusValue, query.page, userId);
      const records = queue.rows.map((row) => row.withdrawal);
      const [contextOf, threshold, warnings] = await Promise.all([
        desk.contextOf('withdrawals', records),
        withdrawals.decisions.fourEyesThreshold(),
        withdrawals.payoutMethods.warnings(records),
      ]);
      const data = queue.rows.map((record): OperatorWithdrawalView & ReviewContextView => ({
        ...presentOperatorWithdrawal(
          record,
          request.lang,
          withdrawals.decisions.needsSecondApproval(record.withdrawal, threshold),
          warnings.get(record.withdrawal.id) ?? [],
        ),
        ...contextOf(record.withdrawal),
      }));
      return ok(request, queuePage(data, queue.total, query.page, WITHDRAWAL_PAGE_SIZE));
    });

    const decide = (decision: Decision, needsReason: boolean) => async (request: FastifyRequest) => {
      const operator = requireOperator(request);
      const { id } = parse(ZWithdrawalRecordParams, request.params);
      const words = needsReason ? parse(ZWithdrawalDecisionRequest, requestInput(request)) : null;
      const outcome = await withdrawals.decisions.decide(
        id,
        decision,
        { ...operator, ip: request.ip },
        words?.reason ?? null,
        words?.internal_note ?? null,
      );
      const threshold = await withdrawals.decisions.fourEyesThreshold();
      const warnings = await withdrawals.payoutMethods.warnings([outcome.record.withdrawal]);
      const view = presentOperatorWithdrawal(
        outcome.record,
        request.lang,
        withdrawals.decisions.needsSecondApproval(outcome.record.withdrawal, threshold),
        warnings.get(outcome.record.withdrawal.id) ?? [],
      );
      return ok(request, view, outcome.msgKey);
    };
    const decision = (needsReason: boolean) => ({
      schema: {
        params: ZWithdrawalRecordParams,
        ...(needsReason && { body: ZWithdrawalDecisionRequest }),
        response: answers(ZOperatorWithdrawalView),
      },
    });
    app.post(WITHDRAWAL_ADMIN_PATHS.approve, decision(false), decide('approve', false));
    app.post(WITHDRAWAL_ADMIN_PATHS.reject, decision(true), decide('reject', true));
    app.post(WITHDRAWAL_ADMIN_PATHS.void, decision(true), decide('void', true));
  };
}
