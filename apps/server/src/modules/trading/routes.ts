import {
  ApiPath,
  BALANCE_DECIMALS,
  pageQuery,
  toJsonNumber,
  PROFIT_DECIMALS,
  ZMyDealQuery,
  ZOrderIdRequest,
  ZSetStopPriceRequest,
  ZSubmitOrderRequest,
  type BalanceView,
  type DemoResetView,
  type LedgerPageView,
  type OrderPageView,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser } from '../../http/auth.js';
import { ok, parse } from '../../http/envelope.js';
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
  return (app: FastifyInstance) => {
    const both = (path: string, options: object, handler: (request: FastifyRequest) => Promise<unknown>) => {
      app.get(path, options, handler);
      app.post(path, options, handler);
    };

    app.post(ApiPath.submitOrder, TRADING_LIMITS.trade, async (request) => {
      const { userId } = requireUser(request);
      const body = parse(ZSubmitOrderRequest, requestInput(request));
      const outcome = await trading.submit(userId, body, idempotencyKeyOf(request));
      return ok(request, presentOrder(outcome.order, request.lang, market, trading), outcome.msgKey);
    });

    both(ApiPath.closeOrder, TRADING_LIMITS.trade, async (request) => {
      const { userId } = requireUser(request);
      const { id } = parse(ZOrderIdRequest, requestInput(request));
      const outcome = await trading.close(userId, id, idempotencyKeyOf(request));
      return ok(request, presentOrder(outcome.order, request.lang, market, trading), outcome.msgKey);
    });

    both(ApiPath.cancelOrder, TRADING_LIMITS.trade, async (request) => {
      const { userId } = requireUser(request);
      const { id } = parse(ZOrderIdRequest, requestInput(request));
      return ok(request, presentOrder(await trading.cancel(userId, id), request.lang, market, trading), 'order_cancelled');
    });

    both(ApiPath.setStopPrice, TRADING_LIMITS.trade, async (request) => {
      const { userId } = requireUser(request);
      const body = parse(ZSetStopPriceRequest, requestInput(request));
      return ok(request, presentOrder(await trading.setStops(userId, body), request.lang, market, trading), 'stops_updated');
    });

    both(ApiPath.myDeal, TRADING_LIMITS.read, async (request) => {
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

    app.get(ApiPath.getBalance, TRADING_LIMITS.read, async (request) => {
      const { userId } = requireUser(request);
      const balance = await wallet.get(userId);
      return ok<BalanceView>(request, {
        balance: toJsonNumber(balance.balance, BALANCE_DECIMALS),
        lock_balance: toJsonNumber(balance.lockBalance, BALANCE_DECIMALS),
        currency: 'USD',
      });
    });

    app.get(ApiPath.forexDetail, TRADING_LIMITS.read, async (request) => {
      const { userId } = requireUser(request);
      return ok(request, presentFigures(await trading.figures(userId)));
    });

    app.get(ApiPath.ledger, TRADING_LIMITS.read, async (request) => {
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

    both(ApiPath.resetDemo, TRADING_LIMITS.trade, async (request) => {
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
