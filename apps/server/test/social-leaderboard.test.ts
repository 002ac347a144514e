import { ApiPath, type LeaderboardEntryView, type OrderView } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.js';
import { expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS, ManualClock } from './harness.js';
import { MARKET_OPEN_AT, startTradingServer, type TradingServer } from './trading-helpers.js';

/** A Wednesday four weeks before MARKET_OPEN_AT: outside the leaderboard's 21 days, markets open. */
const FOUR_WEEKS_EARLIER = '2026-10-21T12:00:00Z';

/**
 * The leaderboard from orders traded and closed through real HTTP with hand-set prices. EURUSD has a
 * spread of 0.00008, GBPUSD 0.00012; both a contract of 100,000 and margin = notional ÷ leverage.
 */
describe.each(DB_KINDS)('traders leaderboard on %s', (kind) => {
  let server: TradingServer;
  let eurusd: number;
  let gbpusd: number;

  beforeAll(async () => {
    server = await startTradingServer(kind, { clock: new ManualClock(FOUR_WEEKS_EARLIER) });
    eurusd = server.instrumentId('EURUSD');
    gbpusd = server.instrumentId('GBPUSD');
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const board = () => server.call<LeaderboardEntryView[]>('GET', ApiPath.traderRanking);
  const open = async (trader: Trader, body: Record<string, unknown>) => {
    const answer = await server.submit(trader, body);
    expect(answer).toMatchObject({ code: 1 });
    return (answer.data as OrderView).Id;
  };
  const close = async (trader: Trader, id: number) => {
    expect(await server.call('GET', `${ApiPath.closeOrder}?id=${id}`, { token: trader.token })).toMatchObject({ code: 1 });
  };
  const userOf = async (trader: Trader) => {
    const [row] = await server.database.db.select().from(users).where(eq(users.id, trader.userId));
    return row!;
  };

  it('is empty before anyone has closed a position', async () => {
    expect(await board()).toMatchObject({ status: 200, code: 1, data: [] });
  });

  it('ranks real traders by three-week profit with exact figures; demo accounts, cancels and open positions are left out', async () => {
    const winner = await server.trader({ balance: '10000' });
    const loser = await server.trader({ balance: '10000' });
    const demo = await server.trader({ balance: '100000', isDemo: true });
    const canceller = await server.trader({ balance: '10000' });
    const holder = await server.trader({ balance: '10000' });

    // Four weeks ago: a losing position of the winner's that counts in the totals only. Margin 110.008, P&L −10.
    await server.tick('EURUSD', '1.10000');
    const old = await open(winner, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    await server.tick('EURUSD', '1.09908');
    await close(winner, old);

    server.manualClock.set(MARKET_OPEN_AT);
    await server.tick('EURUSD', '1.10000');
    await server.tick('GBPUSD', '1.30000');
    // Buys open at the ask (1.10008), margins 110.008 each; the GBPUSD sell opens at the bid, margin 520.
    const a1 = await open(winner, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    const a2 = await open(winner, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    const a3 = await open(winner, { type: 2, cont: '0.2', forex_id: gbpusd, status: 1, multiple: 50 });
    // A sell at the bid 1.10000, margin 275.
    const b1 = await open(loser, { type: 2, cont: '0.5', forex_id: eurusd, status: 1, multiple: 200 });
    const d1 = await open(demo, { type: 1, cont: '1', forex_id: eurusd, status: 1, multiple: 500 });
    const pending = await open(canceller, {
      type: 1,
      cont: '0.1',
      forex_id: eurusd,
      status: 0,
      target_price: '1.05',
      multiple: 100,
    });
    expect(await server.call('GET', `${ApiPath.cancelOrder}?id=${pending}`, { token: canceller.token })).toMatchObject({
      code: 1,
    });
    await open(holder, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });

    await server.tick('EURUSD', '1.10208');
    await close(winner, a1); // +20
    await close(demo, d1); // +200: the best result, but play money
    await close(loser, b1); // closes at the ask 1.10216: −108
    await server.tick('EURUSD', '1.09958');
    await close(winner, a2); // −5
    await server.tick('GBPUSD', '1.29900');
    await close(winner, a3); // closes at the ask 1.29912: +17.6

    const winnerUser = await userOf(winner);
    const loserUser = await userOf(loser);
    const answer = await board();
    expect(answer).toMatchObject({ status: 200, code: 1, msg: 'Success' });
    expect(answer.data).toEqual([
      {
        user: `tr***@${winnerUser.email!.split('@')[1]}`,
        uid: winnerUser.uid,
        // 20 − 5 + 17.6 over margins 740.016; the old loss joins the totals: 22.6 over 850.024.
        three_week_profit: 32.6,
        three_week_rate: 4.41,
        three_week_win: 66.67,
        total_rate: 2.66,
        total_trade_num: 4,
        multiple: 100,
        code: 'EURUSD',
      },
      {
        user: `tr***@${loserUser.email!.split('@')[1]}`,
        uid: loserUser.uid,
        three_week_profit: -108,
        three_week_rate: -39.27,
        three_week_win: 0,
        total_rate: -39.27,
        total_trade_num: 1,
        multiple: 200,
        code: 'EURUSD',
      },
    ]);
    const text = JSON.stringify(answer.data);
    expect(text).not.toContain(winnerUser.email!);
    expect(text).not.toContain(loserUser.email!);
  });
});
