import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { LOGIN_CAPTCHA_AFTER, LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES } from '../src/modules/accounts/service.js';
import { InMemoryEventBus } from '../src/realtime/bus.js';
import {
  freshIp,
  query,
  registerByEmail,
  solveCaptcha,
  startAccountsServer,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { DB_KINDS, ManualClock, openTestDatabase } from './harness.js';

/**
 * Several gateways (ROLE=gateway) behind one address share one database. The login limits must hold
 * for the account, not per process: wrong passwords sent to different processes, or to a process
 * started after a restart, count toward one budget, and the owner hears of an attack once.
 */
const WRONG = 'Incorrect account or password';
const CAPTCHA_ASKED = 'Please enter the characters shown in the image';

interface Answer {
  status: number;
  retryAfter: string | null;
  code: number;
  msg: string;
}

/** A login from `ip`, with the Retry-After header of its answer. */
async function login(
  server: AccountsServer,
  { ip, account, password, captcha = {} }: { ip: string; account: string; password: string; captcha?: Record<string, string> },
): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}/api/user/loginForU`, {
    method: 'POST',
    headers: { lang: 'en', 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account, password, ...captcha }).toString(),
  });
  const json = (await response.json()) as { code: number; msg: string };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), ...json };
}

describe.each(DB_KINDS)('login limits across processes on %s', (kind) => {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  const bus = new InMemoryEventBus();
  let database: Database;
  const started: AccountsServer[] = [];
  const start = async () => {
    const server = await startAccountsServer(kind, { database, bus, clock, env: { CAPTCHA_REQUIRED: 'false' } });
    started.push(server);
    return server;
  };
  let servers: [AccountsServer, AccountsServer];
  /** The process the `i`-th try of a test goes to: they take turns. */
  const to = (i: number) => servers[i % 2]!;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    servers = [await start(), await start()];
  });

  afterAll(async () => {
    for (const server of started) await server.close();
    await bus.close();
    await database?.close();
  });

  it('counts wrong passwords sent to either process toward one step-up budget', async () => {
    const account = 'spread@example.com';
    await registerByEmail(servers[0], account);
    for (let i = 0; i < LOGIN_CAPTCHA_AFTER; i++) {
      expect((await login(to(i), { ip: freshIp(), account, password: `Wrong${i}abc` })).msg).toBe(WRONG);
    }
    // The step-up comes after as many failures as with one process, whichever process is asked next.
    for (const server of servers) {
      expect(await login(server, { ip: freshIp(), account, password: strongPassword })).toMatchObject({
        code: 1001,
        msg: CAPTCHA_ASKED,
      });
    }
  });

  it('refuses an address its failures on both processes together, even with the right password', async () => {
    const account = 'split@example.com';
    await registerByEmail(servers[0], account);
    const ip = '198.51.100.10';
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const captcha = await solveCaptcha(to(i));
      expect((await login(to(i), { ip, account, password: `Wrong${i}abc`, captcha })).msg).toBe(WRONG);
    }
    for (const server of servers) {
      const refused = await login(server, { ip, account, password: strongPassword, captcha: await solveCaptcha(server) });
      expect(refused).toMatchObject({ status: 429, code: 1429 });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(LOGIN_FAILURE_WINDOW_MS / 1000);
    }
    // The owner, elsewhere, still gets in.
    const owner = await login(servers[1], {
      ip: freshIp(),
      account,
      password: strongPassword,
      captcha: await solveCaptcha(servers[1]),
    });
    expect(owner.code, owner.msg).toBe(1);
  });

  it('mails the owner once, however many processes see the attack', async () => {
    const account = 'alerted@example.com';
    await registerByEmail(servers[0], account);
    const [last] = await query<{ id: number }>(servers[0], `select max(id)::int as id from outbox_messages`);
    // Each process alone sees more failures than the step-up needs, the last ones at the same moment.
    const tries = 2 * LOGIN_CAPTCHA_AFTER + 2;
    for (let i = 0; i < LOGIN_CAPTCHA_AFTER - 1; i++) {
      expect((await login(to(i), { ip: freshIp(), account, password: `Wrong${i}abc` })).msg).toBe(WRONG);
    }
    const rest = [];
    for (let i = LOGIN_CAPTCHA_AFTER - 1; i < tries; i++) rest.push({ i, captcha: await solveCaptcha(to(i)) });
    const answers = await Promise.all(
      rest.map(({ i, captcha }) => login(to(i), { ip: freshIp(), account, password: `Wrong${i}abc`, captcha })),
    );
    expect(answers.map((answer) => answer.msg)).toEqual(rest.map(() => WRONG));
    const mails = await query<{ subject: string }>(
      servers[0],
      `select subject from outbox_messages where destination = '${account}' and id > ${last?.id ?? 0}`,
    );
    expect(mails).toEqual([{ subject: 'Someone is trying to log in to your Pipwise account' }]);
  });

  it('remembers the counts across a restart', async () => {
    const account = 'restarted@example.com';
    await registerByEmail(servers[0], account);
    const before = await start();
    const ip = '198.51.100.20';
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const captcha = i >= LOGIN_CAPTCHA_AFTER ? await solveCaptcha(before) : {};
      expect((await login(before, { ip, account, password: `Wrong${i}abc`, captcha })).msg).toBe(WRONG);
    }
    await before.close();
    const after = await start();
    const refused = await login(after, { ip, account, password: strongPassword, captcha: await solveCaptcha(after) });
    expect(refused).toMatchObject({ status: 429, code: 1429 });
    expect(await login(after, { ip: freshIp(), account, password: strongPassword })).toMatchObject({
      code: 1001,
      msg: CAPTCHA_ASKED,
    });
  });

  it('checks exactly as many parallel tries from one address as the limit allows, across processes', async () => {
    const account = 'parallel-split@example.com';
    await registerByEmail(servers[0], account);
    const tries = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES + 5; i++) tries.push({ i, captcha: await solveCaptcha(to(i)) });
    const answers = await Promise.all(
      tries.map(({ i, captcha }) => login(to(i), { ip: '198.51.100.30', account, password: `Parallel${i}x`, captcha })),
    );
    expect(answers.filter((answer) => answer.msg === WRONG)).toHaveLength(LOGIN_MAX_FAILURES);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(5);
  });
});
