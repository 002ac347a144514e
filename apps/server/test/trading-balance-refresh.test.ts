import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallets } from '../src/db/schema.js';
import { FULL_REFRESH_EVERY } from '../src/modules/trading/engine.js';
import { WalletService } from '../src/modules/wallet/service.js';
import { DB_KINDS } from './harness.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

/**
 * Money moved outside the order path (a deposit, a withdrawal) reaches the risk engine's book by its
 * balance looks: each reads only the wallets changed since the one before, and every FULL_REFRESH_EVERY
 * looks one reads every watched wallet, for a change stamped too long before it was seen.
 */
describe.each(DB_KINDS)('balances the engine did not move, on %s', (kind) => {
  let server: TradingServer;
  beforeAll(async () => {
    server = await startTradingServer(kind);
    await server.tick('EURUSD', '1.10000');
  });
  afterAll(() => server.close());

  const holder = async () => {
    const trader = await server.trader({ balance: '1000' });
    const placed = await server.submit(trader, {
      type: 1,
      cont: '0.1',
      forex_id: server.instrumentId('EURUSD'),
      status: 1,
      multiple: 100,
    });
    expect(placed.code).toBe(1);
    await server.engine.settled();
    return trader;
  };
  const deposit = (userId: number, amount: string) =>
    server.database.db.transaction((tx) => new WalletService(server.database.db).post(tx, { userId, amount, type: 'deposit' }));

  const lookTwice = async () => {
    await server.engine.refreshBalances();
    await server.engine.refreshBalances();
    await server.engine.settled();
  };
  const stampedLongAgo = (userId: number) =>
    server.database.db
      .update(wallets)
      .set({ updatedAt: sql`now() - interval '10 minutes'` })
      .where(eq(wallets.userId, userId));

  it('sees a deposit at its next look, which reads only the wallets changed since the last', async () => {
    const [moved, still] = [await holder(), await holder()];
    await server.engine.refreshBalances();
    const before = server.engine.watch.balanceOf(moved.userId)!;
    const wallet = new WalletService(server.database.db);
    const { next } = await wallet.changedSince(null);
    await stampedLongAgo(still.userId);
    await deposit(moved.userId, '250');
    const { changed } = await wallet.changedSince(next);
    expect(changed.has(moved.userId)).toBe(true);
    expect(changed.has(still.userId)).toBe(false);

    // A wallet ahead of the version the engine watches is read again if it still is at the look after.
    await lookTwice();
    expect(Number(server.engine.watch.balanceOf(moved.userId))).toBe(Number(before) + 250);
    expect(server.engine.watch.balanceOf(still.userId)).toBe((await server.wallet(still.userId)).balance);
  });

  it('catches at a full look a change stamped before the incremental looks reach', async () => {
    const trader = await holder();
    const wallet = new WalletService(server.database.db);
    const { next } = await wallet.changedSince(null);
    const before = server.engine.watch.balanceOf(trader.userId)!;
    await deposit(trader.userId, '100');
    // As if its transaction had begun ten minutes before it committed: no incremental look sees it.
    await stampedLongAgo(trader.userId);
    expect((await wallet.changedSince(next)).changed.has(trader.userId)).toBe(false);
    // Every FULL_REFRESH_EVERY looks one reads every watched wallet (the engine's own timer may add looks).
    for (let look = 0; look <= FULL_REFRESH_EVERY; look++) await server.engine.refreshBalances();
    await lookTwice();
    expect(Number(server.engine.watch.balanceOf(trader.userId))).toBe(Number(before) + 100);
  });
});
