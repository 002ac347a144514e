import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../src/i18n/catalog.js';
import { ledgerEntries, pendingChanges } from '../src/db/schema.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS, ManualClock, totpCode } from './harness.js';
import { newOperator, signIn, type TestOperator } from './operators-helpers.js';
import { uidOf } from './reviews-helpers.js';
import { startWithdrawalServer, walletOf, type WithdrawalServer } from './withdrawals-helpers.js';

interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/**
 * Issue 17 item 3: the two ways one person could move money alone, scripted through the operator API as
 * that person would, each ending with no money moved.
 */
describe.each(DB_KINDS)('four-eyes cannot be walked around on %s', (kind) => {
  let server: WithdrawalServer;
  let root: TestOperator;

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
    await server.ctx.settings.set({ withdraw_four_eyes_above: '500' });
    root = await newOperator(server, 'superadmin', 'root');
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const call = <T>(headers: Record<string, string>, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
    server.call<T>(method, path, {
      headers,
      ...(body === undefined ? {} : { body: body as Record<string, unknown> }),
    }) as Promise<Envelope<T>>;
  const postings = (refType: string, refId: number) =>
    server.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, refType), eq(ledgerEntries.refId, refId)));

  it('(a) a finance operator cannot raise the four-eyes threshold, and a superadmin’s raise waits for a second superadmin', async () => {
    const finance = await newOperator(server, 'finance');
    const trader = await server.trader({ balance: '5000' });
    const { methodId, currencyId } = await server.usableMethod(trader);
    const made = await server.draw(trader, { draw_currency_id: currencyId, number: '3000', draw_method_id: methodId });
    expect(made.code).toBe(1);
    const id = made.data.id;

    // The walk-around: raise the threshold above the amount, then approve alone.
    const asFinance = await signIn(server, finance);
    const raise = await call(asFinance, 'PUT', '/admin/api/settings/withdraw_four_eyes_above', { value: '100000' });
    expect(raise).toMatchObject({ code: 1003 });
    expect(raise.msg).toBe(translate('en', 'operator_role_forbidden'));
    const approved = await call<{ status: number; needs_second_approval: boolean }>(
      asFinance,
      'POST',
      `/admin/api/withdrawals/${id}/approve`,
      {},
    );
    expect(approved.data).toMatchObject({ status: 0, needs_second_approval: true });

    // A superadmin's raise is only proposed: the threshold in force is unchanged, the withdrawal still needs two.
    const asRoot = await signIn(server, root);
    const proposed = await call<{ pending_change: { id: number; kind: string; maker: string } }>(
      asRoot,
      'PUT',
      '/admin/api/settings/withdraw_four_eyes_above',
      { value: '100000' },
    );
    expect(proposed).toMatchObject({
      code: 1,
      msg: translate('en', 'setting_change_pending'),
      data: { pending_change: { kind: 'settings', maker: root.email } },
    });
    expect(await server.ctx.settings.get('withdraw_four_eyes_above')).toBe('500');
    // Nor may the maker approve their own change.
    const own = await call(asRoot, 'POST', `/admin/api/changes/${proposed.data.pending_change.id}/approve`, {});
    expect(own).toMatchObject({ code: 1002, msg: translate('en', 'four_eyes_same_operator') });
    expect(await server.ctx.settings.get('withdraw_four_eyes_above')).toBe('500');

    const again = await call(asFinance, 'POST', `/admin/api/withdrawals/${id}/approve`, {});
    expect(again).toMatchObject({ code: 1002, msg: translate('en', 'four_eyes_same_operator') });
    expect(await postings('withdrawal', id)).toEqual([]);
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '5000.00', lock: '3000.00' });

    // A second, independent superadmin applies it.
    const second = await newOperator(server, 'superadmin', 'second-root');
    const applied = await call(
      await signIn(server, second),
      'POST',
      `/admin/api/changes/${proposed.data.pending_change.id}/approve`,
      {},
    );
    expect(applied).toMatchObject({ code: 1, msg: translate('en', 'change_approved') });
    expect(await server.ctx.settings.get('withdraw_four_eyes_above')).toBe('100000');
    await server.ctx.settings.set({ withdraw_four_eyes_above: '500' });
    await server.ctx.operators.disable(second.id, { actor: 'cli' });
  });

  it('(b) a superadmin cannot check their own adjustment through an operator they made and enrolled', async () => {
    const trader = await server.trader({ balance: '100' });
    const asRoot = await signIn(server, root);
    const uid = await uidOf(server.database.db, trader.userId);
    const created = await call<{ id: number }>(asRoot, 'POST', '/admin/api/adjustments', {
      uid,
      amount: '2500',
      reason: 'Goodwill',
    });
    expect(created.code).toBe(1);

    // The walk-around: add a finance operator, take its enrolment link, enrol as it, approve.
    const added = await call<{ link: string }>(asRoot, 'POST', '/admin/api/operators', {
      email: 'puppet@ops.test',
      role: 'finance',
    });
    expect(added.code).toBe(1);
    expect(added.data).not.toHaveProperty('password');
    expect(added.data).not.toHaveProperty('otpauth');
    const token = added.data.link.slice(added.data.link.lastIndexOf('/') + 1);
    const begun = await call<{ otpauth: string }>({}, 'POST', '/admin/api/enrolment/begin', { token });
    expect(begun.code).toBe(1);
    const clock = server.clock as ManualClock;
    const enrolled = await call<{ token: string }>({}, 'POST', '/admin/api/enrolment/finish', {
      token,
      password: 'puppet-password-1',
      otp: totpCode(begun.data.otpauth, clock.now().getTime()),
    });
    expect(enrolled.code).toBe(1);
    const asPuppet = { authorization: enrolled.data.token };

    const approve = await call(asPuppet, 'POST', `/admin/api/adjustments/${created.data.id}/approve`, {});
    expect(approve).toMatchObject({ code: 1002, msg: translate('en', 'four_eyes_related_operator') });
    expect(await postings('adjustment', created.data.id)).toEqual([]);
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '100.00', lock: '0.00' });

    // Nor the other way round: the puppet makes, its maker checks.
    const byPuppet = await call<{ id: number }>(asPuppet, 'POST', '/admin/api/adjustments', {
      uid,
      amount: '2500',
      reason: 'Goodwill',
    });
    const checked = await call(await signIn(server, root), 'POST', `/admin/api/adjustments/${byPuppet.data.id}/approve`, {});
    expect(checked).toMatchObject({ code: 1002, msg: translate('en', 'four_eyes_related_operator') });
    expect(await postings('adjustment', byPuppet.data.id)).toEqual([]);
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '100.00', lock: '0.00' });
  });

  it('(b) a large withdrawal’s second approval is refused to an operator the first approver made or reset', async () => {
    const first = await newOperator(server, 'finance', 'first-approver');
    const made = await newOperator(server, 'finance', 'made-by-first', first);
    const trader = await server.trader({ balance: '5000' });
    const { methodId, currencyId } = await server.usableMethod(trader);
    const drawn = await server.draw(trader, { draw_currency_id: currencyId, number: '3000', draw_method_id: methodId });
    const id = drawn.data.id;
    expect((await call(await signIn(server, first), 'POST', `/admin/api/withdrawals/${id}/approve`, {})).code).toBe(1);
    const second = await call(await signIn(server, made), 'POST', `/admin/api/withdrawals/${id}/approve`, {});
    expect(second).toMatchObject({ code: 1002, msg: translate('en', 'four_eyes_related_operator') });
    expect(await postings('withdrawal', id)).toEqual([]);
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '5000.00', lock: '3000.00' });
  });

  it('(b) operators whose enrolment links one person held cannot check each other: siblings, or a chain that meets higher up', async () => {
    const sibling = await newOperator(server, 'finance', 'sibling-a', root);
    const otherSibling = await newOperator(server, 'finance', 'sibling-b', root);
    const deputy = await newOperator(server, 'superadmin', 'deputy', root);
    const deputysOwn = await newOperator(server, 'finance', 'made-by-deputy', deputy);
    const stranger = await newOperator(server, 'finance', 'stranger');
    const trader = await server.trader({ balance: '20000' });
    const { methodId, currencyId } = await server.usableMethod(trader);

    for (const [first, second] of [
      [sibling, otherSibling],
      [deputysOwn, sibling],
    ] as const) {
      const drawn = await server.draw(trader, { draw_currency_id: currencyId, number: '3000', draw_method_id: methodId });
      const id = drawn.data.id;
      expect((await call(await signIn(server, first), 'POST', `/admin/api/withdrawals/${id}/approve`, {})).code).toBe(1);
      const refused = await call(await signIn(server, second), 'POST', `/admin/api/withdrawals/${id}/approve`, {});
      expect(refused).toMatchObject({ code: 1002, msg: translate('en', 'four_eyes_related_operator') });
      expect(await postings('withdrawal', id)).toEqual([]);
      // An operator whose chain of enrolers stays apart from the first approver's is a second person.
      expect((await call(await signIn(server, stranger), 'POST', `/admin/api/withdrawals/${id}/approve`, {})).code).toBe(1);
    }
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '14000.00', lock: '0.00' });
  });

  it('with two superadmins, adding an operator or raising a role waits for the other; the approver gets the link', async () => {
    const other = await newOperator(server, 'superadmin', 'other-root');
    const asRoot = await signIn(server, root);
    const added = await call<{ pending_change: { id: number } }>(asRoot, 'POST', '/admin/api/operators', {
      email: 'newcomer@ops.test',
      role: 'finance',
    });
    expect(added).toMatchObject({ code: 1, msg: translate('en', 'operator_added_pending') });
    expect(await server.ctx.operators.find('newcomer@ops.test')).toBeNull();

    const asOther = await signIn(server, other);
    const approved = await call<{ result: { email: string; link: string } }>(
      asOther,
      'POST',
      `/admin/api/changes/${added.data.pending_change.id}/approve`,
      {},
    );
    expect(approved).toMatchObject({ code: 1, data: { result: { email: 'newcomer@ops.test' } } });
    expect(approved.data.result.link).toMatch(/^\/admin\/#\/enrol\/[\w-]{43}$/);
    const newcomer = (await server.ctx.operators.find('newcomer@ops.test'))!;
    expect(newcomer.role).toBe('finance');

    const raised = await call<{ pending_change: { id: number } }>(asRoot, 'PUT', `/admin/api/operators/${newcomer.id}/role`, {
      role: 'superadmin',
    });
    expect(raised).toMatchObject({ code: 1, msg: translate('en', 'operator_role_pending') });
    expect((await server.ctx.operators.find('newcomer@ops.test'))!.role).toBe('finance');
    const rejected = await call(asOther, 'POST', `/admin/api/changes/${raised.data.pending_change.id}/reject`, {});
    expect(rejected).toMatchObject({ code: 1, msg: translate('en', 'change_rejected') });
    const rows = await server.database.db
      .select()
      .from(pendingChanges)
      .where(eq(pendingChanges.id, raised.data.pending_change.id));
    expect(rows[0]).toMatchObject({ status: 2, checkerEmail: other.email });
    expect((await server.ctx.operators.find('newcomer@ops.test'))!.role).toBe('finance');
  });

  it('with two superadmins, one cannot alone bring back a finance operator the other disabled; support comes back at once', async () => {
    const other = await newOperator(server, 'superadmin', 'enabling-root');
    const finance = await newOperator(server, 'finance', 'dismissed-finance');
    const support = await newOperator(server, 'support', 'dismissed-support');
    const asOther = await signIn(server, other);
    for (const operator of [finance, support])
      expect((await call(asOther, 'POST', `/admin/api/operators/${operator.id}/disable`, {})).code).toBe(1);

    // The walk-around: a superadmin re-enables the finance operator alone, then works through them.
    const asRoot = await signIn(server, root);
    const enabling = await call<{ pending_change: { id: number; kind: string } }>(
      asRoot,
      'POST',
      `/admin/api/operators/${finance.id}/enable`,
      {},
    );
    expect(enabling).toMatchObject({
      code: 1,
      msg: translate('en', 'operator_enable_pending'),
      data: { pending_change: { kind: 'operator.enable' } },
    });
    await expect(signIn(server, finance)).rejects.toThrow(/login failed/);
    const own = await call(asRoot, 'POST', `/admin/api/changes/${enabling.data.pending_change.id}/approve`, {});
    expect(own).toMatchObject({ code: 1002, msg: translate('en', 'four_eyes_same_operator') });
    await expect(signIn(server, finance)).rejects.toThrow(/login failed/);

    const approved = await call(asOther, 'POST', `/admin/api/changes/${enabling.data.pending_change.id}/approve`, {});
    expect(approved).toMatchObject({ code: 1, msg: translate('en', 'change_approved') });
    expect((await signIn(server, finance)).authorization).toMatch(/^pwo_/);

    // Support, the least role, holds no power over money: enabling it needs nobody else.
    const back = await call<{ disabled: boolean }>(asRoot, 'POST', `/admin/api/operators/${support.id}/enable`, {});
    expect(back).toMatchObject({ code: 1, data: { disabled: false } });
    await server.ctx.operators.disable(other.id, { actor: 'cli' });
  });
});
