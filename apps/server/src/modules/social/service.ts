import { BALANCE_DECIMALS, dec, toJsonNumber, type Dec, type LeaderboardEntryView } from '@pipwise/domain';
import type { Clock } from '../../clock.js';
import type { AccountsService, PublicProfile } from '../accounts/service.js';
import type { TradingService, WindowResults } from '../trading/service.js';

export const LEADERBOARD_WINDOW_DAYS = 21;
export const LEADERBOARD_SIZE = 50;
/**
 * The board is public and costs an aggregate over three weeks of closes: it is computed at most once
 * a minute per process, and callers arriving meanwhile share that computation.
 */
export const LEADERBOARD_TTL_MS = 60_000;
/** Ranked traders read per round while demo accounts are skipped; one round normally fills the board. */
const RANKING_BATCH = 200;
const PERCENT_DECIMALS = 2;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SocialDeps {
  trading: Pick<TradingService, 'windowResults' | 'lifetimeResults'>;
  accounts: Pick<AccountsService, 'profiles'>;
  clock: Clock;
}

/** part ÷ whole × 100, rounded at the boundary; 0 when there is no whole. */
const percent = (part: Dec, whole: Dec) => (whole.isZero() ? 0 : toJsonNumber(part.div(whole).times(100), PERCENT_DECIMALS));

/**
 * The traders leaderboard from real trading: trading owns the orders and ranks its traders, accounts
 * says who they are (masked) and which are demo accounts, which are left out: their money is play
 * money, not a record anyone could follow.
 */
export class SocialService {
  private cached: { at: number; board: Promise<LeaderboardEntryView[]> } | null = null;

  constructor(private readonly deps: SocialDeps) {}

  leaderboard(): Promise<LeaderboardEntryView[]> {
    const now = this.deps.clock.now().getTime();
    if (this.cached && now - this.cached.at < LEADERBOARD_TTL_MS) return this.cached.board;
    const board = this.compute(now);
    this.cached = { at: now, board };
    // A failure is not kept: the next caller tries again.
    board.catch(() => {
      if (this.cached?.board === board) this.cached = null;
    });
    return board;
  }

  private async compute(now: number): Promise<LeaderboardEntryView[]> {
    const since = new Date(now - LEADERBOARD_WINDOW_DAYS * DAY_MS);
    const ranked: { results: WindowResults; profile: PublicProfile }[] = [];
    for (let offset = 0; ranked.length < LEADERBOARD_SIZE; offset += RANKING_BATCH) {
      const batch = await this.deps.trading.windowResults(since, RANKING_BATCH, offset);
      const profiles = await this.deps.accounts.profiles(batch.map((results) => results.userId));
      for (const results of batch) {
        const profile = profiles.get(results.userId);
        if (profile && !profile.isDemo) ranked.push({ results, profile });
      }
      if (batch.length < RANKING_BATCH) break;
    }
    const top = ranked.slice(0, LEADERBOARD_SIZE);
    const lifetime = await this.deps.trading.lifetimeResults(top.map(({ results }) => results.userId));
    return top.map(({ results, profile }) => {
      const total = lifetime.get(results.userId) ?? results;
      return {
        user: profile.name,
        uid: profile.uid,
        three_week_profit: toJsonNumber(results.profit, BALANCE_DECIMALS),
        three_week_rate: percent(results.profit, results.margin),
        three_week_win: percent(dec(results.wins), dec(results.trades)),
        total_rate: percent(total.profit, total.margin),
        total_trade_num: total.trades,
        multiple: results.leverage,
        code: results.code,
      };
    });
  }
}
