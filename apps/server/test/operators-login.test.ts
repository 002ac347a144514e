import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { translate } from '../src/i18n/catalog.js';
import { OPERATOR_LOGIN_MAX_FAILURES, OPERATOR_ADDRESS_MAX_FAILURES } from '../src/modules/operators/service.js';
import { DB_KINDS, ManualClock, startTestServer, type TestServer } from './harness.js';
import { auditRows, login, newOperator, signIn } from './operators-helpers.js';

const STEP_MS = 30_000;
const failed = { status: 200, code: 1002, msg: translate('en', 'operator_login_failed'), data: null };
const replayed = { status: 200, code: 1002, msg: translate('en', 'operator_otp_replayed'), data: null };

describe.each(DB_KINDS)('operator login on %s', (kind) => {
  let server: TestServer;
  // 10 s into a TOTP step, so "one step back" and "one step ahead" are whole steps away.
  const clock = new ManualClock('2026-11-23T10:00:10Z');
  beforeAll(async () => {
    server = await startTestServer(kind, { clock, env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => server.close());
  // Past every failure window, so each test starts with no failure counted.
  beforeEach(() => clock.advance(16 * 60_000));

  it('accepts a code once, one step either side, never one two steps old', async () => {
    const operator = await newOperator(server);
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

  it(`locks an e-mail from anywhere after ${OPERATOR_LOGIN_MAX_FAILURES} failures for 15 minutes`, async () => {
    const operator = await newOperator(server);
    for (let i = 0; i < OPERATOR_LOGIN_MAX_FAILURES; i++) {
      expect(await login(server, operator, { password: 'wrong-password-x', ip: `10.1.0.${i + 1}` })).toEqual(failed);
    }
    const locked = await login(server, operator, { ip: '10.1.1.1' });
    expect(locked.code).toBe(1429);
    expect(locked.msg).toBe(translate('en', 'operator_login_throttled', { retry_after: 900 }));
    const audited = (await auditRows(server, 'operator.login_failed')).length;

    clock.advance(14 * 60_000);
    expect((await login(server, operator, { ip: '10.1.1.2' })).code).toBe(1429);
    // Refusals by the limit are not audited: a flood cannot fill the log.
    expect(await auditRows(server, 'operator.login_failed')).toHaveLength(audited);
    clock.advance(60_000 + STEP_MS);
    expect((await login(server, operator, { ip: '10.1.1.2' })).code).toBe(1);
  });

  it('keeps the lock from the operator at an address they signed in from lately, and only there', async () => {
    const operator = await newOperator(server);
    const office = '10.3.0.1';
    expect((await login(server, operator, { ip: office })).code).toBe(1);
    for (let i = 0; i < OPERATOR_LOGIN_MAX_FAILURES; i++) {
      expect(await login(server, operator, { password: 'wrong-password-z', ip: `10.3.1.${i + 1}` })).toEqual(failed);
    }
    clock.advance(STEP_MS);
    expect((await login(server, operator, { ip: '10.3.2.1' })).code).toBe(1429);
    // Their office still tries the password and code (a wrong one fails as ever), and the right ones open.
    expect(await login(server, operator, { password: 'wrong-password-z', ip: office })).toEqual(failed);
    expect((await login(server, operator, { ip: office })).code).toBe(1);

    // An address last used more than 30 days ago is a stranger again.
    clock.advance(31 * 24 * 60 * 60_000);
    for (let i = 0; i < OPERATOR_LOGIN_MAX_FAILURES; i++) {
      expect(await login(server, operator, { password: 'wrong-password-z', ip: `10.3.3.${i + 1}` })).toEqual(failed);
    }
    clock.advance(STEP_MS);
    expect((await login(server, operator, { ip: office })).code).toBe(1429);
  });

  it('forgets an e-mail’s failures on a successful login', async () => {
    const operator = await newOperator(server);
    for (let round = 0; round < 2; round++) {
      for (let i = 1; i < OPERATOR_LOGIN_MAX_FAILURES; i++) {
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
