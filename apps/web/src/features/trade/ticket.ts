import { OrderSide, OrderStatus, orderRefusal, type OrderRefusal, type OrderSideValue } from '@pipwise/domain';
import type { SubmitOrder } from '../../api/queries/orders';
import type { TradePair } from '../../api/types';
import { chargesOf, checkLevel, checkLots, decimalsOf, estimateOrder, stepLots, type Level, type LotProblem } from './estimate';

/**
 * The order ticket as data (docs/api.md: trade, order rules; docs/architecture.md, "Trading model"): what
 * the user has typed and chosen, the actions that change it, and everything the ticket shows or sends
 * worked out from it by the domain's rules (`orderCharges` for the estimate, the lot and TP/SL rules for
 * the refusals). No React and no language state: `OrderForm.tsx` renders it and does what only a screen
 * can (the session, the feed, sending, the result popup).
 */

export type TicketKind = 'market' | 'pending';

export interface TicketState {
  kind: TicketKind;
  leverage: number | undefined;
  /** Lots as typed, in the reader's language. */
  lotsText: string;
  /** A pending order's target price, as the price input gives it (a plain figure). */
  targetPrice: string;
  takeProfitOn: boolean;
  stopLossOn: boolean;
  takeProfit: string;
  stopLoss: string;
  /** The side last tapped while a switched-on level was refused: its messages stay until fixed. */
  refusedSide: OrderSideValue | null;
}

export type TicketAction =
  | { type: 'kind'; kind: TicketKind }
  | { type: 'leverage'; leverage: number }
  | { type: 'lots'; text: string }
  /** The − / + buttons: the next valid lots in that direction, written in the reader's language. */
  | { type: 'step_lots'; direction: 1 | -1 }
  | { type: 'target'; text: string }
  | { type: 'level_on'; level: Level; on: boolean }
  | { type: 'level'; level: Level; text: string }
  /** A tap was refused for its levels (the side), or an order went out (null). */
  | { type: 'refused_side'; side: OrderSideValue | null };

/** Reading and writing numbers in the reader's language (`i18n/format` in the app). */
export interface TicketNumbers {
  /** NaN when the text is no number. */
  parse(text: string): number;
  format(value: number, decimals: number): string;
}

/** What the ticket is for: the pair as listed (rules, live quote, USD rate) and the reader's numbers. */
export interface TicketContext {
  pair: TradePair;
  numbers: TicketNumbers;
}

/** The fee setting (`trade_fee_type` of basic info) is needed for the estimate; unknown until loaded. */
export interface TicketFigureContext extends TicketContext {
  feeType: number | undefined;
}

/** A fresh ticket: market, the first leverage offered, the smallest lots. */
export function initialTicket({ pair, numbers }: TicketContext): TicketState {
  return {
    kind: 'market',
    leverage: pair.HasForexMultiple?.[0]?.Value,
    lotsText: numbers.format(pair.ForexMinCont, decimalsOf(pair.Pip)),
    targetPrice: '',
    takeProfitOn: false,
    stopLossOn: false,
    takeProfit: '',
    stopLoss: '',
    refusedSide: null,
  };
}

const LEVEL_FIELDS = {
  take_profit: { on: 'takeProfitOn', text: 'takeProfit' },
  stop_loss: { on: 'stopLossOn', text: 'stopLoss' },
} as const;

export function ticketReducer(state: TicketState, action: TicketAction, { pair, numbers }: TicketContext): TicketState {
  switch (action.type) {
    case 'kind':
      return { ...state, kind: action.kind };
    case 'leverage':
      return { ...state, leverage: action.leverage };
    case 'lots':
      return { ...state, lotsText: action.text };
    case 'step_lots': {
      const lots = stepLots(numbers.parse(state.lotsText), action.direction, pair);
      return { ...state, lotsText: numbers.format(Number(lots), decimalsOf(pair.Pip)) };
    }
    case 'target':
      return { ...state, targetPrice: action.text };
    case 'level_on':
      return { ...state, [LEVEL_FIELDS[action.level].on]: action.on };
    case 'level':
      return { ...state, [LEVEL_FIELDS[action.level].text]: action.text };
    case 'refused_side':
      return { ...state, refusedSide: action.side };
  }
}

/** A market order's margin and fee (USD, as charged), or null while an input is missing. */
export type SideEstimate = ReturnType<typeof estimateOrder>;

/** Why a switched-on level cannot be sent, for the message next to it. */
export type LevelRefusal =
  | { problem: 'level_required' | 'level_invalid' }
  /** On the wrong side of `reference` (a plain price): the message says which way it must be. */
  | { problem: 'wrong_side'; side: OrderSideValue; reference: string };

export interface TicketFigures {
  /** The typed lots read as a number (NaN when none): the stepper's buttons compare it with the limits. */
  typedLots: number;
  /** Valid lots as the order sends them, or null when refused. */
  lots: string | null;
  lotProblem: LotProblem | null;
  /** A pending order's target once it is a positive price. */
  target: string | undefined;
  canDecrease: boolean;
  canIncrease: boolean;
  /** The estimate at each side's fill price (a pending order's: the target, the same for both). */
  estimate: Record<'buy' | 'sell', SideEstimate>;
  /** The refusals shown after a tap on `refusedSide`. */
  levelRefusals: Partial<Record<Level, LevelRefusal>>;
}

