import { ApiPath, dec } from '@pipwise/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { copies, equitySnapshots, ledgerEntries } from '../src/db/schema.js';
import type { CopyService } from '../src/modules/copy/service.js';
import { createTrader, createTraders, expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import { copyServiceOf, startTradingServer, type TradingServer } from './trading-helpers.js';

/**
 * Issue 20: the copy module's daily jobs on the manual clock. Every account's equity at 00:00 UTC
 * (balance + floating P&L) once a day, a day taken late under its own day, never twice; the monthly
 * fee on the 1st, once, on the profit above the high-water mark.
 */
describe.each(DB_KINDS)('copy trading’s daily jobs on %s', (kind) => {
  let server: TradingServer;
  let copy: CopyService;
  beforeAll(async () => {
    server = await startTradingServer(kind);
    copy = copyServiceOf(server);
    await server.tick('BTCUSD', '60000');
  }, 120_000);
  afterAll(() => server.close());

  it('writes every account’s equity once a day, floating P&L included', async () => {
    const db = server.database.db;
    const [idle, holder] = await createTraders(db, ['1234.56', '50000']);
    const opened = await server.submit(holder!, {
      type: 1,
      cont: '0.1',
      forex_id: server.instrumentId('BTCUSD'),
      status: 1,
      multiple: 20,
    });
    expect(opened.code).toBe(1);
    await server.tick('BTCUSD', '61000');
    // Midnight comes (the start already wrote today's, before these accounts existed).
    const today = server.manualClock.now().toISOString().slice(0, 10);
    server.manualClock.set(Date.parse(`${today}T00:00:30Z`) + 86_400_000);
    const day = server.manualClock.now().toISOString().slice(0, 10);
    await copy.snapshots.takeIfDue();
    const equityOf = async (userId: number, on: string) =>
      (
        await db
          .select()
          .from(equitySnapshots)
          .where(and(eq(equitySnapshots.userId, userId), eq(equitySnapshots.day, on)))
      )[0]?.equity;
    expect(await equityOf(idle!.userId, day)).toBe('1234.56');
    const figures = await copy.core.deps.trading.figures(holder!.userId);
    expect(dec(figures.floating).gt(0)).toBe(true);
    expect(await equityOf(holder!.userId, day)).toBe(figures.equity.toDecimalPlaces(2).toFixed(2));

    // The same day again writes nothing more; the next day, taken at 07:00 (the leader was down at midnight), is its own.
    await copy.snapshots.takeIfDue();
    const count = async () => Number(rowsOf(await db.execute(sql`SELECT count(*) AS n FROM ${equitySnapshots}`))[0]!.n);
    const once = await count();
    await copy.snapshots.take(day);
    expect(await count()).toBe(once);
    server.manualClock.set(Date.parse(`${day}T07:00:00Z`) + 86_400_000);
    await copy.snapshots.takeIfDue();
    const next = server.manualClock.now().toISOString().slice(0, 10);
    expect(await equityOf(idle!.userId, next)).toBe('1234.56');
  });

  it('settles a copy’s fee on the 1st, once, on the profit above its high-water mark', async () => {
    const db = server.database.db;
    const provider = await createTrader(db, { balance: '100000' });
    const became = await server.call<{ provider_id: number }>('POST', ApiPath.providerBecome, {
      token: provider.token,
      body: { nickname: `Monthly ${kind}`, fee_pct: '25' },
    });
    const [follower] = await createTraders(db, ['5000']);
    const made = await copy.follows.follow(follower!.userId, {
      provider_id: became.data.provider_id,
      amount: '1000',
      stop_loss_pct: 50,
    });
    // A realised result as the copier books it, 400.123456 above a mark of 100: the fee is 25 % of 300.123456, down to the cent.
    await db.update(copies).set({ realised: '400.123456', highWaterMark: '100' }).where(eq(copies.id, made.id));
    const now = server.manualClock.now();
    await copy.fees.settleDue();
    const feeRows = () =>
      db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.refType, 'copy'), eq(ledgerEntries.refId, made.id)));
    expect(await feeRows()).toHaveLength(0);
    server.manualClock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 1)));
    await copy.fees.settleDue();
    await copy.fees.settleDue();
    const rows = await feeRows();
    expect(rows.map((row) => [row.userId, row.type, row.amount]).sort()).toEqual(
      [
        [follower!.userId, 'copy_fee', '-75.03'],
        [provider.userId, 'copy_fee_income', '75.03'],
      ].sort(),
    );
    const [settled] = await db.select().from(copies).where(eq(copies.id, made.id));
    expect(settled).toMatchObject({ feesPaid: '75.03', highWaterMark: '400.123456' });
    await expectLedgerInvariants(db);
  });
});
