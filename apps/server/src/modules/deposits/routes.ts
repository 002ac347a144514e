import {
  ApiPath,
  ZDepositApproveRequest,
  ZDepositDecisionRequest,
  ZDepositQueueQuery,
  ZCoinDepositRequest,
  ZDepositListQuery,
  ZRecordIdRequest,
  ZWireDepositRequest,
  ZWireInfoQuery,
  ZCoinChannelView,
  ZDepositSymbolView,
  ZDepositView,
  ZOperatorDepositView,
  ZReviewContextView,
  ZWireChannelView,
  pageOf,
  type CoinChannelView,
  type DepositSymbolView,
  type DepositView,
  type OperatorDepositView,
  type ReviewContextView,
  type WireChannelView,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idempotentRequest } from '../../db/idempotency.js';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator } from '../../http/operator.js';
import { idempotencyKeyOf, perSession, requestInput, requireRealUser } from '../../http/requests.js';
import { queuePage, type ReviewDesk } from '../../review/desk.js';
import { presentCoinChannel, presentDeposit, presentOperatorDeposit, presentWireChannel } from './present.js';
import { DEPOSIT_PAGE_SIZE, type DepositRecord, type DepositsService } from './service.js';

export const DEPOSIT_LIMITS = { submit: perSession(20), read: perSession(120) };

export const DEPOSIT_ADMIN_PATHS = {
  list: '/admin/api/deposits',
  approve: '/admin/api/deposits/:id/approve',
  reject: '/admin/api/deposits/:id/reject',
  void: '/admin/api/deposits/:id/void',
} as const;

export function depositRoutes(deposits: DepositsService, desk: ReviewDesk) {
  const operatorView = (record: DepositRecord, request: FastifyRequest): OperatorDepositView =>
    presentOperatorDeposit(record, request.lang, deposits.proofUrl(record.proofUploadId));

  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.get(
      ApiPath.chargeInfo,
      { ...DEPOSIT_LIMITS.read, schema: { response: answers(z.array(ZCoinChannelView)) } },
      async (request) => {
        requireRealUser(request);
        return ok<CoinChannelView[]>(request, (await deposits.coinOptions()).map(presentCoinChannel));
      },
    );

    app.get(
      ApiPath.chargeSymbols,
      { ...DEPOSIT_LIMITS.read, schema: { response: answers(z.array(ZDepositSymbolView)) } },
      async (request) => {
        requireRealUser(request);
        const symbols = await deposits.symbols();
        return ok<DepositSymbolView[]>(
          request,
          symbols.map((symbol) => ({ currency_code: symbol.currencyCode, protocols: symbol.protocols })),
        );
      },
    );

    const wireInfo = { querystring: ZWireInfoQuery, response: answers(z.array(ZWireChannelView)) };
    app.get(ApiPath.wireInfo, { ...DEPOSIT_LIMITS.read, schema: wireInfo }, async (request) => {
      const { userId } = requireRealUser(request);
      const { bank_coin } = parse(ZWireInfoQuery, request.query);
      const [options, reference] = await Promise.all([deposits.wireOptions(bank_coin), deposits.paymentReference(userId)]);
      return ok<WireChannelView[]>(
        request,
        options.map((channel) => presentWireChannel(channel, reference)),
      );
    });

    const coinSubmit = { body: ZCoinDepositRequest, response: answers(ZDepositView) };
    app.post(ApiPath.chargeSubmit, { ...DEPOSIT_LIMITS.submit, schema: coinSubmit }, async (request) => {
      const { userId } = requireRealUser(request);
      const body = parse(ZCoinDepositRequest, requestInput(request));
      const outcome = await deposits.submitCoin(userId, body, idempotentRequest(idempotencyKeyOf(request), body));
      return ok<DepositView>(request, presentDeposit(outcome.deposit, request.lang), outcome.msgKey);
    });

    const wireSubmit = { body: ZWireDepositRequest, response: answers(ZDepositView) };
    app.post(ApiPath.wireSubmit, { ...DEPOSIT_LIMITS.submit, schema: wireSubmit }, async (request) => {
      const { userId } = requireRealUser(request);
      const body = parse(ZWireDepositRequest, requestInput(request));
      const outcome = await deposits.submitWire(userId, body, idempotentRequest(idempotencyKeyOf(request), body));
      return ok<DepositView>(request, presentDeposit(outcome.deposit, request.lang), outcome.msgKey);
    });

    const list = { querystring: ZDepositListQuery, response: answers(pageOf(ZDepositView)) };
    app.get(ApiPath.depositList, { ...DEPOSIT_LIMITS.read, schema: list }, async (request) => {
      const { userId } = requireRealUser(request);
      const { type, page } = parse(ZDepositListQuery, request.query);
      const list = await deposits.list(userId, type, page);
      return ok(request, {
        data: list.rows.map((record) => presentDeposit(record, request.lang)),
        total: list.total,
        page,
        page_size: DEPOSIT_PAGE_SIZE,
      });
    });

    const queue = {
      querystring: ZDepositQueueQuery,
      response: answers(pageOf(ZOperatorDepositView.extend(ZReviewContextView.shape))),
    };
    app.get(DEPOSIT_ADMIN_PATHS.list, { schema: queue }, async (request) => {
      requireOperator(request);
      const query = parse(ZDepositQueueQuery, request.query);
      const userId = await desk.userOfUid(query.uid);
      if (userId === null) return ok(request, queuePage([], 0, query.page, DEPOSIT_PAGE_SIZE));
      const queue = await deposits.queue(query.status, query.page, userId);
      const contextOf = await desk.contextOf('deposits', queue.rows);
      const data = queue.rows.map((record): OperatorDepositView & ReviewContextView => ({
        ...operatorView(record, request),
        ...contextOf(record),
      }));
      return ok(request, queuePage(data, queue.total, query.page, DEPOSIT_PAGE_SIZE));
    });

    const approve = { params: ZRecordIdRequest, body: ZDepositApproveRequest, response: answers(ZOperatorDepositView) };
    app.post(DEPOSIT_ADMIN_PATHS.approve, { schema: approve }, async (request) => {
      const operator = requireOperator(request);
      const { id } = parse(ZRecordIdRequest, request.params);
      const { credited_amount } = parse(ZDepositApproveRequest, requestInput(request));
      const outcome = await deposits.approve(id, { ...operator, ip: request.ip }, credited_amount);
      return ok(request, operatorView(outcome.deposit, request), outcome.msgKey);
    });

    for (const [path, decide] of [
      [DEPOSIT_ADMIN_PATHS.reject, deposits.reject.bind(deposits)],
      [DEPOSIT_ADMIN_PATHS.void, deposits.void.bind(deposits)],
    ] as const) {
      const decision = { params: ZRecordIdRequest, body: ZDepositDecisionRequest, response: answers(ZOperatorDepositView) };
      app.post(path, { schema: decision }, async (request) => {
        const operator = requireOperator(request);
        const { id } = parse(ZRecordIdRequest, request.params);
        const { reason, internal_note } = parse(ZDepositDecisionRequest, requestInput(request));
        const outcome = await decide(id, { ...operator, ip: request.ip }, { reason, internalNote: internal_note ?? null });
        return ok(request, operatorView(outcome.deposit, request), outcome.msgKey);
      });
    }
  };
}
