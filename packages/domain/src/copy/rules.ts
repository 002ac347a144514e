import { Dec, dec, type DecimalInput } from '../money.js';
import {
  orderCharges,
  orderRefusal,
  stopReached,
  type ChargeInput,
  type LotRules,
  type OrderCharges,
  type OrderSideValue,
} from '../trading.js';

/**
 * The rules of copying a provider (docs/architecture.md, "Copy trading figures"): how a follower's copy
 * is sized, which stops it carries, when the copy stop-loss closes it, and what the provider's fee is.
 * The server's copy workers and the app's copy sheet apply the same functions.
 */

/** The copy stop-loss a follower may set, in percent of the copy's amount. */
export const COPY_STOP_LOSS_MIN_PCT = 10;
export const COPY_STOP_LOSS_MAX_PCT = 90;
export const PROVIDER_NICKNAME_MIN = 2;
export const PROVIDER_NICKNAME_MAX = 24;
export const PROVIDER_BIO_MAX = 280;

/** Why a provider's fill was not copied to a follower. */
export const CopySkipReason = {
  /** The sized lots fell below the instrument's minimum. */
  tooSmall: 'too_small',
  /** The follower's free margin (or balance, for the fee) could not carry the copy. */
  noMargin: 'no_margin',
  /** The instrument was closed or the follower's trading frozen. */
  closed: 'closed',
} as const;
export type CopySkipReasonValue = (typeof CopySkipReason)[keyof typeof CopySkipReason];

export type CopySizing = { kind: 'copy'; lots: Dec } | { kind: 'skip'; reason: typeof CopySkipReason.tooSmall };

/**
 * Copy lots = provider lots × copy amount ÷ provider equity at the fill, rounded down onto the
 * instrument's lot grid (min, min + step, … as `lotError` accepts) and capped at the largest grid value
 * not above the maximum. Below the minimum the copy is skipped as `too_small`; so is a provider without
 * positive equity, who has no share to scale by.
 */
export function copyLots(input: {
  providerLots: DecimalInput;
  providerEquity: DecimalInput;
  copyAmount: DecimalInput;
  lots: LotRules;
}): CopySizing {
  const equity = dec(input.providerEquity);
  if (equity.lte(0)) return { kind: 'skip', reason: CopySkipReason.tooSmall };
  const scaled = dec(input.providerLots).times(input.copyAmount).dividedBy(equity);
  const min = dec(input.lots.minLots);
  if (scaled.lt(min)) return { kind: 'skip', reason: CopySkipReason.tooSmall };
  const capped = Dec.min(scaled, input.lots.maxLots);
  const step = dec(input.lots.lotStep);
  if (step.lte(0)) return { kind: 'copy', lots: capped };
  const steps = capped.minus(min).dividedToIntegerBy(step);
  return { kind: 'copy', lots: min.plus(steps.times(step)) };
}

export type CopyPlan = { kind: 'copy'; lots: Dec; charges: OrderCharges } | { kind: 'skip'; reason: CopySkipReasonValue };

/**
 * What a follower's copy of one provider fill does: skipped as `closed` when the instrument cannot be
 * traded now (market closed, follower's trading frozen), as `too_small` when the sized lots fall below
 * the minimum, as `no_margin` when the order it would open is refused (free margin short of margin +
 * fee, or balance short of the fee); otherwise a market order of those lots with its charges. A pending
 * order of the provider is copied when it fills, so a copy is always a market order.
 */
export function copyPlan(input: {
  providerLots: DecimalInput;
  providerEquity: DecimalInput;
  copyAmount: DecimalInput;
  lots: LotRules;
  tradable: boolean;
  /** The follower's charge terms at its own quote: everything of an order's charges but its lots. */
  charge: Omit<ChargeInput, 'lots'>;
  freeMargin: DecimalInput;
  balance: DecimalInput;
}): CopyPlan {
  if (!input.tradable) return { kind: 'skip', reason: CopySkipReason.closed };
  const sizing = copyLots(input);
  if (sizing.kind === 'skip') return sizing;
  const charges = orderCharges({ ...input.charge, lots: sizing.lots });
  if (orderRefusal({ freeMargin: input.freeMargin, balance: input.balance, charges, pending: false }) !== null) {
    return { kind: 'skip', reason: CopySkipReason.noMargin };
  }
  return { kind: 'copy', lots: sizing.lots, charges };
}

export interface Stops {
  takeProfit: Dec | null;
  stopLoss: Dec | null;
}

/**
 * A copy carries the provider's take-profit and stop-loss prices themselves (not distances), so it
 * closes where the provider's position does; later edits are copied the same way. The follower fills
 * at its own quote, which may already be past a level: `reached` then names the level the copy closes
 * by at once, as the provider's would have.
 */
