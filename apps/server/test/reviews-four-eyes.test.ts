import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, outboxMessages, withdrawals } from '../src/db/schema.js';
import { expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS } from './harness.js';
import { auditOf, claimsOn, setLanguage, uidOf } from './reviews-helpers.js';
import { startWithdrawalServer, walletOf, type WithdrawalServer } from './withdrawals-helpers.js';

interface OperatorWithdrawal {
  id: number;
  status: number;
  first_approved_by: string | null;
  needs_second_approval: boolean;
  decided_by: string | null;
  claim: { operator: string } | null;
  user: Record<string, unknown> | null;
}

/** Four-eyes on withdrawals above `withdraw_four_eyes_above`: two different operators complete one. */
describe.each(DB_KINDS)('withdrawal four-eyes on %s', (kind) => {
  let server: WithdrawalServer;

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
    await server.ctx.settings.set({ withdraw_four_eyes_above: '500' });
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const decide = async (action: 'approve' | 'reject' | 'void', id: number, name: string, body: Record<string, unknown> = {}) =>
    server.call<OperatorWithdrawal>('POST', `/admin/api/withdrawals/${id}/${action}`, {
      body,
      headers: await server.operatorHeaders(name, 'finance'),
    });
  const debitsOf = (id: number) =>
    server.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'withdrawal'), eq(ledgerEntries.refId, id), eq(ledgerEntries.type, 'withdrawal')));
  const rowOf = async (id: number) => (await server.database.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;
  const withdrawalMail = async (trader: Trader) => {
    const [user] = await server.database.db.query.users.findMany({ where: (users, { eq: is }) => is(users.id, trader.userId) });
    return server.database.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.destination, user!.email!), like(outboxMessages.subject, '%withdrawal #%')));
  };

  async function requested(trader: Trader, number: string) {
    const { methodId, currencyId } = await server.usableMethod(trader);
    const made = await server.draw(trader, { draw_currency_id: currencyId, number, draw_method_id: methodId });
    expect(made.code).toBe(1);
    return made.data.id;
  }

  it('at or below the threshold one approval completes the withdrawal', async () => {
    const trader = await server.trader({ balance: '2000' });
    await setLanguage(server.database.db, trader.userId, 'en');
    const id = await requested(trader, '500');
    const approved = await decide('approve', id, 'alice');
    expect(approved).toMatchObject({
      code: 1,
      msg: 'Withdrawal completed',
      data: { status: 1, first_approved_by: null, needs_second_approval: false, decided_by: 'operator:alice@ops.test' },
    });
    expect(await debitsOf(id)).toMatchObject([{ amount: '-499.00' }]);
    expect((await withdrawalMail(trader)).map((mail) => mail.body)).toEqual([
      `Your withdrawal #${id} of 500.00 USD has been completed and sent.`,
    ]);
    expect(await auditOf(server.database.db, 'withdrawal', id)).toMatchObject([
      {
        action: 'withdrawal.approve',
        actor: 'operator:alice@ops.test',
        before: { status: 0, amount: '500.00', fee: '1.00', first_approved_by: null },
        after: { status: 1, amount: '500.00', decided_by: 'operator:alice@ops.test' },
      },
    ]);
  });

  it('above it: the first approval is recorded, the same operator is refused, another completes; both names kept', async () => {
    const trader = await server.trader({ balance: '2000' });
    await setLanguage(server.database.db, trader.userId, 'en');
    const id = await requested(trader, '800');
    const first = await decide('approve', id, 'alice');
    expect(first).toMatchObject({
      code: 1,
      msg: 'First approval recorded. A second operator must approve to complete the withdrawal.',
      data: { status: 0, first_approved_by: 'operator:alice@ops.test', needs_second_approval: true, decided_by: null },
    });
    expect(await debitsOf(id)).toEqual([]);
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '2000.00', lock: '800.00' });
    expect(await withdrawalMail(trader)).toEqual([]);

    const again = await decide('approve', id, 'alice');
    expect(again).toMatchObject({
      code: 1002,
      msg: 'A second operator must approve this; you already approved it or created it.',
    });

    const uid = await uidOf(server.database.db, trader.userId);
    const queue = await server.call<{ data: OperatorWithdrawal[]; total: number }>(
      'GET',
      `/admin/api/withdrawals?status=0&uid=${uid}`,
      { headers: await server.operatorHeaders('bob', 'finance') },
    );
    expect(queue.data).toMatchObject({ total: 1, page: 1, page_size: 20 });
    expect(queue.data.data[0]).toMatchObject({
      id,
      first_approved_by: 'operator:alice@ops.test',
      needs_second_approval: true,
      claim: null,
      user: { uid, balance: 2000, lock_balance: 800, withdrawals_total: 0 },
    });

    const second = await decide('approve', id, 'bob');
    expect(second).toMatchObject({
      code: 1,
      msg: 'Withdrawal completed',
      data: {
        status: 1,
        first_approved_by: 'operator:alice@ops.test',
        needs_second_approval: false,
        decided_by: 'operator:bob@ops.test',
      },
    });
    expect(await rowOf(id)).toMatchObject({
      firstApprovedBy: 'operator:alice@ops.test',
      firstApprovedAt: expect.any(Date),
      decidedBy: 'operator:bob@ops.test',
    });
    expect(await debitsOf(id)).toMatchObject([{ amount: '-799.00' }]);
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1200.00', lock: '0.00' });
    expect(await decide('approve', id, 'carol')).toMatchObject({ code: 1009 });

    expect(await auditOf(server.database.db, 'withdrawal', id)).toMatchObject([
      {
        action: 'withdrawal.first_approve',
        actor: 'operator:alice@ops.test',
        before: { status: 0, first_approved_by: null },
        after: { status: 0, first_approved_by: 'operator:alice@ops.test' },
      },
      {
        action: 'withdrawal.approve',
        actor: 'operator:bob@ops.test',
        before: { status: 0, first_approved_by: 'operator:alice@ops.test' },
        after: { status: 1, first_approved_by: 'operator:alice@ops.test', decided_by: 'operator:bob@ops.test' },
      },
    ]);
    expect((await withdrawalMail(trader)).map((mail) => mail.body)).toEqual([
      `Your withdrawal #${id} of 800.00 USD has been completed and sent.`,
    ]);
    const done = await server.call<{ data: OperatorWithdrawal[] }>('GET', `/admin/api/withdrawals?status=1&uid=${uid}`, {
      headers: await server.operatorHeaders('bob', 'finance'),
    });
    expect(done.data.data[0]).toMatchObject({ user: { withdrawals_total: 800 } });
  });

  it('a rejection works after a first approval: the lock is released and the user told why', async () => {
    const trader = await server.trader({ balance: '2000' });
    await setLanguage(server.database.db, trader.userId, 'en');
    const id = await requested(trader, '900');
    expect((await decide('approve', id, 'alice')).code).toBe(1);
    const rejected = await decide('reject', id, 'alice', { reason: 'Destination flagged' });
    expect(rejected).toMatchObject({ code: 1, data: { status: 2, first_approved_by: 'operator:alice@ops.test' } });
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '2000.00', lock: '0.00' });
    expect(await debitsOf(id)).toEqual([]);
    expect((await withdrawalMail(trader)).map((mail) => mail.body)).toEqual([
      `Your withdrawal #${id} of 900.00 USD was not paid out; the amount is available in your balance again. Reason: Destination flagged`,
    ]);
    expect((await auditOf(server.database.db, 'withdrawal', id)).map((row) => row.action)).toEqual([
      'withdrawal.first_approve',
      'withdrawal.reject',
    ]);
  });

  it('two operators approving at once above the threshold: one first approval, one completion, one debit', async () => {
    const trader = await server.trader({ balance: '3000' });
    const id = await requested(trader, '1000');
    const answers = await Promise.all([decide('approve', id, 'bob'), decide('approve', id, 'carol')]);
    expect(answers.map((answer) => answer.code)).toEqual([1, 1]);
    expect(answers.map((answer) => answer.data.status).sort()).toEqual([0, 1]);
    expect(await debitsOf(id)).toHaveLength(1);
    const row = await rowOf(id);
    expect(row.status).toBe(1);
    expect(row.firstApprovedBy).not.toBe(row.decidedBy);
    expect(await auditOf(server.database.db, 'withdrawal', id)).toHaveLength(2);
  });

  it("the user's cancel ends an operator's claim on the request", async () => {
    const trader = await server.trader({ balance: '300' });
    const id = await requested(trader, '100');
    const claimed = await server.call('POST', `/admin/api/claims/withdrawals/${id}`, {
      headers: await server.operatorHeaders('alice', 'finance'),
    });
    expect(claimed.code).toBe(1);
    expect((await server.cancel(trader, id)).code).toBe(1);
    expect(await claimsOn(server.database.db, id)).toEqual([]);
  });

  it('an approve racing a reject on one withdrawal: exactly one lands', async () => {
    const trader = await server.trader({ balance: '3000' });
    const id = await requested(trader, '100');
    const [approve, reject] = await Promise.all([
      decide('approve', id, 'alice'),
      decide('reject', id, 'bob', { reason: 'Raced' }),
    ]);
    expect([approve.code, reject.code].sort()).toEqual([1, 1009]);
    expect(await debitsOf(id)).toHaveLength(approve.code === 1 ? 1 : 0);
    expect(await auditOf(server.database.db, 'withdrawal', id)).toHaveLength(1);
  });
});
