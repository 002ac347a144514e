import {
  withdrawableAmount,
  entryPrice,
  exitPrice,
  OrderStatus,
  PROFIT_DECIMALS,
  BALANCE_DECIMALS,
  toJsonNumber,
  type AccountFigures,
  type CloseReasonValue,
  type AccountFiguresView,
  type Dec,
  type Language,
  type OrderSideValue,
  type OrderView,
  type TradePushView,
} from '@pipwise/domain';
import { translate } from '../../i18n/catalog.js';
import { formatDateTime } from '../../i18n/dates.js';
import type { MarketService } from '../market/api.js';
import type { OrderRow, TradingService } from './service.js';

/**
 * Turns rows and Decimal figures into what the client reads: JSON numbers rounded at this boundary
 * only (prices to the instrument's precision, money 2, profits/margins 6), texts in the request's
 * language.
 */
const price = (value: Dec | string | null | undefined, precision: number) =>
  value === null || value === undefined ? 0 : toJsonNumber(value, precision);

export function presentOrder(order: OrderRow, lang: Language, market: MarketService, trading: TradingService): OrderView {
  const instrument = market.getInstrument(order.instrumentId);
  const precision = instrument?.pricePrecision ?? 5;
  const quote = market.getQuote(order.instrumentId);
  const side = order.side as OrderSideValue;
  // Cancelled, short of margin at the fill or reset before it: nothing was charged, closed or realised.
  const neverFilled = order.status === OrderStatus.history && order.openedAt === null;
  let updatePrice: Dec | string | null;
  let factProfits: Dec | string = '0';
  if (order.status === OrderStatus.holding) {
    updatePrice = quote ? exitPrice(side, quote) : order.openPrice;
    factProfits = trading.floatingOf(order);
  } else if (order.status === OrderStatus.pending) {
    updatePrice = quote ? entryPrice(side, quote) : order.targetPrice;
  } else {
    updatePrice = order.closePrice;
    factProfits = order.profit ?? '0';
  }
  return {
    Id: order.id,
    OrderType: order.side,
    Quantity: Number(order.lots),
    OriginPrice: price(order.placedPrice, precision),
    Price: price(order.openPrice ?? order.targetPrice, precision),
    UpdatePrice: neverFilled ? null : price(updatePrice, precision),
    FactProfits: neverFilled ? null : toJsonNumber(factProfits, PROFIT_DECIMALS),
    CautionMoney: toJsonNumber(order.margin, PROFIT_DECIMALS),
    TradeFee: neverFilled ? null : toJsonNumber(order.fee, BALANCE_DECIMALS),
    TargetLossPrice: price(order.stopLoss, precision),
    TargetProfitPrice: price(order.takeProfit, precision),
    TargetPrice: price(order.targetPrice, precision),
    Multiple: order.leverage,
    CreateTimeHandler: formatDateTime(order.createdAt, lang),
    CreatedAt: new Date(order.createdAt).toISOString(),
    OpenedAt: order.openedAt ? new Date(order.openedAt).toISOString() : null,
    ClosedAt: order.closedAt ? new Date(order.closedAt).toISOString() : null,
    ForexId: order.instrumentId,
    ForexTradeLists: {
      Id: order.instrumentId,
      ShowCode: instrument?.showCode ?? '',
      Code: instrument?.code ?? '',
      PricePrecision: precision,
    },
    Status: order.status,
    CloseReason: order.closeReason as CloseReasonValue | null,
    CloseReasonTran: order.closeReason ? translate(lang, `close_reason_${order.closeReason}`) : '',
  };
}

const percent = (value: Dec | null) => (value === null ? null : toJsonNumber(value, BALANCE_DECIMALS));

/** forexDetail: the spec's labels (net value, current margin, available prepayment, prepayment ratio, risk rate). */
export function presentFigures(figures: AccountFigures, levels: { stopOutLevel: Dec; marginCallLevel: Dec }): AccountFiguresView {
  return {
    balance: toJsonNumber(figures.balance, BALANCE_DECIMALS),
    lock_balance: toJsonNumber(figures.locked, BALANCE_DECIMALS),
    net_value: toJsonNumber(figures.equity, BALANCE_DECIMALS),
    floating_profit: toJsonNumber(figures.floating, PROFIT_DECIMALS),
    current_margin: toJsonNumber(figures.usedMargin, PROFIT_DECIMALS),
    available_prepayment: toJsonNumber(figures.freeMargin, BALANCE_DECIMALS),
    withdrawable: toJsonNumber(withdrawableAmount(figures.balance, figures.locked, figures.freeMargin), BALANCE_DECIMALS),
    prepayment_ratio: percent(figures.marginLevel),
    risk_rate: percent(figures.riskRate),
    stop_out_level: toJsonNumber(levels.stopOutLevel, BALANCE_DECIMALS),
    margin_call_level: toJsonNumber(levels.marginCallLevel, BALANCE_DECIMALS),
  };
}

/** The FOREX_TRADE push (docs/architecture.md, "Socket"). */
export function presentTradePush(
  figures: AccountFigures,
  positions: { id: number; updatePrice: Dec; precision: number; profit: Dec }[],
): TradePushView {
  return {
    ProfitsTotal: toJsonNumber(figures.floating, PROFIT_DECIMALS),
    HazardRate: percent(figures.riskRate),
    CautionMoneyAll: toJsonNumber(figures.usedMargin, PROFIT_DECIMALS),
    TransOrder: positions.map((p) => ({
      Id: p.id,
      UpdatePrice: toJsonNumber(p.updatePrice, p.precision),
      FactProfits: toJsonNumber(p.profit, PROFIT_DECIMALS),
    })),
  };
}
