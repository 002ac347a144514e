import { z } from 'zod';
import { CopySkipReason } from '../copy/rules.js';
import { ZLeaderboardEntryView } from './content.js';

// Answer schemas of the copy-trading routes (docs/api.md, "Copy trading"). Returns, drawdown, win rate and
// volatility are percent points (2 decimals); money is USD to the cent; times are epoch milliseconds.

const zInt = () => z.number().int();
const zPct = () => z.number().nullable();

export const COPY_SKIP_REASONS = Object.values(CopySkipReason);

/** The figures every provider row and profile shows, from live trading only (a backtest never counts). */
export const ZProviderFiguresView = z.object({
  return_1m: zPct(),
  return_3m: zPct(),
  return_12m: zPct(),
  return_all: zPct(),
  max_drawdown: z.number(),
  /** 1 (calm) to 10 (wild), from the annualised volatility of daily returns over 12 months; null before two days of history. */
  risk_score: zInt().nullable(),
  volatility: zPct(),
  win_rate: zPct(),
  avg_holding_hours: z.number().nullable(),
  trades_per_week: z.number(),
  /** Whole months since the first daily snapshot. */
  months: zInt(),
  copiers: zInt(),
  copied_amount: z.number(),
});
export type ProviderFiguresView = z.infer<typeof ZProviderFiguresView>;

/**
 * One row of `GET /api/follow/list`: the leaderboard's fields (user, uid, three-week and total figures,
 * multiple, code) and the provider's. `automated` marks the broker's demo strategies.
 */
export const ZProviderEntryView = ZLeaderboardEntryView.extend(ZProviderFiguresView.shape).extend({
  provider_id: zInt(),
  nickname: z.string(),
  automated: z.boolean(),
  demo: z.boolean(),
  fee_pct: zInt(),
});
export type ProviderEntryView = z.infer<typeof ZProviderEntryView>;

export const ZIndexPointView = z.object({ day: z.string().describe('YYYY-MM-DD'), value: z.number() });
export type IndexPointView = z.infer<typeof ZIndexPointView>;

export const ZMonthReturnView = z.object({ month: z.string().describe('YYYY-MM'), return: z.number() });
export type MonthReturnView = z.infer<typeof ZMonthReturnView>;

/** A provider's open position as the public sees it: only once it has been open for the publication delay. */
export const ZPublicPositionView = z.object({
  code: z.string(),
  side: zInt(),
  lots: z.number(),
  multiple: zInt(),
  open_price: z.number(),
  opened_at: zInt(),
});
export type PublicPositionView = z.infer<typeof ZPublicPositionView>;

/** A backtest of an automated strategy over the chart history: shown apart, never counted in live figures. */
export const ZBacktestView = z.object({
  from: z.string(),
  to: z.string(),
  index: z.array(ZIndexPointView),
  return_all: z.number(),
  max_drawdown: z.number(),
  trades: zInt(),
  win_rate: zPct(),
});
export type BacktestView = z.infer<typeof ZBacktestView>;

export const ZProviderProfileView = ZProviderEntryView.extend({
  bio: z.string(),
  status: z.enum(['active', 'stopped', 'suspended']),
  /** The live daily return index (100 at the first snapshot). */
  index: z.array(ZIndexPointView),
  monthly: z.array(ZMonthReturnView),
  open_positions: z.array(ZPublicPositionView),
  /** Minutes a position is held back before the public sees it. */
  delay_minutes: zInt(),
  instruments: z.array(z.object({ code: z.string(), trades: zInt() })),
  backtest: ZBacktestView.nullable(),
  /** The viewer's own copy of this provider, when signed in and copying. */
  my_copy_id: zInt().nullable(),
});
export type ProviderProfileView = z.infer<typeof ZProviderProfileView>;

/** What a copy with this amount would open right now, one line per open position of the provider. */
export const ZCopyPreviewLineView = z.object({
  code: z.string(),
  side: zInt(),
  provider_lots: z.number(),
  lots: z.number().nullable(),
  skip_reason: z.enum(COPY_SKIP_REASONS).nullable(),
  /** As the copy is charged: the margin to 6 decimals, the fee to 2. */
  margin: z.number(),
  fee: z.number(),
});
export const ZCopyPreviewView = z.object({
  lines: z.array(ZCopyPreviewLineView),
  fee_pct: zInt(),
  min_amount: z.number(),
  free_margin: z.number(),
  /** The loss at which the copy stops, for the stop-loss percent asked (negative). */
  stop_loss_at: z.number(),
});
export type CopyPreviewView = z.infer<typeof ZCopyPreviewView>;

export const COPY_STATUSES = ['active', 'paused', 'stopped'] as const;
/** Why a copy stopped: the follower unfollowed, its copy stop-loss hit, or the provider stopped or was suspended. */
export const COPY_STOP_REASONS = ['unfollowed', 'stop_loss', 'provider_stopped', 'provider_suspended'] as const;

export const ZCopyView = z.object({
  id: zInt(),
  provider_id: zInt(),
  nickname: z.string(),
  automated: z.boolean(),
  amount: z.number(),
  stop_loss_pct: zInt(),
  status: z.enum(COPY_STATUSES),
  stop_reason: z.enum(COPY_STOP_REASONS).nullable(),
  realised: z.number(),
  floating: z.number(),
  /** realised + floating. */
  pnl: z.number(),
  open_positions: zInt(),
  fees_paid: z.number(),
  created_at: zInt(),
});
export type CopyView = z.infer<typeof ZCopyView>;

export const COPY_ACTIVITY_KINDS = ['copied', 'skipped', 'closed', 'detached', 'stopped', 'fee'] as const;
export type CopyActivityKind = (typeof COPY_ACTIVITY_KINDS)[number];

/** One line of a copy's activity; also the `COPY` socket topic's message. */
export const ZCopyActivityView = z.object({
  id: zInt(),
  copy_id: zInt(),
  kind: z.enum(COPY_ACTIVITY_KINDS),
  code: z.string().nullable(),
  side: zInt().nullable(),
  lots: z.number().nullable(),
  price: z.number().nullable(),
  /** The follower's order, when one was opened or closed. */
  order_id: zInt().nullable(),
  /** The provider's order this line follows. */
  provider_order_id: zInt().nullable(),
  skip_reason: z.enum(COPY_SKIP_REASONS).nullable(),
  stop_reason: z.enum(COPY_STOP_REASONS).nullable(),
  /** P&L of a close, or the fee paid. */
  amount: z.number().nullable(),
  at: zInt(),
});
export type CopyActivityView = z.infer<typeof ZCopyActivityView>;

/** The provider's own page: their profile, copiers and fees earned. */
export const ZMyProviderView = z.object({
  provider_id: zInt(),
  nickname: z.string(),
  bio: z.string(),
  fee_pct: zInt(),
  status: z.enum(['active', 'stopped', 'suspended']),
  suspended_reason: z.string().nullable(),
  listed: z.boolean(),
  copiers: zInt(),
  copied_amount: z.number(),
  fees_earned: z.number(),
  fee_max_pct: zInt(),
});
export type MyProviderView = z.infer<typeof ZMyProviderView>;
