import {
  ApiPath,
  OrderStatus,
  type CopyAdminView,
  type CopyFeeAdminView,
  type CopyProviderAdminView,
  type MyProviderView,
  type OperatorPageView,
  type ProviderEntryView,
} from '@pipwise/domain';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, copies, copyOrders, copyProviders, orders, users } from '../src/db/schema.js';
import type { CopyService } from '../src/modules/copy/service.js';
import { createTrader, createTraders, expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS } from './harness.js';
import { auditRows } from './operators-helpers.js';
import { copyServiceOf, startTradingServer, type TradingServer } from './trading-helpers.js';

const PROVIDERS = '/admin/api/copy/providers';
/**
 * Issue 20, item 5: the back office of copy trading. Hiding takes a provider off the public list,
 * suspending stops every copy (reason `provider_suspended`) and leaves the followers their positions,
 * each change audited; bad input answers a clear envelope and changes nothing.
 */
describe.each(DB_KINDS)('copy trading back office on %s', (kind) => {
  let server: TradingServer;
  let copy: CopyService;
  let provider: Trader;
  let providerId: number;
  let automatedId: number;
  let compliance: Record<string, string>;
  let content: Record<string, string>;
  let finance: Record<string, string>;
  let support: Record<string, string>;

  const uidOf = async (userId: number) =>
    (await server.database.db.select({ uid: users.uid }).from(users).where(eq(users.id, userId)))[0]!.uid;
  const providerRow = async (id: number) =>
    (await server.database.db.select().from(copyProviders).where(eq(copyProviders.id, id)))[0]!;
  const openBtc = async (trader: Trader) => {
    const opened = await server.submit(trader, {
      type: 1,
      cont: '1',
      forex_id: server.instrumentId('BTCUSD'),
      status: 1,
      multiple: 20,
    });
    expect(opened.code).toBe(1);
    return (opened.data as { Id: number }).Id;
  };
  const listed = async () => {
    const list = await server.call<ProviderEntryView[]>('GET', ApiPath.followList);
    expect(list.code).toBe(1);
    return list.data.map((entry) => entry.provider_id);
  };

  beforeAll(async () => {
    server = await startTradingServer(kind);
    copy = copyServiceOf(server);
    await server.tick('BTCUSD', '60000');
    provider = await createTrader(server.database.db, { balance: '100000' });
    const became = await server.call<MyProviderView>('POST', ApiPath.providerBecome, {
      token: provider.token,
      body: { nickname: `Swing ${kind}`, bio: 'Bitcoin swings', fee_pct: '20' },
    });
    expect(became.code).toBe(1);
    providerId = became.data.provider_id;
    const robot = await createTrader(server.database.db, { balance: '100000' });
    automatedId = (
      await copy.becomeProvider(robot.userId, { nickname: `Robot ${kind}`, bio: '', fee_pct: 0 }, { automated: true })
    ).provider_id;
    compliance = await server.operatorHeaders('cora', 'compliance');
    content = await server.operatorHeaders('cole', 'content');
    finance = await server.operatorHeaders('fina', 'finance');
    support = await server.operatorHeaders('sam', 'support');
  }, 120_000);
  afterAll(() => server.close());

  it('lists providers with who they are, their state and figures, filtered by status and searched by nickname or uid', async () => {
    const all = await server.call<OperatorPageView<CopyProviderAdminView>>('GET', PROVIDERS, { headers: support });
    expect(all.code).toBe(1);
    expect(all.data.total).toBe(2);
    const row = all.data.data.find((entry) => entry.id === providerId)!;
    expect(row).toMatchObject({
      nickname: `Swing ${kind}`,
      uid: await uidOf(provider.userId),
      status: 'active',
      hidden: false,
      automated: false,
      fee_pct: 20,
      copiers: 0,
      copied_amount: 0,
      fees_earned: 0,
      max_drawdown: 0,
      risk_score: null,
      return_12m: null,
    });
    expect(all.data.data.find((entry) => entry.id === automatedId)!.automated).toBe(true);

    const byName = await server.call<OperatorPageView<CopyProviderAdminView>>('GET', `${PROVIDERS}?q=swing`, {
      headers: support,
    });
    expect(byName.data.data.map((entry) => entry.id)).toEqual([providerId]);
    const byUid = await server.call<OperatorPageView<CopyProviderAdminView>>(
      'GET',
      `${PROVIDERS}?q=${await uidOf(provider.userId)}`,
      { headers: support },
    );
    expect(byUid.data.data.map((entry) => entry.id)).toEqual([providerId]);
    const suspended = await server.call<OperatorPageView<CopyProviderAdminView>>('GET', `${PROVIDERS}?status=suspended`, {
      headers: support,
    });
    expect(suspended.data.total).toBe(0);
    for (const bad of ['status=gone', 'page=0', 'page_size=101', 'status=__proto__', `q=${'x'.repeat(101)}`]) {
      const answer = await server.call('GET', `${PROVIDERS}?${bad}`, { headers: support });
      expect(answer.code, bad).toBe(1001);
      expect(answer.msg, bad).not.toMatch(/zod|undefined|\[object/i);
    }
  });

  it('hides a provider from the public list and its profile, audited, and shows it again', async () => {
    expect(await listed()).toContain(automatedId);
    const hidden = await server.call<CopyProviderAdminView>('POST', `${PROVIDERS}/${automatedId}/hide`, { headers: content });
    expect(hidden.code).toBe(1);
    expect(hidden.data).toMatchObject({ id: automatedId, hidden: true, status: 'active' });
    expect(await listed()).not.toContain(automatedId);
    const profile = await server.call('GET', `${ApiPath.copyProvider}?provider_id=${automatedId}`);
    expect(profile.code).toBe(1004);

    // Twice is a stale button, said so; support may read but not hide.
    expect((await server.call('POST', `${PROVIDERS}/${automatedId}/hide`, { headers: content })).code).toBe(1009);
    expect((await server.call('POST', `${PROVIDERS}/${automatedId}/hide`, { headers: support })).code).toBe(1003);
    const [audited, ...more] = await auditRows(server, 'copy_provider.hide');
    expect(more).toHaveLength(0);
    expect(audited).toMatchObject({
      actor: 'operator:cole@ops.test',
      targetType: 'copy_provider',
      targetId: String(automatedId),
      before: { hidden: false, status: 'active' },
      after: { hidden: true, status: 'active' },
    });

    expect((await server.call('POST', `${PROVIDERS}/${automatedId}/unhide`, { headers: content })).code).toBe(1);
    expect(await listed()).toContain(automatedId);
    expect(await auditRows(server, 'copy_provider.unhide')).toHaveLength(1);
  });

  it('lists the fee settlements with follower, provider, copy and amount', async () => {
    const [payer] = await createTraders(server.database.db, ['20000']);
    const paying = await copy.follows.follow(payer!.userId, { provider_id: providerId, amount: '10000', stop_loss_pct: 50 });
    const position = await openBtc(provider);
    await copy.copier.schedule(providerId);
    await server.tick('BTCUSD', '61000');
    expect((await server.call('POST', ApiPath.closeOrder, { token: provider.token, body: { id: position } })).code).toBe(1);
    await copy.copier.schedule(providerId);
    await copy.follows.unfollow(payer!.userId, { copy_id: paying.id, mode: 'close_all' });
    const [settled] = await server.database.db.select().from(copies).where(eq(copies.id, paying.id));
    expect(Number(settled!.feesPaid)).toBeGreaterThan(0);

    const fees = await server.call<OperatorPageView<CopyFeeAdminView>>('GET', '/admin/api/copy/fees', { headers: finance });
    expect(fees.code).toBe(1);
    expect(fees.data.total).toBe(1);
    expect(fees.data.data[0]).toMatchObject({
      copy_id: paying.id,
      follower_uid: await uidOf(payer!.userId),
      provider_id: providerId,
      provider_uid: await uidOf(provider.userId),
      nickname: `Swing ${kind}`,
      amount: Number(settled!.feesPaid),
    });
    const ofOther = await server.call<OperatorPageView<CopyFeeAdminView>>(
      'GET',
      `/admin/api/copy/fees?provider_id=${automatedId}`,
      {
        headers: finance,
      },
    );
    expect(ofOther.data.total).toBe(0);
    const ofPayer = await server.call<OperatorPageView<CopyFeeAdminView>>(
      'GET',
      `/admin/api/copy/fees?uid=${await uidOf(payer!.userId)}`,
      { headers: support },
    );
    expect(ofPayer.data.total).toBe(1);
    for (const bad of ['provider_id=abc', 'uid=-1', 'provider_id=0x10']) {
      expect((await server.call('GET', `/admin/api/copy/fees?${bad}`, { headers: finance })).code, bad).toBe(1001);
    }
    const row = (
      await server.call<OperatorPageView<CopyProviderAdminView>>('GET', PROVIDERS, { headers: finance })
    ).data.data.find((entry) => entry.id === providerId)!;
    expect(row.fees_earned).toBe(Number(settled!.feesPaid));
  });

  it('refuses bad suspensions with a clear message and changes nothing', async () => {
    const before = await providerRow(providerId);
    const attempts: [string, Record<string, unknown> | string | undefined, number][] = [
      [`${PROVIDERS}/${providerId}/suspend`, {}, 1001],
      [`${PROVIDERS}/${providerId}/suspend`, { reason: '   ' }, 1001],
      [`${PROVIDERS}/${providerId}/suspend`, { reason: 'fraud\u0000' }, 1001],
      [`${PROVIDERS}/${providerId}/suspend`, { reason: 'r\u202eevil' }, 1001],
      [`${PROVIDERS}/${providerId}/suspend`, { reason: 'x'.repeat(201) }, 1001],
      [`${PROVIDERS}/${providerId}/suspend`, { reason: 42 }, 1001],
      [`${PROVIDERS}/${providerId}/suspend`, '{"__proto__":{"reason":"polluted"}}', 1001],
      [`${PROVIDERS}/987654/suspend`, { reason: 'nobody' }, 1004],
      [`${PROVIDERS}/abc/suspend`, { reason: 'nobody' }, 1004],
      [`${PROVIDERS}/__proto__/suspend`, { reason: 'nobody' }, 1004],
      [`${PROVIDERS}/987654/hide`, undefined, 1004],
      [`${PROVIDERS}/${providerId}/unsuspend`, undefined, 1009],
      [`${PROVIDERS}/${providerId}/unhide`, undefined, 1009],
    ];
    for (const [path, body, code] of attempts) {
      const operator = path.endsWith('hide') ? content : compliance;
      const init: RequestInit = { method: 'POST', headers: { ...operator, lang: 'en' } };
      if (body !== undefined) {
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
      }
      const response = await fetch(server.baseUrl + path, init);
      const answer = (await response.json()) as { code: number; msg: string };
      expect(response.status, path).toBe(200);
      expect(answer.code, `${path} ${JSON.stringify(body)}`).toBe(code);
      expect(answer.msg.length).toBeGreaterThan(0);
      expect(answer.msg).not.toMatch(/polluted|fraud|zod|\[object/i);
    }
    const required = await server.call('POST', `${PROVIDERS}/${providerId}/suspend`, { headers: compliance, body: {} });
    expect(required.msg).toBe('Write why the provider is suspended (at most 200 characters).');
    const inChinese = await server.call('POST', `${PROVIDERS}/${providerId}/suspend`, {
      headers: compliance,
      body: {},
      lang: 'hk',
    });
    expect(inChinese.msg).toBe('請寫下暫停此提供者的原因（最多 200 個字元）。');
    const withNul = await server.call('POST', `${PROVIDERS}/${providerId}/suspend`, {
      headers: compliance,
      body: { reason: 'fraud\u0000' },
    });
    expect(withNul.msg).toMatch(/control or invisible characters/);
    expect(await providerRow(providerId)).toEqual(before);
    expect(await auditRows(server, 'copy_provider.suspend')).toHaveLength(0);
    expect(Object.prototype).not.toHaveProperty('reason');
  });

  it('suspends a provider: every copy stops with provider_suspended, the followers keep their positions, audited', async () => {
    const db = server.database.db;
    const followers = await createTraders(db, ['20000', '20000']);
    const live = [];
    for (const follower of followers) {
      live.push(await copy.follows.follow(follower.userId, { provider_id: providerId, amount: '10000', stop_loss_pct: 50 }));
    }
    const position = await openBtc(provider);
    await copy.copier.schedule(providerId);
    const held = await db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.userId,
          followers.map((f) => f.userId),
        ),
      );
    expect(held).toHaveLength(2);
    expect(held.every((order) => order.status === OrderStatus.holding)).toBe(true);

    const reason = 'Copies refused: misleading bio (case 1234)';
    const suspended = await server.call<CopyProviderAdminView>('POST', `${PROVIDERS}/${providerId}/suspend`, {
      headers: compliance,
      body: { reason: `  ${reason}  ` },
    });
    expect(suspended.code).toBe(1);
    expect(suspended.data).toMatchObject({ status: 'suspended', suspended_reason: reason, copiers: 0 });

    const stopped = await db
      .select()
      .from(copies)
      .where(
        inArray(
          copies.id,
          live.map((c) => c.id),
        ),
      );
    for (const row of stopped) {
      expect(row).toMatchObject({ status: 'stopped', stopReason: 'provider_suspended', keepPositions: true });
    }
    // The provider closes; the followers' positions stay theirs, detached from the copy.
    expect((await server.call('POST', ApiPath.closeOrder, { token: provider.token, body: { id: position } })).code).toBe(1);
    await copy.copier.reconcileAll();
    const after = await db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.userId,
          followers.map((f) => f.userId),
        ),
      );
    expect(after.map((order) => order.status)).toEqual([OrderStatus.holding, OrderStatus.holding]);
    const links = await db.select().from(copyOrders).where(eq(copyOrders.providerOrderId, position));
    expect(links.map((link) => link.status)).toEqual(['detached', 'detached']);

    const [audited, ...more] = await auditRows(server, 'copy_provider.suspend');
    expect(more).toHaveLength(0);
    expect(audited).toMatchObject({
      actor: 'operator:cora@ops.test',
      targetId: String(providerId),
      before: { status: 'active', suspended_reason: null },
      after: { status: 'suspended', suspended_reason: reason, copies_stopped: 2 },
    });

    // Nobody may follow it now, nor may it list itself again; a second suspension is a stale button.
    const [late] = await createTraders(db, ['20000']);
    const follow = await server.call('POST', ApiPath.copyFollow, {
      token: late!.token,
      body: { provider_id: providerId, amount: '100', stop_loss_pct: 50 },
    });
    expect(follow.code).toBe(1002);
    const again = await server.call('POST', ApiPath.providerBecome, {
      token: provider.token,
      body: { nickname: `Swing ${kind}`, bio: '', fee_pct: '20' },
    });
    expect(again.code).toBe(1003);
    expect(
      (await server.call('POST', `${PROVIDERS}/${providerId}/suspend`, { headers: compliance, body: { reason } })).code,
    ).toBe(1009);
    await expectLedgerInvariants(db);
  });

  it("shows a user's copies as follower and as provider", async () => {
    const asProvider = await server.call<OperatorPageView<CopyAdminView>>(
      'GET',
      `/admin/api/users/${await uidOf(provider.userId)}/copies?side=provider`,
      { headers: compliance },
    );
    expect(asProvider.code).toBe(1);
    expect(asProvider.data.total).toBe(3);
    const stoppedBySuspension = asProvider.data.data.filter((row) => row.stop_reason === 'provider_suspended');
    expect(stoppedBySuspension).toHaveLength(2);
    for (const row of stoppedBySuspension) {
      expect(row).toMatchObject({
        status: 'stopped',
        keep_positions: true,
        amount: 10000,
        provider_id: providerId,
        fees_paid: 0,
      });
    }
    const paid = asProvider.data.data.find((row) => row.stop_reason === 'unfollowed')!;
    expect(paid.fees_paid).toBeGreaterThan(0);
    expect(paid.realised).toBeGreaterThan(0);

    const follower = await server.call<OperatorPageView<CopyAdminView>>('GET', `/admin/api/users/${paid.follower_uid}/copies`, {
      headers: support,
    });
    expect(follower.data.data).toEqual([paid]);
    // The provider follows nobody.
    const none = await server.call<OperatorPageView<CopyAdminView>>(
      'GET',
      `/admin/api/users/${await uidOf(provider.userId)}/copies`,
      {
        headers: finance,
      },
    );
    expect(none.data).toMatchObject({ data: [], total: 0 });

    expect((await server.call('GET', '/admin/api/users/98765432/copies', { headers: support })).code).toBe(1004);
    expect((await server.call('GET', `/admin/api/users/${paid.follower_uid}/copies?side=boss`, { headers: support })).code).toBe(
      1001,
    );
    expect((await server.call('GET', `/admin/api/users/${paid.follower_uid}/copies`, { headers: content })).code).toBe(1003);
  });

  it('lifts a suspension: a person comes back stopped (being copied again is theirs to choose), audited', async () => {
    const lifted = await server.call<CopyProviderAdminView>('POST', `${PROVIDERS}/${providerId}/unsuspend`, {
      headers: compliance,
    });
    expect(lifted.code).toBe(1);
    expect(lifted.data).toMatchObject({ status: 'stopped', suspended_reason: null });
    const [audited] = await auditRows(server, 'copy_provider.unsuspend');
    expect(audited).toMatchObject({ before: { status: 'suspended' }, after: { status: 'stopped', suspended_reason: null } });
    const again = await server.call<MyProviderView>('POST', ApiPath.providerBecome, {
      token: provider.token,
      body: { nickname: `Swing ${kind}`, bio: 'Back', fee_pct: '20' },
    });
    expect(again.code).toBe(1);
    expect(again.data.status).toBe('active');

    // An automated strategy comes back listed.
    expect(
      (await server.call('POST', `${PROVIDERS}/${automatedId}/suspend`, { headers: compliance, body: { reason: 'check' } })).code,
    ).toBe(1);
    const robot = await server.call<CopyProviderAdminView>('POST', `${PROVIDERS}/${automatedId}/unsuspend`, {
      headers: compliance,
    });
    expect(robot.data.status).toBe('active');
    expect(await server.database.db.select().from(auditLog).where(eq(auditLog.targetType, 'copy_provider'))).toHaveLength(6);
  });

  it('a follow racing a suspension never leaves a live copy of the suspended provider', async () => {
    const db = server.database.db;
    const rounds = 20;
    const leaders = await createTraders(db, Array<string>(rounds).fill('1000'));
    const followers = await createTraders(db, Array<string>(rounds).fill('1000'));
    for (const [round, leader] of leaders.entries()) {
      const became = await server.call<MyProviderView>('POST', ApiPath.providerBecome, {
        token: leader.token,
        body: { nickname: `Raced ${kind} ${round}` },
      });
      const raced = became.data.provider_id;
      const [followed, suspended] = await Promise.all([
        server.call('POST', ApiPath.copyFollow, {
          token: followers[round]!.token,
          body: { provider_id: raced, amount: '100', stop_loss_pct: 50 },
        }),
        server.call('POST', `${PROVIDERS}/${raced}/suspend`, { headers: compliance, body: { reason: 'race' } }),
      ]);
      expect(suspended.code).toBe(1);
      // Either the follow came first (and its copy stopped with the suspension) or it was refused.
      expect([1, 1002]).toContain(followed.code);
      const live = await db
        .select()
        .from(copies)
        .where(and(eq(copies.providerId, raced), ne(copies.status, 'stopped')));
      expect(live).toEqual([]);
    }
  }, 120_000);
});
