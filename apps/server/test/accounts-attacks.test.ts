import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { CODE_DAILY_SENDS } from '../src/modules/accounts/codes.js';
import { ROUTE_LIMITS } from '../src/modules/accounts/routes.js';
import { LOGIN_CAPTCHA_AFTER, LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES } from '../src/modules/accounts/service.js';
import {
  query,
  registerByEmail,
  snapshot,
  solveCaptcha,
  startAccountsServer,
  signUpAnswers,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { DB_KINDS, ManualClock } from './harness.js';

interface Answer<T = unknown> {
  status: number;
  retryAfter: string | null;
  code: number;
  msg: string;
  data: T;
}

/** A call from `ip` that also returns the Retry-After header. */
async function call<T = unknown>(
  server: AccountsServer,
  method: 'GET' | 'POST',
  path: string,
  { form, ip, lang = 'en' }: { form?: Record<string, string>; ip: string; lang?: string },
): Promise<Answer<T>> {
  const response = await fetch(server.baseUrl + path, {
    method,
    headers: {
      lang,
      'x-forwarded-for': ip,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  const json = (await response.json()) as { code: number; msg: string; data: T };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), ...json };
}

/** Everything the server logged, one parsed line each. */
function logCapture() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

describe.each(DB_KINDS)('accounts under attack on %s', (kind) => {
  let server: AccountsServer;
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  const log = logCapture();
  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock, env: { CAPTCHA_REQUIRED: 'false' }, logStream: log.stream });
  });
  afterAll(() => server.close());

  it('caps codes sent to one destination per day, with Retry-After', async () => {
    const email = 'flooded@example.com';
    await registerByEmail(server, email);
    const [row] = await query<{ n: number }>(
      server,
      `select count(*)::int as n from verification_codes where destination = '${email}'`,
    );
    for (let sent = row?.n ?? 0; sent < CODE_DAILY_SENDS; sent++) {
      clock.advance(61_000);
      const answer = await call(server, 'POST', '/api/notify/send_email', {
        ip: `198.51.100.${20 + sent}`,
        form: { to: email, type: '2' },
      });
      expect(answer.code, answer.msg).toBe(1);
    }
    clock.advance(61_000);
    const capped = await call(server, 'POST', '/api/notify/send_email', {
      ip: '198.51.100.99',
      lang: 'fr',
      form: { to: email, type: '2' },
    });
    expect(capped).toMatchObject({ status: 429, code: 1429 });
    expect(capped.msg).toBe(
      "Ce compte a atteint la limite de codes de vérification pour aujourd'hui. Veuillez réessayer plus tard",
    );
    expect(Number(capped.retryAfter)).toBeGreaterThan(0);
  });

  it("slows the attacker's address, steps the account up to the captcha, and mails the owner once", async () => {
    const email = 'owner@example.com';
    await registerByEmail(server, email);
    // The owner's last login was in German: the alert is written in German.
    expect(
      (
        await call(server, 'POST', '/api/user/loginForU', {
          ip: '203.0.113.5',
          lang: 'de',
          form: { account: email, password: strongPassword },
        })
      ).code,
    ).toBe(1);
    const [last] = await query<{ id: number }>(server, `select max(id)::int as id from outbox_messages`);
    const attacker = '198.51.100.66';
    const wrong = async (i: number) => {
      const captcha = i >= LOGIN_CAPTCHA_AFTER ? await solveCaptcha(server) : {};
      return call(server, 'POST', '/api/user/loginForU', {
        ip: attacker,
        form: { account: email, password: `Guess${i}abc`, ...captcha },
      });
    };
    for (let i = 0; i < LOGIN_CAPTCHA_AFTER; i++) expect((await wrong(i)).msg).toBe('Incorrect account or password');
    // Stepped up: without a captcha no password is even tried.
    const noCaptcha = await call(server, 'POST', '/api/user/loginForU', {
      ip: attacker,
      form: { account: email, password: 'Guess9abc' },
    });
    expect(noCaptcha).toMatchObject({ status: 200, code: 1001, msg: 'Please enter the characters shown in the image' });
    for (let i = LOGIN_CAPTCHA_AFTER; i < LOGIN_MAX_FAILURES; i++)
      expect((await wrong(i)).msg).toBe('Incorrect account or password');

    // The 11th try from the attacker's address: 429 with Retry-After, even with the right password.
    const eleventh = await wrong(LOGIN_MAX_FAILURES);
    expect(eleventh).toMatchObject({ status: 429, code: 1429, data: null });
    expect(Number(eleventh.retryAfter)).toBeGreaterThan(0);
    expect(Number(eleventh.retryAfter)).toBeLessThanOrEqual(LOGIN_FAILURE_WINDOW_MS / 1000);
    const right = await call(server, 'POST', '/api/user/loginForU', {
      ip: attacker,
      form: { account: email, password: strongPassword, ...(await solveCaptcha(server)) },
    });
    expect(right).toMatchObject({ status: 429, code: 1429 });
    expect(right.retryAfter).not.toBeNull();

    // The owner, from another address, still gets in: with the captcha, as the account is stepped up.
    const owner = '203.0.113.5';
    const asked = await call(server, 'POST', '/api/user/loginForU', {
      ip: owner,
      lang: 'de',
      form: { account: email, password: strongPassword },
    });
    expect(asked).toMatchObject({ code: 1001, msg: 'Bitte geben Sie die Zeichen aus dem Bild ein' });
    const ownerIn = await call<{ token: string }>(server, 'POST', '/api/user/loginForU', {
      ip: owner,
      lang: 'de',
      form: { account: email, password: strongPassword, ...(await solveCaptcha(server)) },
    });
    expect(ownerIn.code, ownerIn.msg).toBe(1);
    expect(ownerIn.data.token).toBeTruthy();

    // One alert for the whole attack, in the owner's language, naming the attacker's address.
    const mails = await query<{ subject: string; body: string }>(
      server,
      `select subject, body from outbox_messages where destination = '${email}' and id > ${last?.id ?? 0}`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Jemand versucht, sich bei Ihrem Pipwise-Konto anzumelden');
    expect(mails[0]?.body).toContain(attacker);

    // The attacker's address may try again once its window has passed.
    clock.advance(LOGIN_FAILURE_WINDOW_MS);
    expect((await wrong(LOGIN_MAX_FAILURES + 1)).msg).toBe('Incorrect account or password');
  });

  it('counts tries sent in parallel from one address before checking them', async () => {
    const email = 'parallel@example.com';
    await registerByEmail(server, email);
    const captchas = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES + 5; i++) captchas.push(await solveCaptcha(server));
    const answers = await Promise.all(
      captchas.map((captcha, i) =>
        call(server, 'POST', '/api/user/loginForU', {
          ip: '198.51.100.88',
          form: { account: email, password: `Parallel${i}x`, ...captcha },
        }),
      ),
    );
    expect(answers.filter((a) => a.msg === 'Incorrect account or password')).toHaveLength(LOGIN_MAX_FAILURES);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
  });

  it('answers the per-address route limit with 429 and Retry-After too', async () => {
    const ip = '198.51.100.77';
    let last: Answer | undefined;
    for (let i = 0; i <= ROUTE_LIMITS.login.max; i++) {
      last = await call(server, 'POST', '/api/user/loginForU', {
        ip,
        form: { account: `nobody${i}@example.com`, password: 'Nope12345' },
      });
    }
    expect(last).toMatchObject({ status: 429, code: 1429 });
    expect(Number(last?.retryAfter)).toBeGreaterThan(0);
  });

  it('re-enters a demo account only with the secret its device kept, never by its public uid', async () => {
    const created = await call<{ token: string; user: { uid: number }; demo_secret: string }>(
      server,
      'GET',
      '/api/user/createAccountDemoForU',
      { ip: '203.0.113.30' },
    );
    expect(created.code).toBe(1);
    const { uid } = created.data.user;
    const secret = created.data.demo_secret;
    expect(secret).toMatch(/^[\w-]{40,}$/);
    const [stored] = await query<{ demo_secret_hash: string }>(server, `select demo_secret_hash from users where uid = ${uid}`);
    expect(stored?.demo_secret_hash).toBeTruthy();
    expect(stored?.demo_secret_hash).not.toContain(secret);

    const before = await snapshot(server);
    for (const search of [`demo_id=${uid}`, `demo_id=${uid}&demo_secret=${'x'.repeat(43)}`, `demo_secret=${secret}`]) {
      const refused = await call(server, 'GET', `/api/user/createAccountDemoForU?${search}`, { ip: '198.51.100.40' });
      expect(refused, search).toMatchObject({ status: 200, msg: 'The demo account does not exist', data: null });
      expect(refused.code).not.toBe(1);
    }
    expect(await snapshot(server)).toEqual(before);

    const back = await call<{ token: string; user: { uid: number }; demo_secret?: string }>(
      server,
      'GET',
      `/api/user/createAccountDemoForU?demo_id=${uid}&demo_secret=${secret}`,
      { ip: '203.0.113.30' },
    );
    expect(back.code).toBe(1);
    expect(back.data.user.uid).toBe(uid);
    expect(back.data.demo_secret).toBeUndefined();

    // A demo account made before secrets existed has none: no secret opens it.
    await server.database.db.execute(sql`update users set demo_secret_hash = null where uid = ${uid}`);
    const old = await call(server, 'GET', `/api/user/createAccountDemoForU?demo_id=${uid}&demo_secret=${secret}`, {
      ip: '203.0.113.30',
    });
    expect(old.code).toBe(1004);
    // The secret travelled in a query string: the request log holds the path only.
    const logged = log.lines.join('\n');
    expect(logged).toContain('"url":"/api/user/createAccountDemoForU"');
    expect(logged).not.toContain(secret);
  });

  it('answers control characters in any text field with 1001, stores nothing and logs no value', async () => {
    await registerByEmail(server, 'nul@example.com');
    const logged = log.lines.length;
    const before = await snapshot(server);
    const cases: [string, 'GET' | 'POST', Record<string, string>][] = [
      ['/api/user/loginForU', 'POST', { account: 'nul@example.com\u0000', password: strongPassword }],
      ['/api/user/loginForU', 'POST', { account: 'nul@example.com', password: `${strongPassword}\u0000` }],
      ['/api/user/loginForU', 'POST', { account: 'nul\u001b@example.com', password: strongPassword }],
      [
        '/api/user/register',
        'POST',
        {
          type: '1',
          account: 'fresh@example.com',
          password: strongPassword,
          re_password: strongPassword,
          ...signUpAnswers,
          sms_code: '123456',
          invite_code: 'AB\u0000CD',
        },
      ],
      ['/api/notify/send_email', 'POST', { to: 'x\u0000@example.com', type: '1' }],
      [
        '/api/user/forget_password',
        'POST',
        {
          type: '1',
          account: 'nul@example.com\u007f',
          new_password: 'Other1234',
          secondary_password: 'Other1234',
          auth_code: '123456',
        },
      ],
    ];
    for (const [path, method, form] of cases) {
      const answer = await call(server, method, path, { ip: '198.51.100.50', form });
      expect(answer, `${path} ${JSON.stringify(form)}`).toMatchObject({ status: 200, code: 1001, data: null });
    }
    const demo = await call(server, 'GET', '/api/user/createAccountDemoForU?demo_id=1%00&demo_secret=abc', {
      ip: '198.51.100.50',
    });
    expect(demo.status).toBe(200);
    expect(demo.code).not.toBe(1);
    expect(await snapshot(server)).toEqual(before);
    const written = log.lines.slice(logged).join('\n');
    expect(written).not.toMatch(/unhandled error|"level":50/);
    expect(written).not.toContain('\\u0000');
  });

  it('logs a failed query with its SQL but without its values', async () => {
    const lines = logCapture();
    const logger = createLogger('info', lines.stream);
    const secret = `hash-${'s'.repeat(20)}`;
    try {
      await server.database.db.execute(sql`select ${secret}::text || ${'\u0000'}::text as broken`);
      expect.unreachable('a NUL cannot be sent as text');
    } catch (error) {
      logger.error({ err: error }, 'unhandled error');
    }
    const [line] = lines.lines;
    expect(line).toBeDefined();
    expect(line).toContain('select $1::text');
    expect(line).toContain('params: [redacted]');
    expect(line).not.toContain(secret);
  });
});
