import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { translate } from '../src/i18n/catalog.js';
import { OPERATOR_ADDRESS_MAX_FAILURES, OPERATOR_CAPTCHA_AFTER } from '../src/modules/operators/service.js';
import { startAccountsServer, type AccountsServer } from './accounts-helpers.js';
import { DB_KINDS, ManualClock, totpCode } from './harness.js';
import { auditRows, login, newOperator, signIn } from './operators-helpers.js';

const STEP_MS = 30_000;
const failed = { status: 200, code: 1002, msg: translate('en', 'operator_login_failed'), data: null };
// A used code answers as a wrong password does: the answer never tells that the password was right.
const replayed = failed;
const captchaRequired = { status: 200, code: 1001, msg: translate('en', 'captcha_required'), data: null };

describe.each(DB_KINDS)('operator login on %s', (kind) => {
  let server: AccountsServer;
  // 10 s into a TOTP step, so "one step back" and "one step ahead" are whole steps away.
  const clock = new ManualClock('2026-11-23T10:00:10Z');
  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock });
  });
  afterAll(() => server.close());
  // Past every failure window, so each test starts with no failure counted.
  beforeEach(() => clock.advance(16 * 60_000));

  it('accepts a code once, one step either side, never one two steps old', async () => {
    const operator = await newOperator(server);
    // Past the step whose code the enrolment used.
    clock.advance(STEP_MS);
    const now = clock.now().getTime();
    const previous = await login(server, operator, { at: now - STEP_MS });
    expect(previous.code).toBe(1);
    expect(previous.data.operator).toEqual({ id: operator.id, email: operator.email, role: 'support' });
    expect(await login(server, operator, { at: now - STEP_MS })).toEqual(replayed);
    expect((await login(server, operator, { at: now })).code).toBe(1);
    expect(await login(server, operator, { at: now })).toEqual(replayed);
    expect((await login(server, operator, { at: now + STEP_MS })).code).toBe(1);
    // A code of the window older than the newest accepted one is a replay too.
    expect(await login(server, operator, { at: now })).toEqual(replayed);

    const other = await newOperator(server);
    expect(await login(server, other, { at: now - 2 * STEP_MS })).toEqual(failed);
    expect(await login(server, other, { at: now + 2 * STEP_MS })).toEqual(failed);
    expect((await login(server, other, { at: now })).code).toBe(1);
  });

  it('gives one token to parallel logins with one code', async () => {
    const operator = await newOperator(server);
    const results = await Promise.all(Array.from({ length: 4 }, () => login(server, operator)));
    const tokens = results.filter((result) => result.code === 1).map((result) => result.data.token);
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatch(/^pwo_/);
    expect(results.filter((result) => result.code !== 1)).toEqual(Array(3).fill(replayed));
  });

  it('answers the same for a wrong password, a wrong code, a disabled operator and an unknown e-mail, and audits each without the password', async () => {
    const operator = await newOperator(server);
    const disabled = await newOperator(server);
    await server.ctx.operators.disable(disabled.id, { actor: 'cli' });
    const wrongPassword = 'not-the-password-1';
    expect(await login(server, operator, { password: wrongPassword })).toEqual(failed);
    expect(await login(server, operator, { otp: '000000' })).toEqual(failed);
    expect(await login(server, operator, { otp: 'abcdef' })).toEqual(failed);
    expect(await login(server, disabled)).toEqual(failed);
    expect(await login(server, { ...operator, email: 'nobody-here@ops.test' })).toEqual(failed);

    const rows = (await auditRows(server, 'operator.login_failed')).slice(-5);
    expect(rows.map((row) => [row.actor, row.targetId, (row.after as { reason: string }).reason])).toEqual([
      ['anonymous', String(operator.id), 'wrong_password'],
      ['anonymous', String(operator.id), 'wrong_code'],
      ['anonymous', String(operator.id), 'wrong_code'],
      ['anonymous', String(disabled.id), 'disabled'],
      ['anonymous', 'nobody-here@ops.test', 'unknown_email'],
    ]);
    const written = JSON.stringify(rows);
    expect(written).not.toContain(wrongPassword);
    expect(written).not.toContain(operator.password);
    expect(rows.every((row) => row.ip === '127.0.0.1')).toBe(true);
  });

  /** A captcha of the back office's own, solved as a person would. */
  async function solved() {
    const issued = await server.call<{ id: string; b64s: string }>('GET', '/admin/api/captcha');
    expect(issued.data.b64s).toMatch(/^data:image\/svg\+xml;base64,/);
    return { key: issued.data.id, captcha: server.answers.at(-1)! };
  }
  const loginWith = (operator: { email: string; password: string; otpauth: string }, extra: Record<string, string>, ip: string) =>
    server.call('POST', '/admin/api/login', {
      body: {
        email: operator.email,
        password: operator.password,
        otp: totpCode(operator.otpauth, clock.now().getTime()),
        ...extra,
      },
      headers: { 'x-forwarded-for': ip },
    });

  it('answers a wrong password with a fresh code as it answers the right password with a used code', async () => {
    const operator = await newOperator(server);
    clock.advance(STEP_MS);
    expect((await login(server, operator)).code).toBe(1);
    const usedCode = await login(server, operator);
    clock.advance(STEP_MS);
    const wrongPassword = await login(server, operator, { password: 'not-the-password-2' });
    expect(usedCode).toEqual(wrongPassword);
    expect(usedCode).toEqual(failed);
  });

  it(`after ${OPERATOR_CAPTCHA_AFTER} failures for an e-mail asks for a captcha, which lets its owner in from a new address: never a lock`, async () => {
    const operator = await newOperator(server);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < OPERATOR_CAPTCHA_AFTER; i++) {
        expect(await login(server, operator, { password: 'wrong-password-x', ip: `10.1.${round}.${i + 1}` })).toEqual(failed);
      }
      clock.advance(STEP_MS);
      // Without a captcha no password is tried, from anywhere; a wrong answer is refused and uses the captcha up.
      expect(await login(server, operator, { ip: '10.1.9.1' })).toEqual(captchaRequired);
      const wrong = await solved();
      expect(await loginWith(operator, { ...wrong, captcha: 'zzzz' }, '10.1.9.2')).toMatchObject({
        code: 1001,
        msg: translate('en', 'captcha_incorrect'),
      });
      // A wrong password with a solved captcha fails as ever; the owner's right ones open, from an address never used.
      expect(await loginWith({ ...operator, password: 'wrong-password-x' }, await solved(), '10.1.9.3')).toEqual(failed);
      expect((await loginWith(operator, await solved(), `10.1.8.${round + 1}`)).code).toBe(1);
      // The next round starts over: the owner's login forgot the failures.
      clock.advance(STEP_MS);
    }
  });

  it('lets an operator that never signed in get in past the step-up', async () => {
    const operator = await newOperator(server);
    for (let i = 0; i < OPERATOR_CAPTCHA_AFTER + 3; i++) {
      await login(server, operator, { password: 'wrong-password-n', ip: `10.4.0.${i + 1}` });
    }
    clock.advance(STEP_MS);
    expect(await login(server, operator, { ip: '10.4.1.1' })).toEqual(captchaRequired);
    expect((await loginWith(operator, await solved(), '10.4.1.2')).code).toBe(1);
  });

  it('forgets the failures of an e-mail when a superadmin resets the operator', async () => {
    const operator = await newOperator(server);
    for (let i = 0; i < OPERATOR_CAPTCHA_AFTER; i++) {
      await login(server, operator, { password: 'wrong-password-r', ip: `10.5.0.${i + 1}` });
    }
    clock.advance(STEP_MS);
    expect(await login(server, operator, { ip: '10.5.1.1' })).toEqual(captchaRequired);
    const { link } = await server.ctx.operators.reset(operator.id, { actor: 'cli' });
    const token = link.slice(link.lastIndexOf('/') + 1);
    const { otpauth } = await server.ctx.operators.beginEnrolment(token);
    await server.ctx.operators.finishEnrolment(
      { token, password: 'a-new-password-1', otp: totpCode(otpauth, clock.now().getTime() - STEP_MS) },
      { ip: '10.5.1.2', userAgent: null },
    );
    expect((await login(server, { ...operator, password: 'a-new-password-1', otpauth }, { ip: '10.5.1.3' })).code).toBe(1);
  });

  it('forgets an e-mail’s failures on a successful login', async () => {
    const operator = await newOperator(server);
    for (let round = 0; round < 2; round++) {
      for (let i = 1; i < OPERATOR_CAPTCHA_AFTER; i++) {
        expect(await login(server, operator, { password: 'wrong-password-y' })).toEqual(failed);
      }
      clock.advance(STEP_MS);
      expect((await login(server, operator)).code).toBe(1);
    }
  });

  it(`refuses an address after ${OPERATOR_ADDRESS_MAX_FAILURES} failures across e-mails, not the operator elsewhere`, async () => {
    const operator = await newOperator(server);
    const ip = '10.2.0.9';
    for (let i = 0; i < OPERATOR_ADDRESS_MAX_FAILURES; i++) {
      const guess = { email: `guess${i}@ops.test`, password: 'whatever-pass', otpauth: operator.otpauth };
      expect(await login(server, guess, { ip })).toEqual(failed);
    }
    expect((await login(server, operator, { ip })).code).toBe(1429);
    expect((await signIn(server, operator, '10.2.0.10')).authorization).toMatch(/^pwo_/);
  });
});
