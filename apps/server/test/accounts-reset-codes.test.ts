import { CODE_MAX_ATTEMPTS } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_DAILY_GUESSES } from '../src/modules/accounts/codes.js';
import { INVITE_LOOKUP_MAX_MISSES } from '../src/modules/accounts/service.js';
import {
  freshIp,
  outboxCode,
  query,
  registerByEmail,
  startAccountsServer,
  signUpAnswers,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { DB_KINDS, ManualClock } from './harness.js';

interface Answer {
  status: number;
  retryAfter: string | null;
  code: number;
  msg: string;
  data: unknown;
}

/** A form post from `ip`, with the Retry-After header. */
async function post(server: AccountsServer, path: string, form: Record<string, string>, ip = freshIp()): Promise<Answer> {
  const response = await fetch(server.baseUrl + path, {
    method: 'POST',
    headers: { lang: 'en', 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const json = (await response.json()) as { code: number; msg: string; data: unknown };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), ...json };
}

describe.each(DB_KINDS)('reset codes and invite codes on %s', (kind) => {
  let server: AccountsServer;
  const clock = new ManualClock('2026-05-04T09:00:00Z');
  let counter = 0;
  const freshEmail = (name: string) => `${name}.${++counter}@example.com`;

  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock, env: { CAPTCHA_REQUIRED: 'false' } });
  });
  afterAll(() => server.close());

  const requestReset = (email: string, ip?: string) => post(server, '/api/notify/send_email', { to: email, type: '2' }, ip);
  const forget = (email: string, auth_code: string, ip?: string) =>
    post(
      server,
      '/api/user/forget_password',
      { type: '1', account: email, new_password: 'Taken1234', secondary_password: 'Taken1234', auth_code },
      ip,
    );
  const codeRows = (email: string) =>
    query<{ attempts: number; consumed: boolean }>(
      server,
      `select attempts, consumed_at is not null as consumed from verification_codes where destination = '${email}' order by id`,
    );
  const outboxCount = async (email: string) =>
    Number(
      (await query<{ n: string }>(server, `select count(*)::text as n from outbox_messages where destination = '${email}'`))[0]
        ?.n,
    );

  describe('tell nobody whether an address has an account', () => {
    it('answers a reset-code request, and a second one within the minute, alike for a known and an unknown address', async () => {
      const known = freshEmail('known');
      await registerByEmail(server, known);
      clock.advance(61_000);
      const unknown = freshEmail('unknown');

      const first = [await requestReset(known), await requestReset(unknown)];
      expect(first[0]).toMatchObject({ status: 200, code: 1 });
      expect(first[1]).toEqual(first[0]);

      clock.advance(10_000);
      const second = [await requestReset(known), await requestReset(unknown)];
      expect(second[0]).toMatchObject({ code: 1002, msg: 'Please wait 50 seconds before requesting another code' });
      expect(second[1]).toEqual(second[0]);

      // The same work for both: a code is stored for the unknown address too (a second one after the
      // minute supersedes it), but only the account's owner is sent anything.
      clock.advance(60_000);
      expect(await requestReset(unknown)).toEqual(first[0]);
      expect(await codeRows(unknown)).toEqual([
        { attempts: 0, consumed: true },
        { attempts: 0, consumed: false },
      ]);
      expect(await outboxCount(unknown)).toBe(0);
      expect(await outboxCount(known)).toBe(2);
    });

    it('answers a wrong reset code alike for a known and an unknown address, and spends a try on both', async () => {
      const known = freshEmail('known');
      await registerByEmail(server, known);
      clock.advance(61_000);
      const unknown = freshEmail('unknown');
      expect((await requestReset(known)).code).toBe(1);
      expect((await requestReset(unknown)).code).toBe(1);

      const wrong = [await forget(known, '000000'), await forget(unknown, '000000')];
      expect(wrong[0]).toMatchObject({ code: 1002, msg: 'The verification code is incorrect' });
      expect(wrong[1]).toEqual(wrong[0]);
      expect((await codeRows(unknown)).at(-1)).toEqual({ attempts: 1, consumed: false });

      // Without any code requested, both are told to request one.
      const never = [await forget(freshEmail('quiet'), '123456'), await forget(freshEmail('nobody'), '123456')];
      expect(never[0]).toMatchObject({ code: 1002, msg: 'Please request a verification code first' });
      expect(never[1]).toEqual(never[0]);
    });
  });

  describe('guess budgets per code and per address', () => {
    it("never lets a botnet's wrong guesses block the owner's fresh code", async () => {
      const email = freshEmail('guessed');
      await registerByEmail(server, email);
      // Many addresses: each stays far below its own budget, only the codes' tries run out.
      let guesses = 0;
      while (guesses < CODE_DAILY_GUESSES + CODE_MAX_ATTEMPTS) {
        clock.advance(61_000);
        expect((await requestReset(email)).code).toBe(1);
        for (let i = 0; i < CODE_MAX_ATTEMPTS; i++, guesses++) {
          const wrong = await forget(email, String(100_000 + guesses));
          expect(wrong.msg).toBe('The verification code is incorrect');
        }
        // A spent code takes no more tries, the right one included.
        expect((await forget(email, String(100_000 + guesses))).msg).toBe('Too many wrong attempts; please request a new code');
      }
      // The owner asks for a fresh code and it goes through.
      clock.advance(61_000);
      const owner = '203.0.113.7';
      expect((await requestReset(email, owner)).code).toBe(1);
      const reset = await forget(email, await outboxCode(server, email), owner);
      expect(reset).toMatchObject({ status: 200, code: 1 });
      const login = await post(server, '/api/user/loginForU', { account: email, password: 'Taken1234' });
      expect(login.code).toBe(1);
    });

    it("gives one address a day's budget of wrong guesses across codes, accounts and purposes, then 429", async () => {
      // Fewer tries per route than the per-IP route limits allow: only the guess budget can refuse.
      const attacker = '198.51.100.77';
      const victims = [freshEmail('victim'), freshEmail('victim')];
      for (const victim of victims) await registerByEmail(server, victim);
      const strangers = [freshEmail('stranger'), freshEmail('stranger'), freshEmail('stranger')];
      clock.advance(61_000);
      for (const victim of victims) expect((await requestReset(victim)).code).toBe(1);
      for (const stranger of strangers)
        expect((await post(server, '/api/notify/send_email', { to: stranger, type: '1' })).code).toBe(1);
      const tries = CODE_MAX_ATTEMPTS - 1;
      let guesses = 0;
      for (const victim of victims) {
        for (let i = 0; i < tries; i++, guesses++) {
          expect((await forget(victim, String(200_000 + guesses), attacker)).msg).toBe('The verification code is incorrect');
        }
      }
      for (const stranger of strangers) {
        for (let i = 0; i < tries && guesses < CODE_DAILY_GUESSES; i++, guesses++) {
          const form = {
            type: '1',
            account: stranger,
            password: strongPassword,
            re_password: strongPassword,
            sms_code: String(300_000 + guesses),
            ...signUpAnswers,
          };
          expect((await post(server, '/api/user/register', form, attacker)).msg).toBe('The verification code is incorrect');
        }
      }
      expect(guesses).toBe(CODE_DAILY_GUESSES);
      const victim = victims[0]!;
      const capped = await forget(victim, await outboxCode(server, victim), attacker);
      expect(capped).toMatchObject({ status: 429, code: 1429, data: null });
      expect(Number(capped.retryAfter)).toBeGreaterThan(0);
      // The refused try spent none of the code's tries: its owner, elsewhere, still resets with it.
      expect(await codeRows(victim)).toContainEqual({ attempts: tries, consumed: false });
      const reset = await forget(victim, await outboxCode(server, victim), '203.0.113.8');
      expect(reset.code, reset.msg).toBe(1);
      // A day later the address has its budget again.
      clock.advance(86_400_000);
      expect(await forget(victims[1]!, '999999', attacker)).toMatchObject({ status: 200, code: 1002 });
    });
  });

  describe('invite codes', () => {
    const register = async (invite_code: string, ip: string) => {
      const email = freshEmail('invitee');
      clock.advance(61_000);
      expect((await post(server, '/api/notify/send_email', { to: email, type: '1' })).code).toBe(1);
      return post(
        server,
        '/api/user/register',
        {
          type: '1',
          account: email,
          password: strongPassword,
          re_password: strongPassword,
          sms_code: await outboxCode(server, email),
          ...signUpAnswers,
          invite_code,
        },
        ip,
      );
    };

    it('cannot be probed without limit: one address gets a few unknown codes a day, then 429', async () => {
      const inviter = await registerByEmail(server, freshEmail('inviter'));
      const prober = '198.51.100.88';
      for (let i = 0; i < INVITE_LOOKUP_MAX_MISSES; i++) {
        expect((await register(`ZZZZ${2222 + i}`, prober)).msg).toBe('The invite code does not exist');
      }
      const capped = await register(inviter.user.invite_code, prober);
      expect(capped).toMatchObject({ status: 429, code: 1429, data: null });
      expect(Number(capped.retryAfter)).toBeGreaterThan(0);
      // Other addresses are not held back, and a real code registers.
      expect((await register(inviter.user.invite_code, '203.0.113.9')).code).toBe(1);
    });
  });
});