const targetOf = (state: TicketState) =>
  state.kind === 'pending' && Number(state.targetPrice) > 0 ? state.targetPrice : undefined;

/** The switched-on levels checked for `side`: their prices, and each one refused with why. */
export function checkLevels(state: TicketState, side: OrderSideValue, pair: TradePair) {
  const prices: Partial<Record<Level, string>> = {};
  const refusals: Partial<Record<Level, LevelRefusal>> = {};
  const target = targetOf(state);
  for (const level of ['take_profit', 'stop_loss'] as const) {
    const fields = LEVEL_FIELDS[level];
    if (!state[fields.on]) continue;
    const checked = checkLevel({ level, text: state[fields.text], side, pair, target });
    if ('price' in checked) prices[level] = checked.price;
    else if (checked.problem === 'wrong_side') refusals[level] = { problem: 'wrong_side', side, reference: checked.reference! };
    else refusals[level] = { problem: checked.problem };
  }
  return { prices, refusals };
}

/** Everything the ticket shows, from its state. */
export function ticketFigures(state: TicketState, { pair, numbers, feeType }: TicketFigureContext): TicketFigures {
  const typedLots = numbers.parse(state.lotsText);
  const checked = checkLots(typedLots, pair);
  const lots = 'lots' in checked ? checked.lots : null;
  const target = targetOf(state);
  const { leverage } = state;
  const estimateAt = (side: OrderSideValue) =>
    leverage && lots && feeType !== undefined && (state.kind === 'market' || target)
      ? estimateOrder({ pair, side, lots, leverage, feeType, target })
      : null;
  return {
    typedLots,
    lots,
    lotProblem: 'problem' in checked ? checked.problem : null,
    target,
    canDecrease: !(typedLots <= pair.ForexMinCont),
    canIncrease: !(typedLots >= pair.ForexMaxCont),
    estimate: { buy: estimateAt(OrderSide.buy), sell: estimateAt(OrderSide.sell) },
    levelRefusals: state.refusedSide === null ? {} : checkLevels(state, state.refusedSide, pair).refusals,
  };
}

/** What a tap on Buy or Sell comes to, once the session and the feed allow orders. */
export type Placement =
  /** A toast says what is missing (keys of `trade`). */
  | { outcome: 'missing'; key: 'trade.leverage_missing' | 'trade.price_required' }
  /** The lots are refused: their field says why, nothing is sent. */
  | { outcome: 'lots_refused' }
  /** A switched-on level is refused: `refused_side` keeps its messages shown. */
  | { outcome: 'levels_refused'; side: OrderSideValue }
  /** The account cannot afford it, by the rule the server applies (`orderRefusal`): a toast says why. */
  | { outcome: 'unaffordable'; reason: OrderRefusal }
  | { outcome: 'send'; request: SubmitOrder };

/**
 * The signed-in account's room for a new order, as its figures show it now: the server's free margin,
 * moved by the latest push, and the cash balance; with the fee setting the charge needs.
 */
export interface AccountRoom {
  freeMargin: number;
  balance: number;
  feeType: number;
}

/**
 * The order a tap on `side` sends, or why none is sent. With the account's room known, an order the
 * server would refuse for margin or fee is refused here by the same rule, at the price on screen.
 */
export function placement(
  state: TicketState,
  side: OrderSideValue,
  { pair, numbers }: TicketContext,
  room?: AccountRoom,
): Placement {
  const { leverage } = state;
  if (!leverage) return { outcome: 'missing', key: 'trade.leverage_missing' };
  const target = targetOf(state);
  if (state.kind === 'pending' && !target) return { outcome: 'missing', key: 'trade.price_required' };
  const checked = checkLots(numbers.parse(state.lotsText), pair);
  if (!('lots' in checked)) return { outcome: 'lots_refused' };
  const levels = checkLevels(state, side, pair);
  if (Object.keys(levels.refusals).length > 0) return { outcome: 'levels_refused', side };
  const charges = room && chargesOf({ pair, side, lots: checked.lots, leverage, feeType: room.feeType, target });
  const refusal =
    room &&
    charges &&
    orderRefusal({ freeMargin: room.freeMargin, balance: room.balance, charges, pending: state.kind === 'pending' });
  if (refusal) return { outcome: 'unaffordable', reason: refusal };
  return {
    outcome: 'send',
    request: {
      type: side,
      cont: checked.lots,
      forex_id: pair.Id,
      status: state.kind === 'market' ? OrderStatus.holding : OrderStatus.pending,
      multiple: leverage,
      ...(target ? { target_price: target } : {}),
      ...(levels.prices.take_profit ? { target_profit_price: levels.prices.take_profit } : {}),
      ...(levels.prices.stop_loss ? { stop_loss_price: levels.prices.stop_loss } : {}),
    },
  };
}
