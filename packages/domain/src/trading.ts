import { Dec, dec, roundBalance, roundProfit, type DecimalInput } from './money.js';

/**
 * Trading math of the B-book model (docs/architecture.md, docs/api.md). Pure functions on Decimal: the server charges
 * and the order form estimates with the same code. Nothing here rounds; callers round where a value
 * leaves (balances 2, profits/margins 6, prices per instrument) — except `orderCharges` and
 * `pendingReservation`, the amounts an order is charged and reserves, which the server and the ticket
 * take whole from here.
 */

export const OrderSide = { buy: 1, sell: 2 } as const;
export type OrderSideValue = (typeof OrderSide)[keyof typeof OrderSide];

/** Order status (docs/api.md): 0 pending, 1 holding, 3 history (closed or cancelled). */
export const OrderStatus = { pending: 0, holding: 1, history: 3 } as const;
export type OrderStatusValue = (typeof OrderStatus)[keyof typeof OrderStatus];

/** Why an order reached history. */
export const CloseReason = {
  manual: 'manual',
  takeProfit: 'take_profit',
  stopLoss: 'stop_loss',
  stopOut: 'stop_out',
  cancelled: 'cancelled',
  demoReset: 'demo_reset',
  /** A pending order whose fill price needed more free margin than the account had at that moment. */
  marginShort: 'margin_short',
  /** A pending order whose price was reached after an operator froze the account's trading. */
  tradingFrozen: 'trading_frozen',
} as const;
export type CloseReasonValue = (typeof CloseReason)[keyof typeof CloseReason];

/** 1: fixed margin per lot; anything else: notional ÷ leverage. */
export const MARGIN_MODE_FIXED = 1;
/** trade_fee_type setting: 1 → lots × fee rate; anything else → margin × fee rate. */
export const FEE_TYPE_PER_LOT = 1;

export interface BidAsk {
  bid: DecimalInput;
  ask: DecimalInput;
}

/** A position opens at the ask when buying and at the bid when selling. */
export const entryPrice = (side: OrderSideValue, quote: BidAsk): Dec => dec(side === OrderSide.buy ? quote.ask : quote.bid);

/** …and closes on the other side of the spread. */
export const exitPrice = (side: OrderSideValue, quote: BidAsk): Dec => dec(side === OrderSide.buy ? quote.bid : quote.ask);

export interface MarginInput {
  lots: DecimalInput;
  /** The spec's ForexContNum: units of the base per lot. */
  contractSize: DecimalInput;
  marginMode: number;
  price: DecimalInput;
  leverage: DecimalInput;
  /** USD per unit of the instrument's quote currency (1 for USD-quoted instruments). */
  usdRate: DecimalInput;
}

/**
 * Margin in USD. Fixed mode: lots × contract size ("1 lot equals the contract size in USD", so no
 * conversion and no leverage). Otherwise the notional in the quote currency ÷ leverage, converted.
 */
export function margin(input: MarginInput): Dec {
  const lotsTimesContract = dec(input.lots).times(input.contractSize);
  if (input.marginMode === MARGIN_MODE_FIXED) return lotsTimesContract;
  return toUsd(lotsTimesContract.times(input.price).dividedBy(input.leverage), input.usdRate);
}

/** An amount in the quote currency expressed in USD. */
export const toUsd = (amount: DecimalInput, usdRate: DecimalInput): Dec => dec(amount).times(usdRate);

/** Opening fee in USD: per lot when trade_fee_type is 1, otherwise a share of the margin. */
export function tradeFee(input: { feeType: number; lots: DecimalInput; feeRate: DecimalInput; margin: DecimalInput }): Dec {
  return input.feeType === FEE_TYPE_PER_LOT ? dec(input.lots).times(input.feeRate) : dec(input.margin).times(input.feeRate);
}

/** The price an order's margin is charged at: a pending order's target, otherwise its side's entry price. */
export const chargePrice = (side: OrderSideValue, quote: BidAsk, target?: DecimalInput | null): Dec =>
  target != null ? dec(target) : entryPrice(side, quote);

export interface ChargeInput extends MarginInput {
  feeType: number;
  feeRate: DecimalInput;
}

/**
 * What opening an order costs, as charged and as estimated on the order ticket: the margin rounded to
 * 6 decimals and the fee to 2, the fee taken from the unrounded margin so rounding happens only once.
 */
export function orderCharges(input: ChargeInput): OrderCharges {
  const marginUsd = margin(input);
  return {
    margin: roundProfit(marginUsd),
    fee: roundBalance(tradeFee({ feeType: input.feeType, lots: input.lots, feeRate: input.feeRate, margin: marginUsd })),
  };
}

