import type { OperatorSessionView } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../src/i18n/catalog.js';
import { DB_KINDS, ManualClock, startTestServer, totpCode, type TestServer } from './harness.js';
import { auditRows, login, newOperator, signIn } from './operators-helpers.js';

const HOUR_MS = 3_600_000;
const signedOut = { code: 999, msg: translate('en', 'operator_not_logged_in') };

describe.each(DB_KINDS)('operator sessions on %s', (kind) => {
  let server: TestServer;
  const clock = new ManualClock('2026-11-23T08:00:05Z');
  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
  });
  afterAll(() => server.close());
  const me = (headers: Record<string, string>) => server.call('GET', '/admin/api/me', { headers });

  it('ends a session idle for 2 hours', async () => {
    const headers = await signIn(server, await newOperator(server));
    clock.advance(2 * HOUR_MS - 1_000);
    expect((await me(headers)).code).toBe(1);
    // Each call moves the idle expiry on.
    clock.advance(2 * HOUR_MS - 1_000);
    expect((await me(headers)).code).toBe(1);
    clock.advance(2 * HOUR_MS + 1_000);
    expect(await me(headers)).toMatchObject(signedOut);
  });

  it('ends a session 12 hours after login however busy', async () => {
    const headers = await signIn(server, await newOperator(server));
    for (let hour = 1; hour < 12; hour++) {
      clock.advance(HOUR_MS);
      expect((await me(headers)).code, `hour ${hour}`).toBe(1);
    }
    clock.advance(HOUR_MS - 1_000);
    expect((await me(headers)).code).toBe(1);
    clock.advance(2_000);
    expect(await me(headers)).toMatchObject(signedOut);
  });

  it('ends a session on logout, and only that one', async () => {
    const operator = await newOperator(server);
    const first = await signIn(server, operator);
    const second = await signIn(server, operator);
    expect((await server.call('POST', '/admin/api/logout', { headers: first })).code).toBe(1);
    expect(await me(first)).toMatchObject(signedOut);
    expect((await me(second)).code).toBe(1);
    expect((await auditRows(server, 'operator.logout')).at(-1)).toMatchObject({ targetId: String(operator.id) });
  });

  it('lists the live sessions and revokes one of one’s own, never another operator’s', async () => {
    const operator = await newOperator(server);
    const first = await signIn(server, operator);
    const second = await signIn(server, operator);
    const third = await signIn(server, operator);
    await server.call('POST', '/admin/api/logout', { headers: third });
    const listed = await server.call<OperatorSessionView[]>('GET', '/admin/api/me/sessions', { headers: first });
    expect(listed.code).toBe(1);
    expect(listed.data).toHaveLength(2);
    expect(listed.data.map((session) => session.current)).toEqual([false, true]);
    expect(listed.data[0]).toMatchObject({ ip: '127.0.0.1', user_agent: expect.any(String) });
    // Signed in one TOTP step before the third sign-in (signIn moves the clock on), unused since.
    expect(Date.parse(listed.data[0]!.expires_at)).toBe(clock.now().getTime() - 30_000 + 2 * HOUR_MS);
    const secondId = listed.data[0]!.id;

    const stranger = await signIn(server, await newOperator(server));
    const foreign = await server.call('DELETE', `/admin/api/me/sessions/${secondId}`, { headers: stranger });
    expect(foreign).toMatchObject({ code: 1004, msg: translate('en', 'operator_session_not_found') });
    expect((await me(second)).code).toBe(1);

    expect((await server.call('DELETE', `/admin/api/me/sessions/${secondId}`, { headers: first })).code).toBe(1);
    expect(await me(second)).toMatchObject(signedOut);
    expect((await server.call('DELETE', `/admin/api/me/sessions/${secondId}`, { headers: first })).code).toBe(1004);
    expect((await server.call('DELETE', '/admin/api/me/sessions/abc', { headers: first })).code).toBe(1001);
    expect((await auditRows(server, 'operator.session_revoke')).at(-1)).toMatchObject({
      actor: `operator:${operator.email}`,
      targetId: String(secondId),
    });
  });

  it('changes the own password: at least 12 characters, the current one right; ends the other sessions', async () => {
    const operator = await newOperator(server);
    const here = await signIn(server, operator);
    const elsewhere = await signIn(server, operator);
    const change = (body: Record<string, unknown>) => server.call('POST', '/admin/api/me/password', { headers: here, body });
    const newPassword = 'a-much-longer-secret';

    expect(await change({ current: operator.password, password: 'short-11chr' })).toMatchObject({
      code: 1001,
      msg: translate('en', 'operator_password_invalid', { min: 12 }),
    });
    expect(await change({ current: 'not-my-password', password: newPassword })).toMatchObject({
      code: 1002,
      msg: translate('en', 'operator_password_wrong'),
    });
    expect((await change({ current: operator.password, password: operator.password })).code).toBe(1002);
    expect((await me(elsewhere)).code).toBe(1);

    expect((await change({ current: operator.password, password: newPassword })).code).toBe(1);
    expect((await me(here)).code).toBe(1);
    expect(await me(elsewhere)).toMatchObject(signedOut);
    clock.advance(30_000);
    expect((await login(server, operator)).code).toBe(1002);
    expect((await login(server, operator, { password: newPassword })).code).toBe(1);
    const [audited] = (await auditRows(server, 'operator.password_change')).slice(-1);
    expect(audited).toMatchObject({ actor: `operator:${operator.email}`, targetId: String(operator.id) });
    expect(JSON.stringify(audited)).not.toContain(newPassword);
  });

  it('ends every session of an operator who is disabled or reset', async () => {
    const admin = await signIn(server, await newOperator(server, 'superadmin'));
    const disabled = await newOperator(server);
    const reset = await newOperator(server);
    const disabledHeaders = await signIn(server, disabled);
    const resetHeaders = await signIn(server, reset);

    expect((await server.call('POST', `/admin/api/operators/${disabled.id}/disable`, { headers: admin })).code).toBe(1);
    expect(await me(disabledHeaders)).toMatchObject(signedOut);
    // Enabled again, the old session stays ended.
    expect((await server.call('POST', `/admin/api/operators/${disabled.id}/enable`, { headers: admin })).code).toBe(1);
    expect(await me(disabledHeaders)).toMatchObject(signedOut);

    const enrolment = await server.call<{ link: string }>('POST', `/admin/api/operators/${reset.id}/reset`, { headers: admin });
    expect(enrolment.code).toBe(1);
    expect(await me(resetHeaders)).toMatchObject(signedOut);
    clock.advance(30_000);
    expect((await login(server, reset)).code).toBe(1002);
    // The operator enrols again through the new link: that opens their session.
    const token = enrolment.data.link.slice(enrolment.data.link.lastIndexOf('/') + 1);
    const begun = await server.call<{ otpauth: string }>('POST', '/admin/api/enrolment/begin', { body: { token } });
    const enrolled = await server.call<{ token: string }>('POST', '/admin/api/enrolment/finish', {
      body: { token, password: 'reset-password-1', otp: totpCode(begun.data.otpauth, clock.now().getTime()) },
    });
    expect(enrolled.code).toBe(1);
    expect(await me({ authorization: enrolled.data.token })).toMatchObject({ code: 1 });
  });
});
