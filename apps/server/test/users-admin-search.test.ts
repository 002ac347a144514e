import { ApiPath, type FeedbackAdminView } from '@pipwise/domain';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaCodes, auditLog, depositChannels, deposits, outboxMessages, uploads, users } from '../src/db/schema.js';
import type { Trader } from './factories.js';
import { DB_KINDS } from './harness.js';
import { startWithdrawalServer, type WithdrawalServer } from './withdrawals-helpers.js';

interface Paged<T> {
  data: T[];
  total: number;
  page: number;
  page_size: number;
}
interface UserItem {
  uid: number;
  email: string | null;
  phone: string | null;
  area_code: string | null;
  freezes: { login: boolean; trading: boolean; withdrawals: boolean };
  kyc_status: number;
  balance: number;
}

describe.each(DB_KINDS)('back-office users on %s', (kind) => {
  let server: WithdrawalServer;
  let ada: Trader;
  let bob: Trader;
  let adaUid: number;
  let bobUid: number;

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
    await server.tick('EURUSD', '1.10000');
    ada = await server.trader({ balance: '5000' });
    bob = await server.trader({ balance: '100' });
    const db = server.database.db;
    const [hk] = await db.select().from(areaCodes).where(eq(areaCodes.code, 'HK'));
    await db.update(users).set({ email: 'Ada.Lovelace@Example.test' }).where(eq(users.id, ada.userId));
    await db
      .update(users)
      .set({ email: null, areaId: hk!.id, phone: '91234567', invitedBy: ada.userId })
      .where(eq(users.id, bob.userId));
    const uidOf = async (t: Trader) => (await db.select({ uid: users.uid }).from(users).where(eq(users.id, t.userId)))[0]!.uid;
    adaUid = await uidOf(ada);
    bobUid = await uidOf(bob);
  });
  afterAll(() => server.close());

  const as = (role: 'support' | 'finance' | 'compliance' | 'content') => server.operatorHeaders(`${role}-desk`, role);
  const get = async <T>(path: string, role: 'support' | 'finance' | 'compliance' | 'content' = 'support') =>
    server.call<T>('GET', path, { headers: await as(role) });
  const search = async (q: string) => (await get<Paged<UserItem>>(`/admin/api/users?q=${encodeURIComponent(q)}`)).data;

  it('finds a user by uid, by e-mail (any case, a prefix) and by phone (with or without the dialling code)', async () => {
    expect((await search(String(adaUid))).data.map((u) => u.uid)).toEqual([adaUid]);
    for (const q of ['ada.lovelace@example.test', 'ADA.LOVE', 'Ada']) {
      expect(
        (await search(q)).data.map((u) => u.uid),
        q,
      ).toEqual([adaUid]);
    }
    for (const q of ['91234567', '+852 9123 4567', '85291234567']) {
      const found = await search(q);
      expect(found.data, q).toEqual([
        expect.objectContaining({ uid: bobUid, phone: '91234567', area_code: '+852', email: null, balance: 100, kyc_status: 0 }),
      ]);
    }
    // LIKE's wildcards are literal, and nothing matches an unknown value.
    expect((await search('a%')).total).toBe(0);
    expect((await search('_da')).total).toBe(0);
    expect((await search('nobody@example.test')).total).toBe(0);

    const all = await get<Paged<UserItem>>('/admin/api/users?page_size=1&page=2');
    expect(all.data).toMatchObject({ page: 2, page_size: 1 });
    expect(all.data.total).toBeGreaterThanOrEqual(2);
    expect(all.data.data).toHaveLength(1);

    expect((await get(`/admin/api/users?q=${'x'.repeat(101)}`)).code).toBe(1001);
    expect((await get('/admin/api/users?page_size=500')).code).toBe(1001);
    expect((await get('/admin/api/users', 'finance')).code).toBe(1);
    expect((await get('/admin/api/users', 'compliance')).code).toBe(1);
    expect((await get('/admin/api/users', 'content')).code).toBe(1003);
    expect((await server.call('GET', '/admin/api/users', { token: ada.token })).code).toBe(999);
  });

  it("shows a user's profile with the app's own figures, freezes, real-name status and invitations", async () => {
    const opened = await server.submit(ada, {
      type: 1,
      cont: '1',
      forex_id: server.instrumentId('EURUSD'),
      status: 1,
      multiple: 100,
    });
    expect(opened.code, opened.msg).toBe(1);
    await server.tick('EURUSD', '1.10100');
    const app = await server.call<Record<string, number>>('GET', ApiPath.forexDetail, { token: ada.token });
    const detail = await get<Record<string, unknown>>(`/admin/api/users/${adaUid}`);
    expect(detail.code, detail.msg).toBe(1);
    expect(detail.data).toMatchObject({
      uid: adaUid,
      email: 'Ada.Lovelace@Example.test',
      is_demo: false,
      figures: {
        balance: app.data.balance,
        locked: app.data.lock_balance,
        equity: app.data.net_value,
        used_margin: 1100.08,
        free_margin: app.data.available_prepayment,
        // (1.10100 − 1.10008) × 100,000
        floating_pnl: 92,
      },
      freezes: { login: false, trading: false, withdrawals: false },
      kyc: { status: 0 },
      invite: { invited_by_uid: null, invited_count: 1 },
    });
    expect(await get(`/admin/api/users/${bobUid}`)).toMatchObject({
      data: {
        invite: { invited_by_uid: adaUid, invited_count: 0 },
        figures: { balance: 100, used_margin: 0, margin_level: null },
      },
    });
    expect(await get('/admin/api/users/1')).toMatchObject({ code: 1004, msg: 'No user has this uid.' });
    expect(await get('/admin/api/users/abc')).toMatchObject({ code: 1001, msg: 'No user has this uid.' });
  });

  it("lists a user's orders, ledger, deposits, withdrawals and sessions, paged, newest first", async () => {
    const db = server.database.db;
    const orders = await get<Paged<{ code: string; status: number; lots: number; profit: number }>>(
      `/admin/api/users/${adaUid}/orders?status=1`,
    );
    expect(orders.data).toMatchObject({
      total: 1,
      page: 1,
      page_size: 20,
      data: [{ code: 'EURUSD', status: 1, lots: 1, profit: 92 }],
    });
    expect((await get<Paged<unknown>>(`/admin/api/users/${adaUid}/orders?status=3`)).data.total).toBe(0);
    expect((await get<Paged<unknown>>(`/admin/api/users/${adaUid}/orders`)).data.total).toBe(1);
    expect((await get(`/admin/api/users/${adaUid}/orders?status=2`)).code).toBe(1001);

    const ledger = await get<Paged<{ type: string; amount: number; memo: string }>>(
      `/admin/api/users/${adaUid}/ledger?page_size=1`,
    );
    expect(ledger.data).toMatchObject({ total: 2, page_size: 1, data: [{ type: 'trade_fee', amount: -5.5 }] });

    const [channel] = await db.select().from(depositChannels).limit(1);
    const proof = randomBytes(16).toString('base64url');
    await db.insert(uploads).values({
      id: proof,
      userId: ada.userId,
      mimeType: 'image/png',
      bytes: 1,
      width: 1,
      height: 1,
      sha256: proof,
      data: Buffer.from([1]),
    });
    await db.insert(deposits).values({
      userId: ada.userId,
      channelId: channel!.id,
      type: channel!.type,
      currencyCode: channel!.currencyCode,
      payTo: 'x',
      amount: '250',
      proofUploadId: proof,
    });
    expect(await get(`/admin/api/users/${adaUid}/deposits`)).toMatchObject({
      data: { total: 1, data: [{ amount: 250, status: 0 }] },
    });

    const { methodId, currencyId } = await server.usableMethod(bob);
    const drawn = await server.draw(bob, { draw_currency_id: currencyId, number: '50', draw_method_id: methodId });
    expect(drawn.code, drawn.msg).toBe(1);
    expect(await get(`/admin/api/users/${bobUid}/withdrawals`, 'finance')).toMatchObject({
      data: { total: 1, data: [{ amount: 50, status: 0 }] },
    });

    const second = await server.session(ada);
    await server.call('POST', ApiPath.logout, { token: second.token });
    const sessions = await get<Paged<{ live: boolean; revoked_at: string | null }>>(
      `/admin/api/users/${adaUid}/sessions`,
      'compliance',
    );
    expect(sessions.data.total).toBe(2);
    expect(sessions.data.data.map((s) => s.live)).toEqual([false, true]);
    expect((await get(`/admin/api/users/${adaUid}/sessions`, 'content')).code).toBe(1003);
  });

  it('shows the outbox to support, newest first, by destination', async () => {
    const db = server.database.db;
    await db.insert(outboxMessages).values([
      {
        channel: 'email',
        destination: 'ada.lovelace@example.test',
        subject: 'first',
        body: 'one',
        createdAt: new Date('2026-11-18T10:00:00Z'),
      },
      {
        channel: 'sms',
        destination: '+85260000000',
        subject: '',
        body: 'code 123456',
        createdAt: new Date('2026-11-18T11:00:00Z'),
      },
      {
        channel: 'email',
        destination: 'ada.lovelace@example.test',
        subject: 'second',
        body: 'two',
        createdAt: new Date('2026-11-18T12:00:00Z'),
      },
    ]);
    const ada = await get<Paged<{ subject: string; channel: string }>>('/admin/api/outbox?destination=Ada.Lovelace@example.test');
    expect(ada.data.data.map((m) => m.subject)).toEqual(['second', 'first']);
    const sms = await get<Paged<{ channel: string; body: string }>>(
      `/admin/api/outbox?destination=${encodeURIComponent('+85260000000')}`,
    );
    expect(sms.data.data).toEqual([expect.objectContaining({ channel: 'sms', body: 'code 123456' })]);
    const all = await get<Paged<{ created_at: string }>>('/admin/api/outbox?page_size=100');
    const times = all.data.data.map((m) => m.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect((await get('/admin/api/outbox', 'finance')).code).toBe(1003);
  });

  it('records who handled a feedback and when, with an audit row', async () => {
    const sent = await server.call<{ id: number }>('POST', ApiPath.feedbackSubmit, {
      body: { category: 'account', text: 'Please call me' },
      token: ada.token,
    });
    expect(sent.code, sent.msg).toBe(1);
    const handled = await server.call<FeedbackAdminView>('POST', `/admin/api/feedback/${sent.data.id}/handled`, {
      headers: await as('support'),
    });
    expect(handled.data).toMatchObject({
      status: 1,
      handled_by: 'operator:support-desk@ops.test',
      handled_at: server.clock.now().toISOString(),
    });
    const again = await server.call<FeedbackAdminView>('POST', `/admin/api/feedback/${sent.data.id}/handled`, {
      headers: await server.operatorHeaders('other', 'support'),
    });
    expect(again.data.handled_by).toBe('operator:support-desk@ops.test');
    const rows = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'feedback.handled'), eq(auditLog.targetId, String(sent.data.id))));
    expect(rows.map((row) => row.actor)).toEqual(['operator:support-desk@ops.test']);
    const queue = await get<{ data: FeedbackAdminView[] }>('/admin/api/feedback?status=1');
    expect(queue.data.data.find((row) => row.id === sent.data.id)).toMatchObject({
      handled_by: 'operator:support-desk@ops.test',
    });
  });
});
