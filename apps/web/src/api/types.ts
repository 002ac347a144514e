/** Payload shapes the web app reads (spec §3, DESIGN §4). Field names are the API's own. */
export type { UserView } from '@pipwise/domain';

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export interface ForexQuotation {
  Open: number;
  Close: number;
  /** 24-hour change in percent. */
  Change: number;
  High?: number;
  Low?: number;
  Volume?: number;
  Bid?: number;
  Ask?: number;
}

export interface TradePair {
  Id: number;
  Code: string;
  ShowCode: string;
  Logo: string;
  CategoryId: number;
  /** 1: open. */
  MarketStatus: number;
  PricePrecision: number;
  /** Lot step. */
  Pip: number;
  ForexMinCont: number;
  ForexMaxCont?: number;
  ForexContNum: number;
  ForexFeeRate: number;
  MarginMode: number;
  HasForexMultiple: { Value: number }[];
  ForexQuotations: ForexQuotation;
  /** The currency prices are quoted in, when the server says so (margins of non-USD instruments). */
  QuoteCurrency?: string;
}

export interface Category {
  Id: number;
  NameShowTrans: string;
}

export interface KlinePoint {
  Time: number;
  Open: number;
  High: number;
  Low: number;
  Close: number;
  Volume: number;
}

export type { OrderView as Order } from '@pipwise/domain';
import type { OrderView } from '@pipwise/domain';

export interface OrderPage {
  data: OrderView[];
  total: number;
  all_fact_profits: number;
  balance: number;
}

export interface Balance {
  balance: number;
  lock_balance?: number;
}

export interface AccountFigures {
  balance: number;
  lock_balance: number;
  net_value: number;
  floating_profit: number;
  current_margin: number;
  available_prepayment: number;
  prepayment_ratio: number | null;
  risk_rate: number | null;
}

export interface ForexTradePush {
  ProfitsTotal: number;
  HazardRate: number;
  CautionMoneyAll: number;
  TransOrder: { Id: number; UpdatePrice: number; FactProfits: number }[];
}

export interface DayMarketTick {
  symbol: string;
  close: number;
  change: number;
  bid?: number;
  ask?: number;
  high?: number;
  low?: number;
  open?: number;
  /** 1 open, 0 closed. */
  status?: number;
}

export interface Sparkline {
  Id: number;
  Code: string;
  Period: string;
  /** [time in seconds, close] pairs, oldest first. */
  Points: [number, number][];
}

export interface KlinePush extends KlinePoint {
  Period: string;
}

export interface LoginResult {
  token: string;
  user: import('@pipwise/domain').UserView;
}

export interface AreaCode {
  id: number;
  code: string;
  global_code: string;
  name?: string;
}

export interface BasicInfo {
  service_link?: string;
  service_link_type?: number;
  /** 1 email, 2 phone, 3 both. */
  verify_reg_type?: number;
  trade_fee_type?: number;
  is_show_mobile?: number;
}

export interface Captcha {
  id: string;
  b64s: string;
}

export type {
  LeaderboardEntryView as LeaderboardEntry,
  NewsDetailView as NewsDetail,
  NewsListView as NewsPage,
} from '@pipwise/domain';
