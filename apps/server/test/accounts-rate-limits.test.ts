import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_CAPTCHA_AFTER, LOGIN_MAX_FAILURES, LOGIN_STEP_UP_WINDOW_MS } from '../src/modules/accounts/service.js';
import { ROUTE_LIMITS } from '../src/modules/accounts/routes.js';
import {
  registerByEmail,
  snapshot,
  solveCaptcha,
  startAccountsServer,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { DB_KINDS, ManualClock } from './harness.js';

describe.each(DB_KINDS)('accounts rate limits on %s', (kind) => {
  let server: AccountsServer;
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock, env: { CAPTCHA_REQUIRED: 'false' } });
    await registerByEmail(server, 'target@example.com');
  });
  afterAll(() => server.close());

  it('never locks the owner out: wrong passwords from many addresses only step the account up to the captcha', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES * 2; i++) {
      const captcha = i >= LOGIN_CAPTCHA_AFTER ? await solveCaptcha(server) : {};
      const wrong = await server.send('POST', '/api/user/loginForU', {
        form: { account: 'target@example.com', password: `Wrong${i}xyz`, ...captcha },
      });
      expect(wrong.msg).toBe('Incorrect account or password');
    }
    const before = await snapshot(server);
    // Without the captcha, in German, with the account spelled differently: asked for the captcha.
    const asked = await server.send('POST', '/api/user/loginForU', {
      lang: 'de',
      form: { account: ' TARGET@example.com ', password: strongPassword },
    });
    expect(asked).toMatchObject({ status: 200, code: 1001, msg: 'Bitte geben Sie die Zeichen aus dem Bild ein', data: null });
    expect(await snapshot(server)).toEqual(before);
    const owner = await server.send('POST', '/api/user/loginForU', {
      form: { account: 'target@example.com', password: strongPassword, ...(await solveCaptcha(server)) },
    });
    expect(owner.code).toBe(1);

    clock.advance(LOGIN_STEP_UP_WINDOW_MS);
    const after = await server.send('POST', '/api/user/loginForU', {
      form: { account: 'target@example.com', password: strongPassword },
    });
    expect(after.code).toBe(1);
  });

  it('limits code requests per IP address', async () => {
    const ip = '192.0.2.10';
    const statuses: number[] = [];
    for (let i = 0; i <= ROUTE_LIMITS.sendCode.max; i++) {
      const response = await server.send('POST', '/api/notify/send_email', { ip, body: { to: `spam${i}@example.com`, type: 1 } });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, ROUTE_LIMITS.sendCode.max).every((s) => s === 200)).toBe(true);
    const limited = await server.send('POST', '/api/notify/send_email', {
      ip,
      lang: 'fr',
      body: { to: 'one-more@example.com', type: 1 },
    });
    expect(limited).toMatchObject({ status: 429, code: 1429, data: null });
    expect(statuses.at(-1)).toBe(429);
    // Another address is not affected.
    const other = await server.send('POST', '/api/notify/send_email', { body: { to: 'other@example.com', type: 1 } });
    expect(other.code).toBe(1);
  });

  it('limits login attempts per IP address', async () => {
    const ip = '192.0.2.20';
    let last = 0;
    for (let i = 0; i <= ROUTE_LIMITS.login.max; i++) {
      last = (
        await server.send('POST', '/api/user/loginForU', { ip, form: { account: `user${i}@example.com`, password: 'Nope12345' } })
      ).status;
    }
    expect(last).toBe(429);
  });
});
