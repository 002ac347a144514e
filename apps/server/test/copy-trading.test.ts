import { ApiPath, Dec, dec, OrderStatus, type CopyPreviewView, type MyProviderView } from '@pipwise/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { copies, copyActivity, copyOrders, ledgerEntries, orders } from '../src/db/schema.js';
import type { CopyService } from '../src/modules/copy/service.js';
import { createTrader, createTraders, expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS } from './harness.js';
import { copyServiceOf, startTradingServer, type TradingServer } from './trading-helpers.js';

const FOLLOWERS = 1_000;
const OPEN_BID = '60000';
/** Amounts 500 to 10,000 in steps of 500: 500 sizes below BTCUSD's 0.01 lot against the provider's 100,000. */
const amountOf = (i: number) => 500 + (i % 20) * 500;

/**
 * Issue 20: one provider, a thousand followers with different amounts. The provider opens, edits its
 * take-profit and stop-loss, and closes through the API; every follower's copy has the sized lots, the
 * mirrored stops, closes with the provider, and every balance is its ledger. Skips carry their reason.
 */
describe.each(DB_KINDS)('copy trading on %s', (kind) => {
  let server: TradingServer;
  let copy: CopyService;
  let provider: Trader;
  let providerId: number;

  beforeAll(async () => {
    server = await startTradingServer(kind);
    copy = copyServiceOf(server);
    await server.tick('BTCUSD', OPEN_BID);
    provider = await createTrader(server.database.db, { balance: '100000' });
    const became = await server.call<MyProviderView>('POST', ApiPath.providerBecome, {
      token: provider.token,
      body: { nickname: `Trend ${kind}`, bio: 'Bitcoin swings', fee_pct: '20' },
    });
    expect(became.code).toBe(1);
    providerId = became.data.provider_id;
  }, 120_000);
  afterAll(() => server.close());

  it('copies a fill to a thousand followers at their sizes, mirrors its stops and closes with it', async () => {
    const db = server.database.db;
    const followers = await createTraders(
      db,
      Array.from({ length: FOLLOWERS }, (_, i) => String(amountOf(i) * 2)),
    );
    for (const [i, follower] of followers.entries()) {
      await copy.follows.follow(follower.userId, { provider_id: providerId, amount: String(amountOf(i)), stop_loss_pct: 50 });
    }

    const opened = await server.submit(provider, {
      type: 1,
      cont: '1',
      forex_id: server.instrumentId('BTCUSD'),
      status: 1,
      multiple: 20,
      target_profit_price: '70000',
      stop_loss_price: '50000',
    });
    expect(opened.code).toBe(1);
    const providerOrderId = (opened.data as { Id: number }).Id;
    await copy.copier.schedule(providerId);

    const equity = (await copy.core.deps.trading.figures(provider.userId)).equity;
    const links = await db.select().from(copyOrders).where(eq(copyOrders.providerOrderId, providerOrderId));
    expect(links).toHaveLength(FOLLOWERS);
    const copyRows = await db.select().from(copies).where(eq(copies.providerId, providerId));
    const followerOf = new Map(copyRows.map((row) => [row.id, row.followerId]));
    const amountByFollower = new Map(followers.map((follower, i) => [follower.userId, amountOf(i)]));
    const followerOrders = new Map(
      (
        await db
          .select()
          .from(orders)
          .where(sql`${orders.userId} IN ${followers.map((f) => f.userId)}`)
      ).map((o) => [o.userId, o]),
    );
    let copied = 0;
    for (const link of links) {
      const followerId = followerOf.get(link.copyId)!;
      // Provider lots × amount ÷ provider equity, down onto the 0.01 grid: worked out here apart from the copier.
      const lots = dec(amountByFollower.get(followerId)!).div(equity).times(100).floor().div(100);
      if (lots.lt('0.01')) {
        expect(link).toMatchObject({ status: 'skipped', skipReason: 'too_small', followerOrderId: null });
        expect(followerOrders.has(followerId)).toBe(false);
        continue;
      }
      copied++;
      const order = followerOrders.get(followerId)!;
      expect(link).toMatchObject({ status: 'open', followerOrderId: order.id });
      expect(dec(order.lots).eq(lots)).toBe(true);
      expect(order).toMatchObject({ side: 1, leverage: 20, status: OrderStatus.holding });
      expect(dec(order.takeProfit!).eq(70000) && dec(order.stopLoss!).eq(50000)).toBe(true);
    }
    expect(copied).toBe(FOLLOWERS - FOLLOWERS / 20);
    const skipped = await db.select().from(copyActivity).where(eq(copyActivity.kind, 'skipped'));
    expect(skipped.filter((line) => line.skipReason === 'too_small')).toHaveLength(FOLLOWERS / 20);

    // A second run (a restart, a late event) copies nothing twice.
    await copy.copier.reconcileAll();
    expect(await db.select().from(copyOrders).where(eq(copyOrders.providerOrderId, providerOrderId))).toHaveLength(FOLLOWERS);
    const [counted] = rowsOf(await db.execute(sql`SELECT count(*)::int AS n FROM ${orders} WHERE user_id <> ${provider.userId}`));
    expect(counted!.n).toBe(copied);

    const edited = await server.call('POST', ApiPath.setStopPrice, {
      token: provider.token,
      body: { id: providerOrderId, target_profit_price: '72000', stop_loss_price: '52000' },
    });
    expect(edited.code).toBe(1);
    await copy.copier.schedule(providerId);
    for (const order of await db
      .select()
      .from(orders)
      .where(sql`${orders.userId} IN ${followers.map((f) => f.userId)}`)) {
      expect(dec(order.takeProfit!).eq(72000) && dec(order.stopLoss!).eq(52000)).toBe(true);
    }

    await server.tick('BTCUSD', '61000');
    const closed = await server.call('POST', ApiPath.closeOrder, { token: provider.token, body: { id: providerOrderId } });
    expect(closed.code).toBe(1);
    await copy.copier.schedule(providerId);
    const after = await db
      .select()
      .from(orders)
      .where(sql`${orders.userId} IN ${followers.map((f) => f.userId)}`);
    expect(after).toHaveLength(copied);
    for (const order of after) {
      expect(order.status).toBe(OrderStatus.history);
      expect(dec(order.closePrice!).eq(61000)).toBe(true);
    }
    const openLinks = await db.select().from(copyOrders).where(eq(copyOrders.status, 'open'));
    expect(openLinks).toHaveLength(0);
    // Each copy's realised result is its position's profit net of its fee, once.
    const byFollower = new Map(after.map((order) => [order.userId, order]));
    for (const row of await db.select().from(copies).where(eq(copies.providerId, providerId))) {
      const order = byFollower.get(row.followerId);
      const expected = order ? dec(order.profit!).minus(order.fee) : new Dec(0);
      expect(dec(row.realised).eq(expected)).toBe(true);
    }
    await expectLedgerInvariants(db);
  }, 600_000);

  it('stops a copy at its stop-loss, closing what it holds, and charges the fee on profit above the mark', async () => {
    const db = server.database.db;
    const [cautious, other] = await createTraders(db, ['20000', '20000']);
    const careful = await copy.follows.follow(cautious!.userId, { provider_id: providerId, amount: '10000', stop_loss_pct: 10 });
    const patient = await copy.follows.follow(other!.userId, { provider_id: providerId, amount: '10000', stop_loss_pct: 90 });
    const opened = await server.submit(provider, {
      type: 1,
      cont: '2',
      forex_id: server.instrumentId('BTCUSD'),
      status: 1,
      multiple: 20,
    });
    const providerOrderId = (opened.data as { Id: number }).Id;
    await copy.copier.schedule(providerId);
    // 0.2 lots each lose 0.2 × 6,000 = 1,200 at 55,000 (past 10 % of 10,000, short of 90 %).
    await server.tick('BTCUSD', '55000');
    await copy.copier.checkStopLosses();
    const [stopped] = await db.select().from(copies).where(eq(copies.id, careful.id));
    expect(stopped).toMatchObject({ status: 'stopped', stopReason: 'stop_loss' });
    const [carefulOrder] = await db.select().from(orders).where(eq(orders.userId, cautious!.userId));
    expect(carefulOrder!.status).toBe(OrderStatus.history);
    expect(dec(carefulOrder!.closePrice!).eq(55000)).toBe(true);
    const [patientOrder] = await db.select().from(orders).where(eq(orders.userId, other!.userId));
    expect(patientOrder!.status).toBe(OrderStatus.holding);

    // The provider wins it back and more; the patient copy closes with a profit and pays 20 % of it at unfollow.
    await server.tick('BTCUSD', '65000');
    await server.call('POST', ApiPath.closeOrder, { token: provider.token, body: { id: providerOrderId } });
    await copy.copier.schedule(providerId);
    const [won] = await db.select().from(copies).where(eq(copies.id, patient.id));
    expect(dec(won!.realised).gt(0)).toBe(true);
    await copy.follows.unfollow(other!.userId, { copy_id: patient.id, mode: 'close_all' });
    const [settled] = await db.select().from(copies).where(eq(copies.id, patient.id));
    const fee = dec(won!.realised).times(20).div(100).toDecimalPlaces(2, Dec.ROUND_DOWN);
    expect(dec(settled!.feesPaid).eq(fee)).toBe(true);
    expect(dec(settled!.highWaterMark).eq(won!.realised)).toBe(true);
    // A second settlement of the same profit charges nothing.
    await copy.fees.settle(patient.id);
    const [again] = await db.select().from(copies).where(eq(copies.id, patient.id));
    expect(dec(again!.feesPaid).eq(fee)).toBe(true);
    await expectLedgerInvariants(db);
  }, 300_000);

  it('charges each copy the margin and fee its preview showed', async () => {
    const db = server.database.db;
    const leader = await createTrader(db, { balance: '100000' });
    const made = await server.call<MyProviderView>('POST', ApiPath.providerBecome, {
      token: leader.token,
      body: { nickname: `Previewed ${kind}` },
    });
    const providerOfPreview = made.data.provider_id;
    // Prices whose margins run past the cent, one of them converted from yen.
    await server.tick('BTCUSD', '60123.37');
    await server.tick('USDJPY', '154.512');
    await server.tick('EURJPY', '179.537');
    // The leader copies a mentor too: that copied position is not the leader's to be copied, nor previewed.
    const mentor = await createTrader(db, { balance: '100000' });
    const mentorship = await server.call<MyProviderView>('POST', ApiPath.providerBecome, {
      token: mentor.token,
      body: { nickname: `Mentor ${kind}` },
    });
    await copy.follows.follow(leader.userId, { provider_id: mentorship.data.provider_id, amount: '50000', stop_loss_pct: 50 });
    expect(
      (await server.submit(mentor, { type: 1, cont: '1', forex_id: server.instrumentId('BTCUSD'), status: 1, multiple: 20 }))
        .code,
    ).toBe(1);
    await copy.copier.schedule(mentorship.data.provider_id);
    expect(await db.select().from(orders).where(eq(orders.userId, leader.userId))).toHaveLength(1);
    for (const body of [
      { type: 1, cont: '1.37', forex_id: server.instrumentId('BTCUSD'), status: 1, multiple: 20 },
      { type: 2, cont: '3.3', forex_id: server.instrumentId('EURJPY'), status: 1, multiple: 200 },
    ]) {
      expect((await server.submit(leader, body)).code).toBe(1);
    }
    const follower = await createTrader(db, { balance: '30000' });
    const terms = { provider_id: providerOfPreview, amount: '12345.67', stop_loss_pct: 50 };
    const preview = await server.call<CopyPreviewView>(
      'GET',
      `${ApiPath.copyPreview}?provider_id=${terms.provider_id}&amount=${terms.amount}&stop_loss_pct=${terms.stop_loss_pct}`,
      { token: follower.token },
    );
    expect(preview.code).toBe(1);
    expect(preview.data.lines.map((line) => line.skip_reason)).toEqual([null, null]);

    // A new copy opens the provider's open positions at once, at the follower's price now: as previewed.
    const before = await server.wallet(follower.userId);
    expect((await server.call('POST', ApiPath.copyFollow, { token: follower.token, body: terms })).code).toBe(1);
    await copy.copier.schedule(providerOfPreview);

    const opened = await db.select().from(orders).where(eq(orders.userId, follower.userId)).orderBy(orders.id);
    expect(opened).toHaveLength(2);
    const fees = await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, follower.userId), eq(ledgerEntries.type, 'trade_fee')));
    for (const [index, line] of preview.data.lines.entries()) {
      const order = opened[index]!;
      expect([dec(order.lots).toFixed(), dec(order.margin).toFixed(), dec(order.fee).toFixed()]).toEqual(
        [line.lots, line.margin, line.fee].map(String),
      );
      const charged = fees.find((entry) => entry.refId === order.id)!;
      expect(dec(charged.amount).negated().toFixed()).toBe(String(line.fee));
    }
    const previewed = (figure: 'margin' | 'fee') => preview.data.lines.reduce((sum, line) => sum.plus(line[figure]), dec(0));
    const after = await server.wallet(follower.userId);
    expect(dec(before.balance).minus(after.balance).toFixed()).toBe(previewed('fee').toFixed());
    const figures = await copy.core.deps.trading.figures(follower.userId);
    expect(figures.usedMargin.toFixed()).toBe(previewed('margin').toFixed());
    await expectLedgerInvariants(db);
  }, 120_000);

  it('a new copy opens what the provider already holds; a resumed copy only what opened since', async () => {
    const db = server.database.db;
    const leader = await createTrader(db, { balance: '100000' });
    const made = await server.call<MyProviderView>('POST', ApiPath.providerBecome, {
      token: leader.token,
      body: { nickname: `Holding ${kind}` },
    });
    const open = async () => {
      const placed = await server.submit(leader, {
        type: 1,
        cont: '1',
        forex_id: server.instrumentId('BTCUSD'),
        status: 1,
        multiple: 20,
      });
      expect(placed.code).toBe(1);
      return (placed.data as { Id: number }).Id;
    };
    const copiedBy = async (copyId: number) =>
      (await db.select().from(copyOrders).where(eq(copyOrders.copyId, copyId)))
        .map((link) => link.providerOrderId)
        .sort((a, b) => a - b);
    const held = await open();
    server.manualClock.advance(3_600_000);
    const follower = await createTrader(db, { balance: '50000' });
    const followed = await copy.follows.follow(follower.userId, {
      provider_id: made.data.provider_id,
      amount: '10000',
      stop_loss_pct: 50,
    });
    // Opened on the follow itself, not by a later sweep: what the follow set going is all that runs here.
    await copy.copier.idle();
    expect(await copiedBy(followed.id)).toEqual([held]);

    await copy.follows.pause(follower.userId, { copy_id: followed.id, paused: 1 });
    await open();
    await copy.copier.schedule(made.data.provider_id);
    server.manualClock.advance(60_000);
    await copy.follows.pause(follower.userId, { copy_id: followed.id, paused: 0 });
    const afterResume = await open();
    await copy.copier.schedule(made.data.provider_id);
    expect(await copiedBy(followed.id)).toEqual([held, afterResume]);
    expect(await db.select().from(orders).where(eq(orders.userId, follower.userId))).toHaveLength(2);
    await expectLedgerInvariants(db);
  }, 120_000);

  it('refuses what a follower may not do, in words, and changes nothing', async () => {
    const db = server.database.db;
    const [follower, stranger] = await createTraders(db, ['1000', '1000']);
    const demo = await createTrader(db, { balance: '100000', isDemo: true });
    const follow = (token: string, body: Record<string, unknown>) => server.call('POST', ApiPath.copyFollow, { token, body });
    expect(await follow(follower!.token, { provider_id: providerId, amount: '20', stop_loss_pct: '30' })).toMatchObject({
      code: 1001,
      msg: 'The amount to copy with must be at least 50.00 USD',
    });
    expect(await follow(follower!.token, { provider_id: providerId, amount: '5000', stop_loss_pct: '30' })).toMatchObject({
      code: 1001,
      msg: 'The amount to copy with cannot be more than your free margin of 1000.00 USD',
    });
    expect(await follow(follower!.token, { provider_id: providerId, amount: '100', stop_loss_pct: '95' })).toMatchObject({
      code: 1001,
    });
    expect(await follow(provider.token, { provider_id: providerId, amount: '100', stop_loss_pct: '30' })).toMatchObject({
      code: 1002,
    });
    expect(
      await server.call('POST', ApiPath.copyFollow, { body: { provider_id: providerId, amount: '100', stop_loss_pct: '30' } }),
    ).toMatchObject({
      code: 999,
    });
    const made = await follow(follower!.token, { provider_id: providerId, amount: '100', stop_loss_pct: '30' });
    expect(made.code).toBe(1);
    expect(await follow(follower!.token, { provider_id: providerId, amount: '100', stop_loss_pct: '30' })).toMatchObject({
      code: 1009,
    });
    // Another user's copy is not found, whatever is asked of it.
    const copyId = (made.data as { id: number }).id;
    for (const [path, body] of [
      [ApiPath.copyEdit, { copy_id: copyId, amount: '60' }],
      [ApiPath.copyPause, { copy_id: copyId, paused: 1 }],
      [ApiPath.copyUnfollow, { copy_id: copyId, mode: 'keep' }],
    ] as const) {
      expect(await server.call('POST', path, { token: stranger!.token, body })).toMatchObject({
        code: 1004,
        msg: 'Choose one of your copies',
      });
    }
    expect(await server.call('GET', `${ApiPath.copyActivity}?copy_id=${copyId}`, { token: stranger!.token })).toMatchObject({
      code: 1004,
    });
    const [still] = await db.select().from(copies).where(eq(copies.id, copyId));
    expect(still).toMatchObject({ status: 'active', amount: '100.00' });

    // A demo provider may be copied on demo money, never with real money.
    const demoProvider = await server.call<MyProviderView>('POST', ApiPath.providerBecome, {
      token: demo.token,
      body: { nickname: `Demo ${kind}` },
    });
    expect(demoProvider.code).toBe(1);
    expect(
      await follow(stranger!.token, { provider_id: demoProvider.data.provider_id, amount: '100', stop_loss_pct: '30' }),
    ).toMatchObject({
      code: 1003,
    });
    expect(
      await server.call('POST', ApiPath.providerBecome, {
        token: stranger!.token,
        body: { nickname: `demo ${kind}`.toUpperCase() },
      }),
    ).toMatchObject({ code: 1009, msg: 'This nickname is taken; choose another' });
  }, 120_000);

  it('a provider who stops being copied leaves every follower its positions', async () => {
    const db = server.database.db;
    const leader = await createTrader(db, { balance: '100000' });
    const made = await server.call<MyProviderView>('POST', ApiPath.providerBecome, {
      token: leader.token,
      body: { nickname: `Leaving ${kind}` },
    });
    const followers = await createTraders(db, ['20000', '20000', '20000']);
    for (const follower of followers) {
      await copy.follows.follow(follower.userId, { provider_id: made.data.provider_id, amount: '10000', stop_loss_pct: 50 });
    }
    const opened = await server.submit(leader, {
      type: 2,
      cont: '1',
      forex_id: server.instrumentId('BTCUSD'),
      status: 1,
      multiple: 20,
    });
    await copy.copier.schedule(made.data.provider_id);
    const held = () =>
      db
        .select()
        .from(orders)
        .where(sql`${orders.userId} IN ${followers.map((f) => f.userId)}`);
    expect((await held()).map((order) => order.status)).toEqual([1, 1, 1]);

    expect((await server.call('POST', ApiPath.providerStop, { token: leader.token })).code).toBe(1);
    const stopped = await db.select().from(copies).where(eq(copies.providerId, made.data.provider_id));
    expect(stopped.map((row) => [row.status, row.stopReason])).toEqual(Array(3).fill(['stopped', 'provider_stopped']));
    await server.call('POST', ApiPath.closeOrder, { token: leader.token, body: { id: (opened.data as { Id: number }).Id } });
    await copy.copier.reconcileAll();
    expect((await held()).map((order) => order.status)).toEqual([1, 1, 1]);
    const links = await db
      .select()
      .from(copyOrders)
      .where(sql`${copyOrders.copyId} IN ${stopped.map((row) => row.id)}`);
    expect(links.map((link) => link.status)).toEqual(['detached', 'detached', 'detached']);
  }, 120_000);
});
