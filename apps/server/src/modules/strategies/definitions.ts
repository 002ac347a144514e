import type { KlinePeriod, StrategyKind } from '@pipwise/domain';

/** One of the broker's automated demo strategies: its rules, the instrument it trades and its public name. */
export interface StrategyDefinition {
  kind: StrategyKind;
  /** The instrument's code. */
  instrument: string;
  /** The provider nickname it is listed under (a name, the same in every language). */
  nickname: string;
  /** Its description in the `strategies` catalogue. */
  bioKey: string;
}

/**
 * The strategies and what they trade: bitcoin trends and trades every day of the week, so the list shows
 * live trading at a weekend too; the euro is the quietest market, where reverting to the mean pays; gold
 * breaks out of its ranges.
 */
export const STRATEGIES: readonly StrategyDefinition[] = [
  { kind: 'trend', instrument: 'BTCUSD', nickname: 'Trend Follower BTC', bioKey: 'strategy_trend_bio' },
  { kind: 'reversion', instrument: 'EURUSD', nickname: 'Mean Reversion EUR', bioKey: 'strategy_reversion_bio' },
  { kind: 'breakout', instrument: 'XAUUSD', nickname: 'Breakout Gold', bioKey: 'strategy_breakout_bio' },
];

/** The bars the strategies decide on: hourly, so a new account trades within hours, not days. */
export const STRATEGY_PERIOD: KlinePeriod = '60min';

/** Hourly bars a backtest reads: the stored history up to twelve weeks back (the back-fill keeps 600). */
export const BACKTEST_BARS = 2_016;