export interface OrderCharges {
  /** USD, 6 decimals. */
  margin: Dec;
  /** USD, 2 decimals. */
  fee: Dec;
}

/** What a pending order locks until it fills or is cancelled: its margin + fee at the target, to cents. */
export const pendingReservation = (charges: OrderCharges): Dec => roundBalance(charges.margin.plus(charges.fee));

/** Why an account cannot take on an order (the server's message keys). */
export type OrderRefusal = 'insufficient_margin' | 'insufficient_balance';

/**
 * Can this order be afforded: free margin must cover its margin + fee (a pending order's reservation
 * is that much too), and an order that opens now — a market order, or a pending one at its fill — pays
 * its fee from cash, so the balance must cover the fee. The one rule the server applies when it places
 * an order and when a pending order fills (a refusal there retires it as `margin_short`).
 */
export function orderRefusal(input: {
  /** The account's free margin before the order (equity − used margin − locked). */
  freeMargin: DecimalInput;
  balance: DecimalInput;
  charges: OrderCharges;
  /** A pending order being placed: it reserves, pays no fee yet. */
  pending: boolean;
}): OrderRefusal | null {
  const { margin: orderMargin, fee } = input.charges;
  if (dec(input.freeMargin).lt(orderMargin.plus(fee))) return 'insufficient_margin';
  if (!input.pending && dec(input.balance).lt(fee)) return 'insufficient_balance';
  return null;
}

export interface PositionInput {
  side: OrderSideValue;
  lots: DecimalInput;
  contractSize: DecimalInput;
  entry: DecimalInput;
}

/** Floating (or realised) P&L in USD: (exit − entry) × lots × contract for a buy, the negative for a sell. */
export function profit(position: PositionInput, exit: DecimalInput, usdRate: DecimalInput): Dec {
  const move = dec(exit).minus(position.entry).times(position.lots).times(position.contractSize);
  return toUsd(position.side === OrderSide.buy ? move : move.negated(), usdRate);
}

/** Positions of one instrument and side, summed: all their floating P&L needs. */
export interface PositionBook {
  side: OrderSideValue;
  /** Σ lots. */
  lots: DecimalInput;
  /** Σ lots × entry price. */
  lotsTimesEntry: DecimalInput;
  contractSize: DecimalInput;
}

/**
 * Floating P&L of a book of positions at `exit`, in USD: the sum of `profit` over them, which is linear
 * in lots and lots × entry, so an account's many positions cost one calculation per instrument and side.
 */
export function bookProfit(book: PositionBook, exit: DecimalInput, usdRate: DecimalInput): Dec {
  const move = dec(exit).times(book.lots).minus(book.lotsTimesEntry).times(book.contractSize);
  return toUsd(book.side === OrderSide.buy ? move : move.negated(), usdRate);
}

export interface AccountInput {
  balance: DecimalInput;
  /** Sum of the floating P&L of the holding positions, USD. */
  floating: DecimalInput;
  /** Sum of the margins of the holding positions, USD. */
  usedMargin: DecimalInput;
  /** Reservations of pending orders (and withdrawals under review): cash that cannot back new orders. */
  locked: DecimalInput;
}

export interface AccountFigures {
  balance: Dec;
  /** balance + floating P&L ("net value"). */
  equity: Dec;
  floating: Dec;
  /** "current margin", CautionMoneyAll. */
  usedMargin: Dec;
  locked: Dec;
  /** equity − used margin − locked ("available prepayment"). */
  freeMargin: Dec;
  /** equity ÷ used margin × 100 ("prepayment ratio"); null without positions (unbounded). */
  marginLevel: Dec | null;
  /** used margin ÷ equity × 100 (HazardRate); 0 without positions, null when equity ≤ 0 (unbounded). */
  riskRate: Dec | null;
}

export const equity = (balance: DecimalInput, floating: DecimalInput): Dec => dec(balance).plus(floating);

export const freeMargin = (input: AccountInput): Dec =>
  equity(input.balance, input.floating).minus(input.usedMargin).minus(input.locked);

export function marginLevel(equityValue: DecimalInput, usedMargin: DecimalInput): Dec | null {
  const used = dec(usedMargin);
  return used.isZero() ? null : dec(equityValue).dividedBy(used).times(100);
}

export function riskRate(equityValue: DecimalInput, usedMargin: DecimalInput): Dec | null {
  const used = dec(usedMargin);
  if (used.isZero()) return dec(0);
  const eq = dec(equityValue);
  return eq.lte(0) ? null : used.dividedBy(eq).times(100);
}

