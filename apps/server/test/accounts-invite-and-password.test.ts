import { ResponseCode } from '@pipwise/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../src/i18n/catalog.js';
import {
  outboxCode,
  query,
  registerByEmail,
  snapshot,
  solveCaptcha,
  startAccountsServer,
  signUpAnswers,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS, ManualClock } from './harness.js';

const en = (key: string) => translate('en', key);
const hk = (key: string) => translate('hk', key);
const NEW_PASSWORD = 'Changed456';

interface InviteInfo {
  invite_code: string;
  invited_count: number;
}

describe.each(DB_KINDS)('invite and password change on %s', (kind) => {
  let server: AccountsServer;
  const clock = new ManualClock('2026-04-06T09:00:00Z');
  let emailCounter = 0;
  const freshEmail = (name: string) => `${name}.${++emailCounter}@example.com`;

  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const bearer = (token: string) => `Bearer ${token}`;

  /** Every code send waits out the previous one's minute (the per-destination resend rule). */
  const sendOwnCode = async (token: string, body: Record<string, unknown> = {}) => {
    clock.advance(61_000);
    return server.send('POST', '/api/user/password_code', {
      token: bearer(token),
      body: { ...body, ...(await solveCaptcha(server)) },
    });
  };

  const outboxCount = async (destination: string) => {
    const [row] = await query<{ n: string }>(
      server,
      `select count(*)::text as n from outbox_messages where destination = '${destination}'`,
    );
    return Number(row?.n);
  };

  const login = (account: string, password: string) =>
    server.send<{ token: string }>('POST', '/api/user/loginForU', { form: { account, password, login_type: '1' } });

  describe('invite', () => {
    it('counts the accounts registered with the invite code, and only those', async () => {
      const inviter = await registerByEmail(server, freshEmail('inviter'));
      const before = await server.send<InviteInfo>('GET', '/api/user/invite_info', { token: bearer(inviter.token) });
      expect(before).toMatchObject({ code: 1, data: { invite_code: inviter.user.invite_code, invited_count: 0 } });

      await registerByEmail(server, freshEmail('invitee'), strongPassword, {
        invite_code: inviter.user.invite_code.toLowerCase(),
      });
      await registerByEmail(server, freshEmail('stranger'));

      const after = await server.send<InviteInfo>('GET', '/api/user/invite_info', { token: bearer(inviter.token) });
      expect(after.data).toEqual({ invite_code: inviter.user.invite_code, invited_count: 1 });
      const info = await server.send<InviteInfo>('GET', '/api/user/info', { token: bearer(inviter.token) });
      expect(info.data.invited_count).toBe(1);
    });

    it('refuses an unknown invite code with a message and registers no one', async () => {
      const inviter = await registerByEmail(server, freshEmail('inviter'));
      const email = freshEmail('invitee');
      const sent = await server.send('POST', '/api/notify/send_email', {
        body: { to: email, type: 1, ...(await solveCaptcha(server)) },
      });
      expect(sent.code, sent.msg).toBe(1);
      const before = await snapshot(server);
      const refused = await server.send('POST', '/api/user/register', {
        lang: 'hk',
        form: {
          type: '1',
          account: email,
          password: strongPassword,
          re_password: strongPassword,
          ...signUpAnswers,
          sms_code: await outboxCode(server, email),
          invite_code: 'ZZZZ2222',
        },
      });
      expect(refused.msg).toBe(hk('invite_code_unknown'));
      expect(refused.code).not.toBe(1);
      expect(await snapshot(server)).toEqual(before);
      const info = await server.send<InviteInfo>('GET', '/api/user/invite_info', { token: bearer(inviter.token) });
      expect(info.data.invited_count).toBe(0);
    });

    it('needs a signed-in user', async () => {
      const answer = await server.send('GET', '/api/user/invite_info');
      expect(answer.code).toBe(ResponseCode.notLoggedIn);
    });
  });

  describe('demo accounts', () => {
    it('are refused the invite link, password codes and password changes, and nothing is sent or changed', async () => {
      const demo = await server.send<{ token: string }>('GET', '/api/user/createAccountDemoForU');
      expect(demo.code).toBe(1);
      const proof = await solveCaptcha(server);
      const before = await snapshot(server);
      const token = bearer(demo.data.token);
      const answers = [
        await server.send('GET', '/api/user/invite_info', { token }),
        await server.send('POST', '/api/user/password_code', { token, body: { type: 1, ...proof } }),
        await server.send('POST', '/api/user/amend_password', {
          token,
          form: { new_password: NEW_PASSWORD, re_password: NEW_PASSWORD, auth_code: '123456' },
        }),
      ];
      for (const answer of answers) {
        expect(answer).toMatchObject({ code: ResponseCode.forbidden, msg: en('demo_not_allowed') });
      }
      expect(await snapshot(server)).toEqual(before);
    });
  });

  describe('password change', () => {
    it('takes a code sent to the own email, ends the other sessions and keeps this one', async () => {
      const email = freshEmail('changer');
      const { token } = await registerByEmail(server, email);
      const other = await login(email, strongPassword);
      expect(other.code, other.msg).toBe(1);

      const sent = await sendOwnCode(token);
      expect(sent).toMatchObject({ code: 1, msg: en('code_sent') });
      const changed = await server.send('POST', '/api/user/amend_password', {
        token: bearer(token),
        form: { new_password: NEW_PASSWORD, re_password: NEW_PASSWORD, auth_code: await outboxCode(server, email), type: '1' },
      });
      expect(changed).toMatchObject({ code: 1, msg: en('password_changed') });

      expect((await server.send('GET', '/api/user/info', { token: bearer(token) })).code).toBe(1);
      expect((await server.send('GET', '/api/user/info', { token: bearer(other.data.token) })).code).toBe(
        ResponseCode.notLoggedIn,
      );
      expect(await login(email, strongPassword)).toMatchObject({ code: ResponseCode.rejected, msg: en('login_failed') });
      expect((await login(email, NEW_PASSWORD)).code).toBe(1);
    });

    it('sends the code to the own contact whatever address the request names', async () => {
      const ownEmail = freshEmail('owner');
      const victimEmail = freshEmail('victim');
      const { token } = await registerByEmail(server, ownEmail);
      await registerByEmail(server, victimEmail);
      const victimMail = await outboxCount(victimEmail);
      const ownMail = await outboxCount(ownEmail);

      const sent = await sendOwnCode(token, { to: victimEmail, type: 1 });
      expect(sent.code, sent.msg).toBe(1);
      expect(await outboxCount(victimEmail)).toBe(victimMail);
      expect(await outboxCount(ownEmail)).toBe(ownMail + 1);
    });

    it("refuses a code sent to another user's contact", async () => {
      const ownEmail = freshEmail('owner');
      const otherEmail = freshEmail('other');
      const { token } = await registerByEmail(server, ownEmail);
      await registerByEmail(server, otherEmail);
      clock.advance(61_000);
      const reset = await server.send('POST', '/api/notify/send_email', {
        body: { to: otherEmail, type: 2, ...(await solveCaptcha(server)) },
      });
      expect(reset.code, reset.msg).toBe(1);
      const before = await snapshot(server);
      const refused = await server.send('POST', '/api/user/amend_password', {
        token: bearer(token),
        form: { new_password: NEW_PASSWORD, re_password: NEW_PASSWORD, auth_code: await outboxCode(server, otherEmail) },
      });
      expect(refused).toMatchObject({ code: ResponseCode.rejected, msg: en('code_not_found') });
      expect(await snapshot(server)).toEqual(before);
    });

    it('tells a phone-less user that there is no phone to send to', async () => {
      const email = freshEmail('mailonly');
      const { token } = await registerByEmail(server, email);
      const [codes] = await query<{ n: string }>(server, 'select count(*)::text as n from verification_codes');
      const mail = await outboxCount(email);
      const refused = await sendOwnCode(token, { type: 2 });
      expect(refused).toMatchObject({ code: ResponseCode.rejected, msg: en('contact_missing') });
      expect(await query(server, 'select count(*)::text as n from verification_codes')).toEqual([codes]);
      expect(await outboxCount(email)).toBe(mail);
    });

    it('needs the captcha to send a code', async () => {
      const email = freshEmail('nocaptcha');
      const { token } = await registerByEmail(server, email);
      clock.advance(61_000);
      const mail = await outboxCount(email);
      const refused = await server.send('POST', '/api/user/password_code', { token: bearer(token), body: { type: 1 } });
      expect(refused.code).not.toBe(1);
      expect(refused.msg).toBe(en('captcha_required'));
      expect(await outboxCount(email)).toBe(mail);
    });

    describe('bad input leaves the password and sessions as they were, with a localized message', () => {
      let email: string;
      let token: string;
      let code: string;

      beforeAll(async () => {
        email = freshEmail('badinput');
        ({ token } = await registerByEmail(server, email));
        await login(email, strongPassword);
        expect((await sendOwnCode(token)).code).toBe(1);
        code = await outboxCode(server, email);
      });

      const cases: [string, Record<string, string>, string, Record<string, string>?][] = [
        ['no new password', { new_password: '', re_password: '', auth_code: '123456' }, 'form_incomplete'],
        [
          'different confirmation',
          { new_password: NEW_PASSWORD, re_password: 'Other7890', auth_code: '123456' },
          'password_mismatch',
        ],
        ['a weak password', { new_password: 'short1', re_password: 'short1', auth_code: '123456' }, 'password_rules'],
        ['no code', { new_password: NEW_PASSWORD, re_password: NEW_PASSWORD, auth_code: '' }, 'code_required'],
        ['a malformed code', { new_password: NEW_PASSWORD, re_password: NEW_PASSWORD, auth_code: '12ab56' }, 'code_invalid'],
        [
          'a NUL byte',
          { new_password: `${NEW_PASSWORD}\u0000`, re_password: `${NEW_PASSWORD}\u0000`, auth_code: '123456' },
          'field_characters_invalid',
          { field: 'new_password' },
        ],
        [
          'an unknown type',
          { new_password: NEW_PASSWORD, re_password: NEW_PASSWORD, auth_code: '123456', type: '3' },
          'register_type_invalid',
        ],
      ];

      it.each(cases)('%s', async (_name, form, key, params) => {
        const before = await snapshot(server);
        for (const lang of ['en', 'hk'] as const) {
          const answer = await server.send('POST', '/api/user/amend_password', { token: bearer(token), form, lang });
          expect(answer.code).toBe(ResponseCode.invalidInput);
          expect(answer.msg).toBe(translate(lang, key, params));
        }
        expect(await snapshot(server)).toEqual(before);
      });

      it('a wrong code', async () => {
        const before = await snapshot(server);
        const wrong = code === '000000' ? '111111' : '000000';
        const answer = await server.send('POST', '/api/user/amend_password', {
          token: bearer(token),
          form: { new_password: NEW_PASSWORD, re_password: NEW_PASSWORD, auth_code: wrong },
          lang: 'hk',
        });
        expect(answer).toMatchObject({ code: ResponseCode.rejected, msg: hk('code_incorrect') });
        expect(await snapshot(server)).toEqual(before);
      });

      it('an expired code', async () => {
        clock.advance(601_000);
        const before = await snapshot(server);
        const answer = await server.send('POST', '/api/user/amend_password', {
          token: bearer(token),
          form: { new_password: NEW_PASSWORD, re_password: NEW_PASSWORD, auth_code: code },
        });
        expect(answer).toMatchObject({ code: ResponseCode.rejected, msg: en('code_expired') });
        expect(await snapshot(server)).toEqual(before);
      });

      it('a NUL byte in the send-code request', async () => {
        const mail = await outboxCount(email);
        const answer = await server.send('POST', '/api/user/password_code', {
          token: bearer(token),
          body: { type: 1, key: 'k\u0000', captcha: 'abcd' },
        });
        expect(answer).toMatchObject({
          code: ResponseCode.invalidInput,
          msg: translate('en', 'field_characters_invalid', { field: 'key' }),
        });
        expect(await outboxCount(email)).toBe(mail);
      });
    });
  });
});
