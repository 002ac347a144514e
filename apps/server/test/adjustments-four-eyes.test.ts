import { ApiPath, SocketTopic } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adjustments } from '../src/db/schema.js';
import { expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS } from './harness.js';
import { auditOf, ledgerOf, mailTo, setLanguage, uidOf } from './reviews-helpers.js';
import { startWithdrawalServer, walletOf, type WithdrawalServer } from './withdrawals-helpers.js';

interface AdjustmentView {
  id: number;
  uid: number;
  amount: number;
  reason: string;
  status: number;
  maker: string;
  checker: string | null;
  checker_note: string | null;
  created_at: string;
  decided_at: string | null;
}

/** Manual balance adjustments: made by one operator, posted only when a different one approves. */
describe.each(DB_KINDS)('balance adjustments on %s', (kind) => {
  let server: WithdrawalServer;

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const as = (name: string) => server.operatorHeaders(name, 'finance');
  const create = async (trader: Trader, amount: unknown, reason: unknown = 'Goodwill credit', name = 'alice') =>
    server.call<AdjustmentView>('POST', '/admin/api/adjustments', {
      body: { uid: await uidOf(server.database.db, trader.userId), amount, reason },
      headers: await as(name),
    });
  const decide = async (action: 'approve' | 'reject', id: number, name: string, body: Record<string, unknown> = {}) =>
    server.call<AdjustmentView>('POST', `/admin/api/adjustments/${id}/${action}`, { body, headers: await as(name) });
  const postingsOf = (id: number) => ledgerOf(server.database.db, 'adjustment', id);
  /** The adjustment mails a trader got, as [subject, body], in the subject of `lang`. */
  const adjustmentMails = async (trader: Trader, subject: string) =>
    (await mailTo(server.database.db, trader.userId)).filter((mail) => mail.subject === subject).map((mail) => mail.body);

  it('the maker cannot approve their own; another operator posts one ledger row with the reason, and the user hears of it', async () => {
    const trader = await server.trader({ balance: '100' });
    const pushes: unknown[] = [];
    const stop = server.ctx.bus.subscribe('realtime.user', (event) => {
      if (event.userId === trader.userId && event.topic === SocketTopic.wallet) pushes.push(event.data);
    });
    const made = await create(trader, '50.25', 'Compensation for outage');
    expect(made).toMatchObject({
      code: 1,
      msg: 'Adjustment created. Another operator must approve it.',
      data: {
        amount: 50.25,
        reason: 'Compensation for outage',
        status: 0,
        maker: 'alice@ops.test',
        checker: null,
        decided_at: null,
      },
    });
    const id = made.data.id;
    expect(await walletOf(server, trader.userId)).toMatchObject({ balance: '100.00' });

    await setLanguage(server.database.db, trader.userId, 'hk');
    const own = await decide('approve', id, 'alice');
    expect(own).toMatchObject({ code: 1002, msg: 'A second operator must approve this; you already approved it or created it.' });
    expect(await postingsOf(id)).toEqual([]);

    const approved = await decide('approve', id, 'bob', { note: 'Checked the incident log' });
    expect(approved).toMatchObject({
      code: 1,
      msg: 'Adjustment approved and posted to the balance.',
      data: { status: 1, maker: 'alice@ops.test', checker: 'bob@ops.test', checker_note: 'Checked the incident log' },
    });
    expect(approved.data.decided_at).not.toBeNull();
    expect(await postingsOf(id)).toMatchObject([
      {
        type: 'adjustment',
        amount: '50.25',
        balanceAfter: '150.25',
        memoKey: 'ledger_adjustment',
        memoParams: { reason: 'Compensation for outage' },
      },
    ]);
    expect(await walletOf(server, trader.userId)).toMatchObject({ balance: '150.25' });
    expect(pushes).toEqual([{ cause: 'adjustment', id, status: 1 }]);
    stop();

    expect((await decide('approve', id, 'carol')).code).toBe(1009);
    expect((await decide('reject', id, 'carol', { reason: 'Too late' })).code).toBe(1009);
    // Told once, in their language, with the operator's reason as written.
    expect(await adjustmentMails(trader, '你的 Pipwise 餘額已調整')).toEqual([
      '我們的團隊已將 50.25 USD 加入你的餘額。原因：Compensation for outage',
    ]);
    expect(await auditOf(server.database.db, 'adjustment', id)).toMatchObject([
      {
        action: 'adjustment.create',
        actor: 'operator:alice@ops.test',
        after: { status: 0, amount: '50.25', reason: 'Compensation for outage', user_id: trader.userId },
      },
      {
        action: 'adjustment.approve',
        actor: 'operator:bob@ops.test',
        ip: '127.0.0.1',
        before: { status: 0, amount: '50.25', maker: 'alice@ops.test', balance: '100.00' },
        after: { status: 1, checker: 'bob@ops.test', balance: '150.25', user_id: trader.userId },
      },
    ]);

    const history = await server.call<{ data: { Memo: string; MemoTran: string; Value: number }[] }>('GET', ApiPath.ledger, {
      token: trader.token,
      lang: 'de',
    });
    expect(history.data.data[0]).toMatchObject({
      Memo: 'ledger_adjustment',
      MemoTran: 'Korrektur des Kontostands: Compensation for outage',
      Value: 50.25,
    });
  });

  it('a debit may take only free money: below the locked amount it is refused and keeps waiting; a rejection posts nothing', async () => {
    const trader = await server.trader({ balance: '1000' });
    const { methodId, currencyId } = await server.usableMethod(trader);
    expect((await server.draw(trader, { draw_currency_id: currencyId, number: '700', draw_method_id: methodId })).code).toBe(1);

    await setLanguage(server.database.db, trader.userId, 'en');
    const made = await create(trader, '-300.01', 'Chargeback');
    const refused = await decide('approve', made.data.id, 'bob');
    expect(refused).toMatchObject({
      code: 1002,
      msg: 'The user has only 300.00 USD that is neither locked nor held as margin for open positions.',
    });
    const [row] = await server.database.db.select().from(adjustments).where(eq(adjustments.id, made.data.id));
    expect(row).toMatchObject({ status: 0, checkerId: null });

    const rejected = await decide('reject', made.data.id, 'alice', { reason: 'Wrong amount' });
    expect(rejected).toMatchObject({ code: 1, data: { status: 2, checker: 'alice@ops.test', checker_note: 'Wrong amount' } });
    expect(await postingsOf(made.data.id)).toEqual([]);

    const exact = await create(trader, -300, 'Chargeback');
    expect(await decide('approve', exact.data.id, 'bob')).toMatchObject({ code: 1, data: { amount: -300, status: 1 } });
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '700.00', lock: '700.00' });
    // The refused approval and the rejection told the user nothing; the posted debit did.
    expect(await adjustmentMails(trader, 'Your Pipwise balance has been adjusted')).toEqual([
      'Our team took 300.00 USD from your balance. Reason: Chargeback',
    ]);
    expect((await auditOf(server.database.db, 'adjustment', made.data.id)).map((entry) => entry.action)).toEqual([
      'adjustment.create',
      'adjustment.reject',
    ]);
  });

  it('a debit may take at most the free margin, like a withdrawal: it never leaves open positions closer to a stop-out', async () => {
    const trader = await server.trader({ balance: '1000' });
    const freeMargin = await server.holdMargin(trader);
    expect(freeMargin).toBeLessThan(Number((await walletOf(server, trader.userId)).balance) - 500);

    await setLanguage(server.database.db, trader.userId, 'en');
    const tooMuch = await create(trader, `-${(freeMargin + 0.01).toFixed(2)}`, 'Chargeback');
    expect(await decide('approve', tooMuch.data.id, 'bob')).toMatchObject({
      code: 1002,
      msg: `The user has only ${freeMargin.toFixed(2)} USD that is neither locked nor held as margin for open positions.`,
    });
    expect(await postingsOf(tooMuch.data.id)).toEqual([]);
    const [row] = await server.database.db.select().from(adjustments).where(eq(adjustments.id, tooMuch.data.id));
    expect(row).toMatchObject({ status: 0, checkerId: null });

    const exact = await create(trader, `-${freeMargin.toFixed(2)}`, 'Chargeback');
    expect(await decide('approve', exact.data.id, 'bob')).toMatchObject({ code: 1, data: { status: 1 } });
    const after = await server.call<{ withdrawable: number }>('GET', ApiPath.forexDetail, { token: trader.token });
    expect(after.data.withdrawable).toBe(0);
  });

  it('parallel approvals of one adjustment post exactly one ledger row', async () => {
    const trader = await server.trader({ balance: '10' });
    const made = await create(trader, '25');
    await setLanguage(server.database.db, trader.userId, 'en');
    const answers = await Promise.all(['bob', 'carol', 'dave'].map((name) => decide('approve', made.data.id, name)));
    expect(answers.map((answer) => answer.code).sort()).toEqual([1, 1009, 1009]);
    expect(await postingsOf(made.data.id)).toHaveLength(1);
    expect(await walletOf(server, trader.userId)).toMatchObject({ balance: '35.00' });
    expect(await adjustmentMails(trader, 'Your Pipwise balance has been adjusted')).toHaveLength(1);
    expect((await auditOf(server.database.db, 'adjustment', made.data.id)).map((entry) => entry.action)).toEqual([
      'adjustment.create',
      'adjustment.approve',
    ]);
  });

  it('lists by status, newest first', async () => {
    const trader = await server.trader({ balance: '10' });
    const waiting = await create(trader, '1.5', 'Listed');
    const all = await server.call<{ data: AdjustmentView[]; total: number }>('GET', '/admin/api/adjustments', {
      headers: await as('bob'),
    });
    expect(all.data.data[0]).toMatchObject({ id: waiting.data.id, uid: await uidOf(server.database.db, trader.userId) });
    const open = await server.call<{ data: AdjustmentView[]; total: number }>('GET', '/admin/api/adjustments?status=0', {
      headers: await as('bob'),
    });
    expect(open.data.data.every((row) => row.status === 0)).toBe(true);
    expect(open.data.data.map((row) => row.id)).toContain(waiting.data.id);
    const decided = await server.call<{ data: AdjustmentView[] }>('GET', '/admin/api/adjustments?status=1', {
      headers: await as('bob'),
    });
    expect(decided.data.data.map((row) => row.id)).not.toContain(waiting.data.id);
    expect((await server.call('GET', '/admin/api/adjustments?status=9', { headers: await as('bob') })).code).toBe(1001);
    const support = await server.call('GET', '/admin/api/adjustments', {
      headers: await server.operatorHeaders('sue', 'support'),
    });
    expect(support.code).toBe(1003);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const trader = await server.trader({ balance: '10' });
    for (const amount of [0, '0.00', '1.234', 'abc', '2000000', '-1000000.01', '1e3', null]) {
      const answer = await create(trader, amount);
      expect(answer, String(amount)).toMatchObject({
        code: 1001,
        msg: 'The amount must be a non-zero number with at most 2 decimals, between -1000000 and 1000000.',
      });
    }
    expect(await create(trader, '5', '')).toMatchObject({ code: 1001, msg: 'Enter a reason (at most 200 characters).' });
    expect(await create(trader, '5', 'x'.repeat(201))).toMatchObject({ code: 1001 });
    const unknown = await server.call('POST', '/admin/api/adjustments', {
      body: { uid: 1, amount: '5', reason: 'Nobody' },
      headers: await as('alice'),
    });
    expect(unknown).toMatchObject({ code: 1004, msg: 'No user has this UID.' });
    expect((await decide('approve', 99_999_999, 'bob')).code).toBe(1004);
    expect((await decide('reject', 99_999_999, 'bob', {})).code).toBe(1001);
    const count = await server.database.db.select().from(adjustments).where(eq(adjustments.reason, 'Nobody'));
    expect(count).toEqual([]);
  });
});