export function accountFigures(input: AccountInput): AccountFigures {
  const eq = equity(input.balance, input.floating);
  return {
    balance: dec(input.balance),
    equity: eq,
    floating: dec(input.floating),
    usedMargin: dec(input.usedMargin),
    locked: dec(input.locked),
    freeMargin: freeMargin(input),
    marginLevel: marginLevel(eq, input.usedMargin),
    riskRate: riskRate(eq, input.usedMargin),
  };
}

/** Stop-out applies when there are positions and the margin level is at or below the setting (percent). */
export function isStopOut(equityValue: DecimalInput, usedMargin: DecimalInput, stopOutLevel: DecimalInput): boolean {
  const level = marginLevel(equityValue, usedMargin);
  return level !== null && level.lte(stopOutLevel);
}

/**
 * Where a margin level (percent; null without positions) stands: at or below the stop-out level
 * positions are being closed; at or below the margin-call level (above the stop-out) the account is
 * warned; otherwise it is safe.
 */
export type MarginState = 'safe' | 'margin_call' | 'stop_out';
export function marginState(
  level: DecimalInput | null,
  levels: { marginCallLevel: DecimalInput; stopOutLevel: DecimalInput },
): MarginState {
  if (level === null) return 'safe';
  const value = dec(level);
  if (value.lte(levels.stopOutLevel)) return 'stop_out';
  return value.lte(levels.marginCallLevel) ? 'margin_call' : 'safe';
}

export interface LotRules {
  minLots: DecimalInput;
  maxLots: DecimalInput;
  /** The spec's Pip: the stepper's increment. */
  lotStep: DecimalInput;
}

export type LotError = 'lots_below_min' | 'lots_off_step' | 'lots_above_max';

/**
 * Valid lots are min, min + step, min + 2·step, … up to max — exactly the values the order form's
 * stepper produces (it starts at ForexMinCont and steps by Pip). Counting steps from the minimum rather
 * than from zero matters only when the minimum is not itself a multiple of the step.
 */
export function lotError(lots: DecimalInput, rules: LotRules): LotError | null {
  const value = dec(lots);
  if (value.lt(rules.minLots)) return 'lots_below_min';
  if (value.gt(rules.maxLots)) return 'lots_above_max';
  const step = dec(rules.lotStep);
  if (step.gt(0) && !value.minus(rules.minLots).mod(step).isZero()) return 'lots_off_step';
  return null;
}

export type StopsError = 'take_profit_wrong_side' | 'stop_loss_wrong_side';

/**
 * Take profit and stop loss are prices on the profitable and the losing side of `reference`: for a
 * holding position the price it would close at now (buy: bid, sell: ask), for a pending order its
 * target price. Buy: TP above, SL below; sell: the mirror. Absent (null) levels are not checked.
 */
export function stopsError(
  side: OrderSideValue,
  reference: DecimalInput,
  stops: { takeProfit?: DecimalInput | null; stopLoss?: DecimalInput | null },
): StopsError | null {
  const ref = dec(reference);
  const buy = side === OrderSide.buy;
  if (stops.takeProfit != null) {
    const tp = dec(stops.takeProfit);
    if (buy ? !tp.gt(ref) : !tp.lt(ref)) return 'take_profit_wrong_side';
  }
  if (stops.stopLoss != null) {
    const sl = dec(stops.stopLoss);
    if (buy ? !sl.lt(ref) : !sl.gt(ref)) return 'stop_loss_wrong_side';
  }
  return null;
}

/** Which way the market has to move for a pending order to fill. */
export type FillDirection = 'rise' | 'fall';

/**
 * A pending order fills when its entry price (buy: ask, sell: bid) reaches the target from the side it
 * was on at placement: a target at or above the market waits for a rise, one below waits for a fall.
 */
export const fillDirection = (target: DecimalInput, entryAtPlacement: DecimalInput): FillDirection =>
  dec(target).gte(entryAtPlacement) ? 'rise' : 'fall';

export const pendingReached = (direction: FillDirection, target: DecimalInput, entry: DecimalInput): boolean =>
  direction === 'rise' ? dec(entry).gte(target) : dec(entry).lte(target);

/** Which protective level, if any, the closing price has reached (TP wins if both, which cannot be set). */
export function stopReached(
  side: OrderSideValue,
  exit: DecimalInput,
  stops: { takeProfit?: DecimalInput | null; stopLoss?: DecimalInput | null },
): 'take_profit' | 'stop_loss' | null {
  const price = dec(exit);
  const buy = side === OrderSide.buy;
  if (stops.takeProfit != null && (buy ? price.gte(stops.takeProfit) : price.lte(stops.takeProfit))) return 'take_profit';
  if (stops.stopLoss != null && (buy ? price.lte(stops.stopLoss) : price.gte(stops.stopLoss))) return 'stop_loss';
  return null;
}
