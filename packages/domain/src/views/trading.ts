import type { OrderView } from '../schemas/trading.js';

// The shapes the trading and wallet routes answer with (docs/api.md). The server's presenters are typed
// with them and the web reads them, so a field that drifts is a compile error on the server.

/** `forexDetail`: the account's figures in the spec's words. */
export interface AccountFiguresView {
  balance: number;
  lock_balance: number;
  net_value: number;
  floating_profit: number;
  current_margin: number;
  available_prepayment: number;
  /** What may leave the account now: min(balance − lock_balance, free margin), floor 0. */
  withdrawable: number;
  /** Percent; null without positions. */
  prepayment_ratio: number | null;
  /** Percent; null when equity is gone. */
  risk_rate: number | null;
  /** Percent: at or below this margin level positions are closed, the most losing first. */
  stop_out_level: number;
  /** Percent: at or below this margin level the account is warned (in the app and by e-mail). */
  margin_call_level: number;
}

/** The `FOREX_TRADE` socket push: the account's moving figures and each position's live price and P&L. */
export interface TradePushView {
  ProfitsTotal: number;
  /** Risk rate in percent; null when equity is gone. */
  HazardRate: number | null;
  CautionMoneyAll: number;
  TransOrder: { Id: number; UpdatePrice: number; FactProfits: number }[];
}

/** `my_deal`: one page of the user's orders of one status. */
export interface OrderPageView {
  data: OrderView[];
  total: number;
  page: number;
  page_size: number;
  /** The `cursor` that asks for the next orders; null when there are no more. */
  next_cursor: number | null;
  all_fact_profits: number;
  balance: number;
}

/** `getBalance`. */
export interface BalanceView {
  balance: number;
  lock_balance: number;
  currency: string;
}

/** One ledger row: why the balance moved and what it was after. */
export interface LedgerEntryView {
  Id: number;
  Value: number;
  BalanceAfter: number;
  Type: string;
  Memo: string;
  MemoTran: string;
  RefType: string | null;
  RefId: number | null;
  CreatedAt: string;
  CreatedAtTran: string;
}

export interface LedgerPageView {
  data: LedgerEntryView[];
  total: number;
  page: number;
  page_size: number;
}

/** `resetDemo`: the restored balance and the ids of the positions it closed. */
export interface DemoResetView {
  balance: number;
  closed: number[];
}
