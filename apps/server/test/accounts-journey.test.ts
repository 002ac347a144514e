import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './harness.js';
import {
  outboxCode,
  registerByEmail,
  query,
  solveCaptcha,
  startAccountsServer,
  signUpAnswers,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { DB_KINDS } from './harness.js';

interface UserView {
  id: number;
  uid: number;
  email: string;
  mobile: string;
  area_code: string;
  is_demo: number;
  invite_code: string;
  invited_count: number;
}

describe.each(DB_KINDS)('account journey on %s', (kind) => {
  let server: AccountsServer;
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock });
  });
  afterAll(() => server.close());

  it('registers with an emailed code, logs in, changes the password, and the old token dies', async () => {
    const email = 'Ada.Lovelace@Example.com';
    const sent = await server.send('POST', '/api/notify/send_email', {
      body: { to: email, type: 1, ...(await solveCaptcha(server)) },
    });
    expect(sent).toMatchObject({ status: 200, code: 1, msg: 'The verification code has been sent' });
    const code = await outboxCode(server, 'ada.lovelace@example.com');
    const stored = await query<{ code_hash: string }>(server, 'select code_hash from verification_codes');
    expect(stored.map((r) => r.code_hash)).not.toContain(code);

    const registered = await server.send<{ token: string; user: UserView }>('POST', '/api/user/register', {
      form: {
        type: '1',
        account: email,
        password: strongPassword,
        re_password: strongPassword,
        sms_code: code,
        invite_code: '',
        ...signUpAnswers,
      },
    });
    expect(registered).toMatchObject({ code: 1, msg: 'Registration successful' });
    expect(registered.data.token).toMatch(/^[\w-]{43}$/);
    expect(registered.data.user).toMatchObject({ email: 'ada.lovelace@example.com', is_demo: 0, mobile: '', invited_count: 0 });
    expect(String(registered.data.user.uid)).toMatch(/^[1-9]\d{7}$/);
    expect(registered.data.user.invite_code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    const wallet = await query<{ balance: string }>(
      server,
      `select balance::text from wallets where user_id = ${registered.data.user.id}`,
    );
    expect(wallet).toEqual([{ balance: '0.00' }]);

    const login = await server.send<{ token: string; user: UserView }>('POST', '/api/user/loginForU', {
      form: { account: 'ADA.lovelace@example.com', password: strongPassword, login_type: '1' },
    });
    expect(login).toMatchObject({ code: 1, msg: 'Logged in', data: { user: { id: registered.data.user.id } } });
    const token = login.data.token;
    const [sessionRow] = await query<{ ip: string; user_agent: string; token_hash: string }>(
      server,
      `select ip, user_agent, token_hash from sessions order by id desc limit 1`,
    );
    expect(sessionRow?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionRow?.token_hash).not.toBe(token);
    expect(sessionRow?.ip).toMatch(/^10\./);

    const info = await server.send<UserView>('GET', '/api/user/info', { token: `Bearer ${token}` });
    expect(info).toMatchObject({ code: 1, data: registered.data.user });

    // The register code went out less than a minute ago: the reset code waits for the minute to pass.
    clock.advance(61_000);
    const revokedEvents: number[][] = [];
    server.ctx.bus.subscribe('session.revoked', (event) => revokedEvents.push(event.sessionIds));
    const resetSent = await server.send('POST', '/api/notify/send_email', {
      body: { to: 'ada.lovelace@example.com', type: 2, ...(await solveCaptcha(server)) },
    });
    expect(resetSent.code, resetSent.msg).toBe(1);
    const resetCode = await outboxCode(server, 'ada.lovelace@example.com');
    const newPassword = 'Another456';
    const amended = await server.send('POST', '/api/user/amend_password', {
      token,
      form: { new_password: newPassword, auth_code: resetCode, type: '1' },
    });
    expect(amended).toMatchObject({ code: 1, msg: 'Your password has been changed' });
    expect(revokedEvents).toHaveLength(1);

    // The registration session is gone; the session that changed the password lives on.
    const old = await server.send('GET', '/api/user/info', { token: registered.data.token });
    expect(old).toMatchObject({ status: 200, code: 999, data: null });
    expect((await server.send('GET', '/api/user/info', { token })).code).toBe(1);

    const oldPassword = await server.send('POST', '/api/user/loginForU', { form: { account: email, password: strongPassword } });
    expect(oldPassword).toMatchObject({ code: 1002, msg: 'Incorrect account or password' });
    const newLogin = await server.send('POST', '/api/user/loginForU', { form: { account: email, password: newPassword } });
    expect(newLogin.code).toBe(1);

    const logout = await server.send('POST', '/api/user/logout', { token });
    expect(logout).toMatchObject({ code: 1, msg: 'Logged out' });
    expect((await server.send('GET', '/api/user/info', { token })).code).toBe(999);
    expect((await server.send('POST', '/api/user/logout', { token })).code).toBe(999);
  });

  it('resets a forgotten password with a reset code and ends every session', async () => {
    const { token, user } = await registerByEmail(server, 'grace@example.com');
    clock.advance(61_000);
    const sent = await server.send('POST', '/api/notify/send_email', {
      body: { to: 'grace@example.com', type: 2, ...(await solveCaptcha(server)) },
    });
    expect(sent.code).toBe(1);
    const code = await outboxCode(server, 'grace@example.com');
    const reset = await server.send('POST', '/api/user/forget_password', {
      lang: 'fr',
      form: {
        type: '1',
        account: 'grace@example.com',
        new_password: 'Fresh7890',
        secondary_password: 'Fresh7890',
        auth_code: code,
      },
    });
    expect(reset).toMatchObject({ code: 1, msg: 'Votre mot de passe a été réinitialisé ; veuillez vous connecter' });
    expect((await server.send('GET', '/api/user/info', { token })).code).toBe(999);
    const login = await server.send<{ user: UserView }>('POST', '/api/user/loginForU', {
      form: { account: 'grace@example.com', password: 'Fresh7890' },
    });
    expect(login.data.user.id).toBe(user.id);
    // The code was used up.
    const again = await server.send('POST', '/api/user/forget_password', {
      form: {
        type: '1',
        account: 'grace@example.com',
        new_password: 'Other12345',
        secondary_password: 'Other12345',
        auth_code: code,
      },
    });
    expect(again).toMatchObject({ code: 1002, msg: 'Please request a verification code first' });
  });

  it('records who invited whom', async () => {
    const inviter = await registerByEmail(server, 'inviter@example.com');
    const invitee = await registerByEmail(server, 'invitee@example.com', strongPassword, {
      invite_code: inviter.user.invite_code.toLowerCase(),
    });
    const invitedBy = await query<{ invited_by: number }>(
      server,
      `select invited_by::int from users where id = ${invitee.user.id}`,
    );
    expect(invitedBy[0]?.invited_by).toBe(inviter.user.id);
    const info = await server.send<UserView>('GET', '/api/user/info', { token: inviter.token });
    expect(info.data.invited_count).toBe(1);
  });

  it('registers by phone and logs in with or without the dialling code', async () => {
    const setPolicy = (type: string) => server.ctx.settings.set({ verify_reg_type: type });
    await setPolicy('3');
    try {
      const areas = await server.send<{ id: number; code: string; global_code: string }[]>('GET', '/api/default/area_list');
      const hongKong = areas.data.find((a) => a.code === 'HK');
      expect(hongKong?.global_code).toBe('+852');
      const sent = await server.send('POST', '/api/notify/send_sms', {
        lang: 'de',
        body: { to: '9123 4567', area_id: hongKong?.id, type: 1, ...(await solveCaptcha(server)) },
      });
      expect(sent).toMatchObject({ code: 1, msg: 'Der Bestätigungscode wurde gesendet' });
      const outbox = await query<{ channel: string; body: string }>(
        server,
        `select channel, body from outbox_messages where destination = '+85291234567'`,
      );
      expect(outbox[0]?.channel).toBe('sms');
      expect(outbox[0]?.body).toMatch(/^\[Pipwise\] Ihr Bestätigungscode lautet \d{6}/);
      const code = await outboxCode(server, '+85291234567');
      const registered = await server.send<{ user: UserView }>('POST', '/api/user/register', {
        form: {
          type: '2',
          area_id: String(hongKong?.id),
          mobile: '91234567',
          password: 'Phone1234',
          re_password: 'Phone1234',
          ...signUpAnswers,
          sms_code: code,
        },
      });
      expect(registered).toMatchObject({ code: 1, data: { user: { mobile: '91234567', area_code: '+852', email: '' } } });
      for (const account of ['+852 9123 4567', '85291234567', '0085291234567', '91234567']) {
        const login = await server.send<{ user: UserView }>('POST', '/api/user/loginForU', {
          form: { account, password: 'Phone1234' },
        });
        expect(login.code, account).toBe(1);
        expect(login.data.user.id).toBe(registered.data.user.id);
      }
    } finally {
      await setPolicy('1');
    }
  });

  it('creates a demo account with the demo balance in the ledger and logs back into it with its device secret', async () => {
    const demo = await server.send<{ token: string; user: UserView; demo_secret: string }>(
      'GET',
      '/api/user/createAccountDemoForU?timestamp=1700000000',
    );
    expect(demo).toMatchObject({ code: 1, data: { user: { is_demo: 1, email: '', mobile: '' } } });
    const { id, uid } = demo.data.user;
    const [money] = await query<{ balance: string; ledger: string; entries: string; memo_key: string }>(
      server,
      `select w.balance::text as balance,
        (select sum(amount)::text from ledger_entries where user_id = ${id}) as ledger,
        (select count(*)::text from ledger_entries where user_id = ${id}) as entries,
        (select memo_key from ledger_entries where user_id = ${id} limit 1) as memo_key
        from wallets w where w.user_id = ${id}`,
    );
    expect(money).toEqual({ balance: '100000.00', ledger: '100000.00', entries: '1', memo_key: 'ledger_demo_grant' });

    const again = await server.send<{ token: string; user: UserView }>(
      'GET',
      `/api/user/createAccountDemoForU?demo_id=${uid}&demo_secret=${demo.data.demo_secret}`,
    );
    expect(again.code).toBe(1);
    expect(again.data.user.id).toBe(id);
    expect(again.data.token).not.toBe(demo.data.token);
    expect((await server.send('GET', '/api/user/info', { token: again.data.token })).code).toBe(1);

    // Demo accounts cannot change a password (docs/api.md), in the user's language.
    const blocked = await server.send('POST', '/api/user/amend_password', {
      token: again.data.token,
      lang: 'tw',
      form: { new_password: 'Whatever123', auth_code: '123456' },
    });
    expect(blocked).toMatchObject({ status: 200, code: 1003, msg: '請註冊或登入真實帳戶' });
  });
});