export function mirroredStops(input: {
  side: OrderSideValue;
  /** The follower's closing price at its fill (buy: bid, sell: ask). */
  exit: DecimalInput;
  takeProfit: DecimalInput | null;
  stopLoss: DecimalInput | null;
}): Stops & { reached: 'take_profit' | 'stop_loss' | null } {
  const stops: Stops = {
    takeProfit: input.takeProfit === null ? null : dec(input.takeProfit),
    stopLoss: input.stopLoss === null ? null : dec(input.stopLoss),
  };
  return { ...stops, reached: stopReached(input.side, input.exit, stops) };
}

/** The loss (a negative amount) at which a copy stops: −(amount × stop-loss % ÷ 100). */
export const copyStopLossLevel = (amount: DecimalInput, stopLossPct: DecimalInput): Dec =>
  dec(amount).times(stopLossPct).dividedBy(100).negated();

/**
 * Whether a copy's result has reached its stop-loss: realised + floating P&L of its positions (each net
 * of its trade fee) at or below −(amount × stop-loss %). Then all its positions close and the copy stops.
 */
export function copyStopLossReached(input: {
  amount: DecimalInput;
  stopLossPct: DecimalInput;
  realised: DecimalInput;
  floating: DecimalInput;
}): boolean {
  return dec(input.realised).plus(input.floating).lte(copyStopLossLevel(input.amount, input.stopLossPct));
}

export interface FeeSettlement {
  /** What the follower pays the provider now, in USD to the cent (rounded down). */
  fee: Dec;
  /** The copy's high-water mark after this settlement. */
  highWaterMark: Dec;
}

/**
 * The provider's performance fee at a settlement (monthly and at unfollow): fee % of the copy's net
 * profit above its high-water mark. Net profit is the realised P&L of the copy's closed positions net of
 * their trade fees since the copy began (floating P&L is not charged for: it may still vanish). The mark
 * starts at 0 and rises to each settled net profit, so a profit is charged once and a loss must be won
 * back before anything more is. The fee never takes the balance below zero; what the balance cannot
 * cover is not carried over.
 */
export function feeSettlement(input: {
  netProfit: DecimalInput;
  highWaterMark: DecimalInput;
  feePct: DecimalInput;
  /** The follower's balance before the fee. */
  balance: DecimalInput;
}): FeeSettlement {
  const profit = dec(input.netProfit);
  const mark = dec(input.highWaterMark);
  if (profit.lte(mark)) return { fee: dec(0), highWaterMark: mark };
  const owed = profit.minus(mark).times(input.feePct).dividedBy(100);
  const fee = Dec.max(Dec.min(owed, input.balance), 0).toDecimalPlaces(2, Dec.ROUND_DOWN);
  return { fee, highWaterMark: profit };
}

/** 00:00 UTC of the 1st of the month after `at`: the next monthly fee settlement. */
export function nextFeeSettlement(at: Date | number): Date {
  const moment = new Date(at);
  return new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth() + 1, 1));
}

/**
 * Whether a monthly settlement is due: a 1st-of-month 00:00 UTC has passed since the copy was last
 * settled (or began). A job that missed the 1st, being down then, still finds it due.
 */
export const feeSettlementDue = (lastSettledAt: Date | number, now: Date | number): boolean =>
  +nextFeeSettlement(lastSettledAt) <= +now;

export type FollowAmountError = 'copy_amount_below_min' | 'copy_amount_above_free_margin';

/** A copy's amount: at least the operator's minimum and at most the follower's free margin. */
export function followAmountError(input: {
  amount: DecimalInput;
  minAmount: DecimalInput;
  freeMargin: DecimalInput;
}): FollowAmountError | null {
  const amount = dec(input.amount);
  if (amount.lt(input.minAmount)) return 'copy_amount_below_min';
  if (amount.gt(input.freeMargin)) return 'copy_amount_above_free_margin';
  return null;
}

/** A provider's fee may not exceed the operator's maximum percent. */
export const providerFeeError = (feePct: DecimalInput, maxPct: DecimalInput): 'copy_fee_above_max' | null =>
  dec(feePct).gt(maxPct) ? 'copy_fee_above_max' : null;

/**
 * Who may copy whom: demo money may follow any provider (real signals included), real money only a real
 * provider, whose results were earned with real money too.
 */
export const copyAllowed = (input: { followerDemo: boolean; providerDemo: boolean }): boolean =>
  input.followerDemo || !input.providerDemo;

/**
 * A provider is listed once `minDays` have passed since their first closed position and they have
 * `minTrades` closed positions.
 */
export function providerListable(input: {
  firstClosedAt: Date | number | null;
  closedCount: number;
  now: Date | number;
  minDays: number;
  minTrades: number;
}): boolean {
  if (input.firstClosedAt === null || input.closedCount < input.minTrades) return false;
  return +input.now - +input.firstClosedAt >= input.minDays * 86_400_000;
}
