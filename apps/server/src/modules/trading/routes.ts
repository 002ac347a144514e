import {
  ApiPath,
  BALANCE_DECIMALS,
  pageQuery,
  toJsonNumber,
  PROFIT_DECIMALS,
  ZAccountFiguresView,
  ZBalanceView,
  ZDemoResetView,
  ZLedgerPageView,
  ZMyDealQuery,
  ZOrderPageView,
  ZOrderView,
  ZOrderIdRequest,
  ZSetStopPriceRequest,
  ZSubmitOrderRequest,
  type BalanceView,
  type DemoResetView,
  type LedgerPageView,
  type OrderPageView,
  type SuccessEnvelope,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { requireUser } from '../../http/auth.js';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { idempotencyKeyOf, perSession, requestInput } from '../../http/requests.js';
import { translate } from '../../i18n/catalog.js';
import type { MarketService } from '../market/api.js';
import type { WalletService } from '../wallet/service.js';
import { formatDateTime } from '../../i18n/dates.js';
import { presentFigures, presentOrder } from './present.js';
import { PAGE_SIZE } from './queries.js';
import type { TradingService } from './service.js';

export const TRADING_LIMITS = { trade: perSession(300), read: perSession(600) };

export function tradingRoutes(trading: TradingService, market: MarketService, wallet: WalletService) {
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    /** A route the client calls with GET (fields in the query) or POST (fields in the body). */
    const both = <Answer extends z.ZodType>(
      path: string,
      options: object,
      schema: { input?: z.ZodType; answer: Answer },
      handler: (request: FastifyRequest) => Promise<SuccessEnvelope<z.output<Answer>>>,
    ) => {
      const response = answers(schema.answer);
      const { input } = schema;
      instance.get(path, { ...options, schema: { ...(input && { querystring: input }), response } }, handler);
      instance.post(path, { ...options, schema: { ...(input && { body: input }), response } }, handler);
    };

    const submit = { body: ZSubmitOrderRequest, response: answers(ZOrderView) };
    app.post(ApiPath.submitOrder, { ...TRADING_LIMITS.trade, schema: submit }, async (request) => {
      const { userId } = requireUser(request);
      const body = parse(ZSubmitOrderRequest, requestInput(request));
      const outcome = await trading.submit(userId, body, idempotencyKeyOf(request));
      return ok(request, presentOrder(outcome.order, request.lang, market, trading), outcome.msgKey);
    });

    both(ApiPath.closeOrder, TRADING_LIMITS.trade, { input: ZOrderIdRequest, answer: ZOrderView }, async (request) => {
      const { userId } = requireUser(request);
      const { id } = parse(ZOrderIdRequest, requestInput(request));
      const outcome = await trading.close(userId, id, idempotencyKeyOf(request));
      return ok(request, presentOrder(outcome.order, request.lang, market, trading), outcome.msgKey);
    });

    both(ApiPath.cancelOrder, TRADING_LIMITS.trade, { input: ZOrderIdRequest, answer: ZOrderView }, async (request) => {
      const { userId } = requireUser(request);
      const { id } = parse(ZOrderIdRequest, requestInput(request));
      return ok(request, presentOrder(await trading.cancel(userId, id), request.lang, market, trading), 'order_cancelled');
    });

    both(ApiPath.setStopPrice, TRADING_LIMITS.trade, { input: ZSetStopPriceRequest, answer: ZOrderView }, async (request) => {
      const { userId } = requireUser(request);
      const body = parse(ZSetStopPriceRequest, requestInput(request));
      return ok(request, presentOrder(await trading.setStops(userId, body), request.lang, market, trading), 'stops_updated');
    });

    both(ApiPath.myDeal, TRADING_LIMITS.read, { input: ZMyDealQuery, answer: ZOrderPageView }, async (request) => {
      const { userId } = requireUser(request);
      const { status, page, cursor } = parse(ZMyDealQuery, requestInput(request));
      const list = await trading.list(userId, status, { page, cursor });
      return ok<OrderPageView>(request, {
        data: list.rows.map((row) => presentOrder(row, request.lang, market, trading)),
        total: list.total,
        page,
        page_size: PAGE_SIZE,
        next_cursor: list.nextCursor,
        all_fact_profits: toJsonNumber(list.allProfits, PROFIT_DECIMALS),
        balance: toJsonNumber(list.balance, BALANCE_DECIMALS),
      });
    });

    app.get(ApiPath.getBalance, { ...TRADING_LIMITS.read, schema: { response: answers(ZBalanceView) } }, async (request) => {
      const { userId } = requireUser(request);
      const balance = await wallet.get(userId);
      return ok<BalanceView>(request, {
        balance: toJsonNumber(balance.balance, BALANCE_DECIMALS),
        lock_balance: toJsonNumber(balance.lockBalance, BALANCE_DECIMALS),
        currency: 'USD',
      });
    });

    app.get(
      ApiPath.forexDetail,
      { ...TRADING_LIMITS.read, schema: { response: answers(ZAccountFiguresView) } },
      async (request) => {
        const { userId } = requireUser(request);
        const [figures, levels] = await Promise.all([trading.figures(userId), trading.settings()]);
        return ok(request, presentFigures(figures, levels));
      },
    );

    const ledger = { querystring: pageQuery, response: answers(ZLedgerPageView) };
    app.get(ApiPath.ledger, { ...TRADING_LIMITS.read, schema: ledger }, async (request) => {
      const { userId } = requireUser(request);
      const { page } = parse(pageQuery, request.query);
      const history = await wallet.history(userId, page, PAGE_SIZE);
      return ok<LedgerPageView>(request, {
        data: history.rows.map((row) => ({
          Id: row.id,
          Value: toJsonNumber(row.amount, BALANCE_DECIMALS),
          BalanceAfter: toJsonNumber(row.balanceAfter, BALANCE_DECIMALS),
          Type: row.type,
          Memo: row.memoKey,
          MemoTran: translate(request.lang, row.memoKey, row.memoParams),
          RefType: row.refType,
          RefId: row.refId,
          CreatedAt: row.createdAt.toISOString(),
          CreatedAtTran: formatDateTime(row.createdAt, request.lang),
        })),
        total: history.total,
        page,
        page_size: PAGE_SIZE,
      });
    });

    both(ApiPath.resetDemo, TRADING_LIMITS.trade, { answer: ZDemoResetView }, async (request) => {
      const principal = requireUser(request);
      const result = await trading.resetDemo(principal.userId, principal.isDemo);
      return ok<DemoResetView>(
        request,
        { balance: toJsonNumber(result.balance, BALANCE_DECIMALS), closed: result.closed },
        'demo_reset_done',
      );
    });
  };
}
