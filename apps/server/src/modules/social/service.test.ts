import { dec } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import type { PublicProfile } from '../accounts/service.js';
import type { TraderResults, WindowResults } from '../trading/service.js';
import { LEADERBOARD_SIZE, LEADERBOARD_TTL_MS, SocialService } from './service.js';

/** 450 ranked traders (user id = rank); the first 300 are demo accounts. */
function fakes() {
  const ranking: WindowResults[] = Array.from({ length: 450 }, (_, i) => ({
    userId: i + 1,
    profit: dec(1000 - i),
    margin: dec(100),
    trades: 3,
    wins: 1,
    leverage: 100,
    code: 'EURUSD',
  }));
  const calls = { window: 0 };
  const trading = {
    windowResults: async (_since: Date, limit: number, offset: number) => {
      calls.window += 1;
      return ranking.slice(offset, offset + limit);
    },
    lifetimeResults: async (userIds: number[]) =>
      new Map<number, TraderResults>(userIds.map((userId) => [userId, { userId, profit: dec(1), margin: dec(3), trades: 9 }])),
  };
  const accounts = {
    profiles: async (userIds: number[]) =>
      new Map<number, PublicProfile>(userIds.map((id) => [id, { uid: 10_000_000 + id, name: `u${id}`, isDemo: id <= 300 }])),
  };
  return { trading, accounts, calls };
}

describe('leaderboard assembly', () => {
  it('reads further batches until demo accounts are skipped and the board is full', async () => {
    const { trading, accounts } = fakes();
    const board = await new SocialService({ trading, accounts, clock: new ManualClock(0) }).leaderboard();
    expect(board).toHaveLength(LEADERBOARD_SIZE);
    expect(board[0]).toEqual({
      user: 'u301',
      uid: 10_000_301,
      three_week_profit: 700,
      three_week_rate: 700,
      three_week_win: 33.33,
      total_rate: 33.33,
      total_trade_num: 9,
      multiple: 100,
      code: 'EURUSD',
    });
    expect(board.at(-1)?.user).toBe('u350');
  });

  it('computes once per minute, sharing the computation between callers', async () => {
    const { trading, accounts, calls } = fakes();
    const clock = new ManualClock(0);
    const service = new SocialService({ trading, accounts, clock });
    await Promise.all([service.leaderboard(), service.leaderboard()]);
    clock.advance(LEADERBOARD_TTL_MS - 1);
    await service.leaderboard();
    const perComputation = calls.window;
    clock.advance(1);
    await service.leaderboard();
    expect(calls.window).toBe(perComputation * 2);
  });
});
