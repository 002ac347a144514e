import { z } from 'zod';
import { CloseReason } from '../trading.js';
import {
  KLINE_PERIODS,
  MARKET_SESSIONS,
  type CategoryView,
  type ForexQuotationView,
  type KlinePointView,
  type SparklineView,
  type TradePairView,
} from '../market.js';
import type { OrderView } from '../schemas/trading.js';
import type {
  AccountFiguresView,
  BalanceView,
  DemoResetView,
  LedgerEntryView,
  LedgerPageView,
  OrderPageView,
} from '../views/trading.js';

// Answer schemas of the market, trading and wallet routes, for the OpenAPI documents; each satisfies its
// view and the routes are typed by them, so a field added to one side only is a compile error.

const zInt = () => z.number().int();

export const ZForexQuotationView = z.object({
  Open: z.number(),
  Close: z.number(),
  Change: z.number().describe('24-hour change in percent, 2 decimals'),
  High: z.number(),
  Low: z.number(),
  Volume: z.number(),
  Ask: z.number(),
  Bid: z.number(),
}) satisfies z.ZodType<ForexQuotationView>;

export const ZTradePairView = z.object({
  Id: zInt(),
  Code: z.string(),
  ShowCode: z.string(),
  Name: z.string(),
  Logo: z.string(),
  CategoryId: zInt(),
  MarketStatus: z.union([z.literal(0), z.literal(1)]).describe('1 open, 0 closed'),
  Session: z.enum(MARKET_SESSIONS).describe('the weekly trading hours the instrument follows'),
  PricePrecision: zInt(),
  Pip: z.number().describe('lot step'),
  ForexMinCont: z.number(),
  ForexMaxCont: z.number(),
  ForexContNum: z.number(),
  ForexFeeRate: z.number(),
  MarginMode: zInt(),
  HasForexMultiple: z.array(z.object({ Value: z.number() })),
  ForexQuotations: ZForexQuotationView,
  QuoteCurrency: z.string(),
  UsdRate: z.string().describe('USD per unit of the quote currency at this quote, decimal text'),
}) satisfies z.ZodType<TradePairView>;

export const ZCategoryView = z.object({ Id: zInt(), NameShowTrans: z.string() }) satisfies z.ZodType<CategoryView>;

export const ZKlinePointView = z.object({
  Time: zInt().describe('open time, seconds since the epoch (UTC)'),
  Open: z.number(),
  High: z.number(),
  Low: z.number(),
  Close: z.number(),
  Volume: z.number(),
}) satisfies z.ZodType<KlinePointView>;

export const ZSparklineView = z.object({
  Id: zInt(),
  Code: z.string(),
  Period: z.enum(KLINE_PERIODS),
  Points: z.array(z.tuple([z.number(), z.number()])).describe('[Time (seconds), Close] pairs, oldest first'),
}) satisfies z.ZodType<SparklineView>;

export const ZOrderView = z.object({
  Id: zInt(),
  OrderType: zInt().describe('1 buy, 2 sell'),
  Quantity: z.number().describe('lots'),
  OriginPrice: z.number(),
  Price: z.number().describe('opening price once filled; the target price while pending'),
  UpdatePrice: z.number().nullable(),
  FactProfits: z.number().nullable(),
  CautionMoney: z.number(),
  TradeFee: z.number().nullable(),
  TargetLossPrice: z.number(),
  TargetProfitPrice: z.number(),
  TargetPrice: z.number(),
  Multiple: z.number(),
  CreateTimeHandler: z.string(),
  CreatedAt: z.string(),
  OpenedAt: z.string().nullable().describe('when the position opened (the fill); null before it'),
  ClosedAt: z.string().nullable(),
  ForexId: zInt(),
  ForexTradeLists: z.object({ Id: zInt(), ShowCode: z.string(), Code: z.string(), PricePrecision: zInt() }),
  Status: zInt().describe('0 pending, 1 holding, 3 history'),
  CloseReason: z.enum(Object.values(CloseReason)).nullable(),
  CloseReasonTran: z.string(),
}) satisfies z.ZodType<OrderView>;

export const ZOrderPageView = z.object({
  data: z.array(ZOrderView),
  total: zInt(),
  page: zInt(),
  page_size: zInt(),
  next_cursor: zInt().nullable(),
  all_fact_profits: z.number(),
  balance: z.number(),
}) satisfies z.ZodType<OrderPageView>;

export const ZAccountFiguresView = z.object({
  balance: z.number(),
  lock_balance: z.number(),
  net_value: z.number(),
  floating_profit: z.number(),
  current_margin: z.number(),
  available_prepayment: z.number(),
  withdrawable: z.number(),
  prepayment_ratio: z.number().nullable(),
  risk_rate: z.number().nullable(),
  stop_out_level: z.number(),
  margin_call_level: z.number(),
}) satisfies z.ZodType<AccountFiguresView>;

export const ZBalanceView = z.object({
  balance: z.number(),
  lock_balance: z.number(),
  currency: z.string(),
}) satisfies z.ZodType<BalanceView>;

export const ZLedgerEntryView = z.object({
  Id: zInt(),
  Value: z.number(),
  BalanceAfter: z.number(),
  Type: z.string(),
  Memo: z.string(),
  MemoTran: z.string(),
  RefType: z.string().nullable(),
  RefId: zInt().nullable(),
  CreatedAt: z.string(),
  CreatedAtTran: z.string(),
}) satisfies z.ZodType<LedgerEntryView>;

export const ZLedgerPageView = z.object({
  data: z.array(ZLedgerEntryView),
  total: zInt(),
  page: zInt(),
  page_size: zInt(),
}) satisfies z.ZodType<LedgerPageView>;

export const ZDemoResetView = z.object({ balance: z.number(), closed: z.array(zInt()) }) satisfies z.ZodType<DemoResetView>;
