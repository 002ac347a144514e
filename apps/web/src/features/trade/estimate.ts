import {
  chargePrice,
  dec,
  exitPrice,
  lotError,
  orderCharges,
  OrderSide,
  stopsError,
  ZSubmitOrderRequest,
  type LotError,
  type OrderSideValue,
} from '@pipwise/domain';
import type { TradePair } from '../../api/types';

export function quoteOf(pair: TradePair) {
  const quote = pair.ForexQuotations;
  const bid = quote.Bid ?? quote.Close;
  const ask = quote.Ask ?? bid;
  return { bid, ask };
}

/**
 * The order ticket's margin and fee: the domain's `orderCharges`, which the server charges with, at the
 * price the order fills at (buy: ask, sell: bid, pending: its target) and converted at the USD rate the
 * server sent with this very quote. Null while an input is missing (an old cached list has no rate).
 */
export function estimateOrder(input: {
  pair: TradePair;
  side: OrderSideValue;
  /** Valid lots, as the order will send them. */
  lots: string;
  leverage: number;
  feeType: number;
  /** A pending order's target price. */
  target?: string | undefined;
}) {
  const charges = chargesOf(input);
  return charges && { margin: charges.margin.toNumber(), fee: charges.fee.toNumber() };
}

/** A market or pending order's margin and fee as the server charges them (decimals), or null without a USD rate. */
export function chargesOf(input: Parameters<typeof estimateOrder>[0]) {
  const { pair } = input;
  if (!pair.UsdRate) return null;
  return orderCharges({
    lots: input.lots,
    contractSize: pair.ForexContNum,
    marginMode: pair.MarginMode,
    price: chargePrice(input.side, quoteOf(pair), input.target),
    leverage: input.leverage,
    usdRate: pair.UsdRate,
    feeType: input.feeType,
    feeRate: pair.ForexFeeRate,
  });
}

export type LotProblem = LotError | 'lots_invalid';

/**
 * Lots typed on the ticket (already read as a number in the reader's language, NaN when no number),
 * checked by the domain's lot rule, the one the server applies. Valid lots come back as the exact text
 * the order sends; nothing is ever rounded or clamped into range.
 */
export function checkLots(value: number, pair: TradePair): { lots: string } | { problem: LotProblem } {
  if (!Number.isFinite(value)) return { problem: 'lots_invalid' };
  const lots = dec(value);
  const problem = lotError(lots, { minLots: pair.ForexMinCont, maxLots: pair.ForexMaxCont, lotStep: pair.Pip });
  return problem ? { problem } : { lots: lots.toFixed() };
}

/** The lots the − / + buttons step to: the next valid value in that direction, within min and max. */
export function stepLots(value: number, direction: 1 | -1, pair: TradePair): string {
  const min = dec(pair.ForexMinCont);
  const max = dec(pair.ForexMaxCont);
  const step = dec(pair.Pip);
  if (!Number.isFinite(value)) return min.toFixed();
  const steps = dec(value).minus(min).dividedBy(step);
  const onGrid = steps.isInteger();
  const next = direction === 1 ? (onGrid ? steps.plus(1) : steps.ceil()) : onGrid ? steps.minus(1) : steps.floor();
  const lots = min.plus(next.times(step));
  return (lots.lt(min) ? min : lots.gt(max) ? max : lots).toFixed();
}

export type Level = 'take_profit' | 'stop_loss';
export type LevelProblem = 'level_required' | 'level_invalid' | 'wrong_side';

/**
 * A switched-on take profit or stop loss: present, a price by the submit schema, and on the right side
 * of the order's reference price by the domain's rule (the server's): a pending order's target, else the
 * price the position would close at now. `reference` is that price, for the message.
 */
export function checkLevel(input: {
  level: Level;
  text: string;
  side: OrderSideValue;
  pair: TradePair;
  target?: string | undefined;
}): { price: string } | { problem: LevelProblem; reference?: string } {
  const text = input.text.trim();
  if (!text) return { problem: 'level_required' };
  const field = input.level === 'take_profit' ? 'target_profit_price' : 'stop_loss_price';
  const parsed = ZSubmitOrderRequest.shape[field].safeParse(text);
  if (!parsed.success || parsed.data === undefined) return { problem: 'level_invalid' };
  const reference = input.target ?? exitPrice(input.side, quoteOf(input.pair)).toFixed();
  const stops = input.level === 'take_profit' ? { takeProfit: parsed.data } : { stopLoss: parsed.data };
  return stopsError(input.side, reference, stops) ? { problem: 'wrong_side', reference } : { price: parsed.data };
}

/** The message key of a level on the wrong side: which way it must be, for this side. */
export function wrongSideKey(level: Level, side: OrderSideValue) {
  const above = (level === 'take_profit') === (side === OrderSide.buy);
  return `trade.${level}_${above ? 'above' : 'below'}` as const;
}

/** Decimals of a number such as 0.01 → 2, to show rules and lots exactly. */
export function decimalsOf(step: number) {
  const text = String(step);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]);
  return text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
}
