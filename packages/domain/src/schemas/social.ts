/**
 * One trader of the leaderboard (docs/api.md). Rates and the win share are percent points; "three week"
 * figures cover positions closed in the last 21 days, "total" ones every position ever closed.
 */
export interface LeaderboardEntryView {
  /** Masked display name: never the full e-mail address or phone number. */
  user: string;
  uid: number;
  three_week_profit: number;
  three_week_rate: number;
  three_week_win: number;
  total_rate: number;
  total_trade_num: number;
  /** The leverage used most in the window. */
  multiple: number;
  /** The instrument traded most in the window. */
  code: string;
}
