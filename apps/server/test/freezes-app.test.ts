import { ApiPath, type OrderView } from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../src/db/schema.js';
import { hashPassword } from '../src/security/secrets.js';
import { expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS } from './harness.js';
import { startWithdrawalServer, type WithdrawalServer } from './withdrawals-helpers.js';

const PASSWORD = 'Secret123';

describe.each(DB_KINDS)('operator freezes refused in the app on %s', (kind) => {
  let server: WithdrawalServer;
  let eurusd: number;

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
    eurusd = server.instrumentId('EURUSD');
    await server.tick('EURUSD', '1.10000');
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const db = () => server.database.db;
  // The clock moves (payout cool-downs): each call signs in again when the session has expired.
  const support = () => server.operatorHeaders('sue', 'support');
  const uidOf = async (trader: Trader) =>
    (await db().select({ uid: users.uid }).from(users).where(eq(users.id, trader.userId)))[0]!.uid;
  /** A trader who can also sign in with an e-mail and password. */
  const withPassword = async (trader: Trader) => {
    const email = `login${trader.userId}@example.test`;
    await db()
      .update(users)
      .set({ email, passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, trader.userId));
    return email;
  };
  const freeze = async (trader: Trader, body: Record<string, unknown>) =>
    server.call<{ freezes: Record<string, boolean>; sessions_ended: number }>(
      'POST',
      `/admin/api/users/${await uidOf(trader)}/freeze`,
      { body, headers: await support() },
    );
  const login = (account: string, lang = 'en') =>
    server.call<{ token: string }>('POST', ApiPath.login, { body: { account, password: PASSWORD }, lang });
  const me = (token: string) => server.call('GET', ApiPath.userInfo, { token });
  const auditRows = async (uid: number, action: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, String(uid)), eq(auditLog.action, action)))
      .orderBy(auditLog.id);

  it('a login freeze ends every session at once and refuses sign-in with its message until lifted', async () => {
    const trader = await server.trader();
    const email = await withPassword(trader);
    const other = await login(email);
    expect(other.code, other.msg).toBe(1);
    // Both sessions are in use (and so in the session cache) before the freeze.
    expect((await me(trader.token)).code).toBe(1);
    expect((await me(other.data.token)).code).toBe(1);

    const frozen = await freeze(trader, { login: true });
    expect(frozen).toMatchObject({
      code: 1,
      data: { freezes: { login: true, trading: false, withdrawals: false }, sessions_ended: 2 },
    });
    expect((await me(trader.token)).code).toBe(999);
    expect((await me(other.data.token)).code).toBe(999);
    expect(await login(email)).toMatchObject({
      code: 1003,
      msg: 'Login to this account has been suspended. Please contact support',
    });
    expect(await login(email, 'hk')).toMatchObject({ code: 1003, msg: '此帳戶的登入已被暫停，請聯絡客戶支援' });
    expect((await login(email, 'de')).msg).toBe(
      'Die Anmeldung bei diesem Konto wurde gesperrt. Bitte wenden Sie sich an den Support',
    );

    expect(await freeze(trader, { login: false })).toMatchObject({ code: 1, data: { freezes: { login: false } } });
    const again = await login(email);
    expect(again.code, again.msg).toBe(1);
    expect((await me(again.data.token)).code).toBe(1);

    const uid = await uidOf(trader);
    const rows = await auditRows(uid, 'user.freeze');
    expect(rows.map((row) => [row.before, row.after, row.actor])).toEqual([
      [
        { login: false, trading: false, withdrawals: false },
        { login: true, trading: false, withdrawals: false, sessions_ended: 2 },
        'operator:sue@ops.test',
      ],
      [
        { login: true, trading: false, withdrawals: false },
        { login: false, trading: false, withdrawals: false, sessions_ended: 0 },
        'operator:sue@ops.test',
      ],
    ]);
  });

  it('a login freeze also refuses re-entering a demo account with its secret', async () => {
    const demo = await server.call<{ token: string; user: { uid: number }; demo_secret: string }>('GET', ApiPath.createDemo);
    expect(demo.code, demo.msg).toBe(1);
    const reenter = () =>
      server.call('GET', `${ApiPath.createDemo}?demo_id=${demo.data.user.uid}&demo_secret=${demo.data.demo_secret}`);
    expect((await reenter()).code).toBe(1);
    const path = `/admin/api/users/${demo.data.user.uid}/freeze`;
    expect((await server.call('POST', path, { headers: await support(), body: { login: true } })).code).toBe(1);
    expect(await reenter()).toMatchObject({
      code: 1003,
      msg: 'Login to this account has been suspended. Please contact support',
    });
    expect((await me(demo.data.token)).code).toBe(999);
    expect((await server.call('POST', path, { headers: await support(), body: { login: false } })).code).toBe(1);
    expect((await reenter()).code).toBe(1);
  });

  it('a trading freeze refuses market and pending orders with its message; closing stays allowed; lifted it trades again', async () => {
    const trader = await server.trader({ balance: '10000' });
    const opened = await server.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    expect(opened.code, opened.msg).toBe(1);
    // Remembered as not frozen: the freeze must reach the cache.
    expect((await freeze(trader, { trading: true })).data.freezes).toEqual({ login: false, trading: true, withdrawals: false });

    const market = await server.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    expect(market).toMatchObject({
      code: 1003,
      msg: 'Trading on this account has been suspended; open positions can still be closed. Please contact support',
    });
    const pending = await server.submit(
      trader,
      { type: 1, cont: '0.1', forex_id: eurusd, status: 0, multiple: 100, target_price: '1.05000' },
      {},
    );
    expect(pending.code).toBe(1003);
    const inFrench = await server.call('POST', ApiPath.submitOrder, {
      token: trader.token,
      lang: 'fr',
      body: { type: 2, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 },
    });
    expect(inFrench.msg).toBe(
      'Le trading sur ce compte a été suspendu ; les positions ouvertes peuvent toujours être clôturées. Veuillez contacter l’assistance',
    );

    const closed = await server.call('POST', ApiPath.closeOrder, {
      token: trader.token,
      body: { id: (opened.data as OrderView).Id },
    });
    expect(closed.code, closed.msg).toBe(1);

    await freeze(trader, { trading: false });
    const after = await server.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    expect(after.code, after.msg).toBe(1);
    expect((await auditRows(await uidOf(trader), 'user.freeze')).length).toBe(2);
  });

  it('a pending order placed before a trading freeze does not fill after it: retired, its reservation released', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '1000' });
    const placed = await server.submit(trader, {
      type: 1,
      cont: '0.1',
      forex_id: eurusd,
      status: 0,
      target_price: '1.09500',
      multiple: 100,
    });
    expect(placed.code, placed.msg).toBe(1);
    const id = (placed.data as OrderView).Id;
    expect((await server.wallet(trader.userId)).lockBalance).toBe('110.05');

    await freeze(trader, { trading: true });
    await server.tick('EURUSD', '1.09490'); // the ask reaches the target
    await server.engine.settled();
    expect(await server.order(id)).toMatchObject({ status: 3, closeReason: 'trading_frozen', openedAt: null });
    expect(await server.wallet(trader.userId)).toEqual({ balance: '1000.00', lockBalance: '0.00' });
    const history = await server.call<{ data: OrderView[] }>('GET', `${ApiPath.myDeal}?status=3`, {
      token: trader.token,
      lang: 'de',
    });
    expect(history.data.data.find((order) => order.Id === id)).toMatchObject({
      CloseReason: 'trading_frozen',
      CloseReasonTran: 'Nicht ausgeführt: Handel gesperrt',
      UpdatePrice: null,
      TradeFee: null,
    });
    await freeze(trader, { trading: false });
    await server.tick('EURUSD', '1.10000');
  });

  it('a withdrawals freeze refuses a draw with its message and moves no money; lifted it draws', async () => {
    const trader = await server.trader({ balance: '1000' });
    const { methodId, currencyId } = await server.usableMethod(trader);
    await freeze(trader, { withdrawals: true });
    const before = await server.snapshot();
    const refused = await server.draw(trader, { draw_currency_id: currencyId, number: '100', draw_method_id: methodId });
    expect(refused).toMatchObject({
      code: 1003,
      msg: 'Withdrawals from this account have been suspended. Please contact support',
    });
    expect(
      (
        await server.call('POST', ApiPath.draw, {
          token: trader.token,
          lang: 'jp',
          body: { draw_currency_id: currencyId, number: '100', draw_method_id: methodId },
        })
      ).msg,
    ).toBe('このアカウントからの出金は停止されています。サポートにお問い合わせください');
    expect(await server.snapshot()).toEqual(before);
    // The other freezes are untouched: the user still trades.
    const trade = await server.submit(trader, { type: 1, cont: '0.01', forex_id: eurusd, status: 1, multiple: 100 });
    expect(trade.code, trade.msg).toBe(1);

    await freeze(trader, { withdrawals: false });
    const drawn = await server.draw(trader, { draw_currency_id: currencyId, number: '100', draw_method_id: methodId });
    expect(drawn.code, drawn.msg).toBe(1);
  });

  it('the freeze of another process reaches this one through the bus (no stale cache)', async () => {
    const trader = await server.trader({ balance: '10000' });
    expect((await server.submit(trader, { type: 1, cont: '0.01', forex_id: eurusd, status: 1, multiple: 100 })).code).toBe(1);
    // As another process would: the row changes and only the event arrives here.
    await db().update(users).set({ tradingFrozen: true }).where(eq(users.id, trader.userId));
    expect((await server.submit(trader, { type: 1, cont: '0.01', forex_id: eurusd, status: 1, multiple: 100 })).code).toBe(1);
    server.ctx.bus.publish('user.restrictions_changed', { userId: trader.userId });
    expect((await server.submit(trader, { type: 1, cont: '0.01', forex_id: eurusd, status: 1, multiple: 100 })).code).toBe(1003);
    await freeze(trader, { trading: false });
  });

  it('revoke-sessions ends every session (audited) without freezing; bad input and roles are refused', async () => {
    const trader = await server.trader();
    const second = await server.session(trader);
    expect((await me(trader.token)).code).toBe(1);
    const uid = await uidOf(trader);
    const revoked = await server.call('POST', `/admin/api/users/${uid}/revoke-sessions`, { headers: await support() });
    expect(revoked).toMatchObject({ code: 1, msg: '2 sessions ended.', data: { uid, sessions_ended: 2 } });
    expect((await me(trader.token)).code).toBe(999);
    expect((await me(second.token)).code).toBe(999);
    expect((await auditRows(uid, 'user.revoke_sessions')).map((row) => row.after)).toEqual([{ sessions_ended: 2 }]);

    const finance = await server.operatorHeaders('fin', 'finance');
    expect((await server.call('POST', `/admin/api/users/${uid}/revoke-sessions`, { headers: finance })).code).toBe(1003);
    const content = await server.operatorHeaders('cat', 'content');
    expect((await server.call('POST', `/admin/api/users/${uid}/freeze`, { headers: content, body: { login: true } })).code).toBe(
      1003,
    );
    expect(
      (await server.call('POST', `/admin/api/users/${uid}/freeze`, { token: trader.token, body: { login: true } })).code,
    ).toBe(999);
    for (const body of [{}, { login: 'yes' }, { trading: 1 }, { everything: true }]) {
      const bad = await server.call('POST', `/admin/api/users/${uid}/freeze`, { headers: await support(), body });
      expect(bad.code, JSON.stringify(body)).toBe(1001);
    }
    expect(
      await server.call('POST', '/admin/api/users/999999999999/freeze', { headers: await support(), body: { login: true } }),
    ).toMatchObject({
      code: 1004,
      msg: 'No user has this uid.',
    });
    const [row] = await db().select().from(users).where(eq(users.id, trader.userId));
    expect([row!.loginFrozen, row!.tradingFrozen, row!.withdrawalsFrozen]).toEqual([false, false, false]);
  });
});
