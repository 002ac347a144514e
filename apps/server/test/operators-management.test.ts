import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operators } from '../src/db/schema.js';
import { translate } from '../src/i18n/catalog.js';
import { DB_KINDS, ManualClock, startTestServer, totpCode, type TestServer } from './harness.js';
import { auditRows, login, newOperator, signIn, type TestOperator } from './operators-helpers.js';

interface OperatorRow {
  id: number;
  email: string;
  role: string;
  disabled: boolean;
  created_by: string;
  created_at: string;
}

describe.each(DB_KINDS)('superadmin manages operators on %s', (kind) => {
  let server: TestServer;
  let root: TestOperator;
  let headers: Record<string, string>;
  const clock = new ManualClock('2026-11-23T11:00:05Z');
  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    root = await newOperator(server, 'superadmin', 'root');
    headers = await signIn(server, root);
  });
  afterAll(() => server.close());

  const post = <T = unknown>(path: string, body?: Record<string, unknown>, as = headers) =>
    server.call<T>('POST', `/admin/api${path}`, { headers: as, ...(body ? { body } : {}) });
  const enabledSuperadmins = async () =>
    (await server.ctx.operators.list()).filter((operator) => operator.role === 'superadmin' && !operator.disabled);

  /** Opens an enrolment link as its operator would: their own password, their authenticator's code. */
  async function enrol(link: string, password: string) {
    const token = link.slice(link.lastIndexOf('/') + 1);
    const begun = await server.call<{ email: string; role: string; otpauth: string }>('POST', '/admin/api/enrolment/begin', {
      body: { token },
    });
    expect(begun.code).toBe(1);
    const otp = totpCode(begun.data.otpauth, server.clock.now().getTime());
    const finished = await server.call<{ token: string }>('POST', '/admin/api/enrolment/finish', {
      body: { token, password, otp },
    });
    return { begun, finished, token, otpauth: begun.data.otpauth };
  }

  it('adds an operator with a one-time enrolment link; the operator sets their own password and code', async () => {
    const added = await post<{ email: string; role: string; link: string; expires_at: string }>('/operators', {
      email: ' New.Finance@ops.test ',
      role: 'finance',
    });
    expect(added.code).toBe(1);
    expect(Object.keys(added.data).sort()).toEqual(['email', 'expires_at', 'link', 'role']);
    expect(added.data).toMatchObject({ email: 'New.Finance@ops.test', role: 'finance' });
    expect(added.data.link).toMatch(/^\/admin\/#\/enrol\/[\w-]{43}$/);

    // A password too short is refused and the link stays open; a code of another secret too.
    const token = added.data.link.slice(added.data.link.lastIndexOf('/') + 1);
    await server.call('POST', '/admin/api/enrolment/begin', { body: { token } });
    expect(
      await server.call('POST', '/admin/api/enrolment/finish', { body: { token, password: 'short', otp: '123456' } }),
    ).toMatchObject({ code: 1001, msg: translate('en', 'operator_password_invalid', { min: 12 }) });
    const { begun, finished, otpauth } = await enrol(added.data.link, 'my-own-password-1');
    expect(begun.data).toMatchObject({ email: 'New.Finance@ops.test', role: 'finance' });
    expect(finished.code).toBe(1);
    expect(finished.data.token).toMatch(/^pwo_/);
    // The link is spent.
    expect(await server.call('POST', '/admin/api/enrolment/begin', { body: { token } })).toMatchObject({
      code: 1002,
      msg: translate('en', 'operator_enrolment_invalid'),
    });
    clock.advance(30_000);
    expect((await login(server, { email: added.data.email, password: 'my-own-password-1', otpauth })).code).toBe(1);
    const [enrolledRow] = (await auditRows(server, 'operator.enrol')).slice(-1);
    expect(JSON.stringify(enrolledRow)).not.toContain('my-own-password-1');

    const listed = await server.call<OperatorRow[]>('GET', '/admin/api/operators', { headers });
    const row = listed.data.find((operator) => operator.email === 'New.Finance@ops.test');
    expect(row).toEqual({
      id: expect.any(Number),
      email: 'New.Finance@ops.test',
      role: 'finance',
      disabled: false,
      created_by: `operator:${root.email}`,
      created_at: expect.any(String),
    });
    expect(JSON.stringify(listed.data)).not.toContain('my-own-password-1');

    const [audited] = (await auditRows(server, 'operator.create')).slice(-1);
    expect(audited).toMatchObject({
      actor: `operator:${root.email}`,
      operatorId: root.id,
      targetId: String(row!.id),
      after: { email: 'New.Finance@ops.test', role: 'finance' },
    });
    expect(JSON.stringify(audited)).not.toContain(token);
    expect(JSON.stringify(audited)).not.toContain('secret=');

    expect(await post('/operators', { email: 'new.finance@OPS.test', role: 'support' })).toMatchObject({
      code: 1002,
      msg: translate('en', 'operator_email_taken'),
    });
    for (const body of [{ email: 'not-an-address', role: 'support' }, { email: 'x@ops.test', role: 'owner' }, {}]) {
      expect((await post('/operators', body)).code, JSON.stringify(body)).toBe(1001);
    }
  });

  it('disables and enables, audited with before and after', async () => {
    const target = await newOperator(server, 'compliance');
    const disabled = await post<OperatorRow>(`/operators/${target.id}/disable`);
    expect(disabled).toMatchObject({ code: 1, data: { id: target.id, disabled: true } });
    expect(await post(`/operators/${target.id}/disable`)).toMatchObject({
      code: 1009,
      msg: translate('en', 'operator_already_disabled'),
    });
    expect((await auditRows(server, 'operator.disable')).at(-1)).toMatchObject({
      actor: `operator:${root.email}`,
      targetId: String(target.id),
      before: { disabled: false },
      after: { disabled: true },
    });
    expect(await post<OperatorRow>(`/operators/${target.id}/enable`)).toMatchObject({ code: 1, data: { disabled: false } });
    expect((await post(`/operators/${target.id}/enable`)).code).toBe(1009);
    expect((await auditRows(server, 'operator.enable')).at(-1)).toMatchObject({
      before: { disabled: true },
      after: { disabled: false },
    });
    expect((await post('/operators/987654/disable')).code).toBe(1004);
    expect((await post('/operators/nope/disable')).code).toBe(1001);
  });

  it('changes roles, audited; the change applies to live sessions at once', async () => {
    const target = await newOperator(server, 'support');
    const theirs = await signIn(server, target);
    expect((await server.call('GET', '/admin/api/operators', { headers: theirs })).code).toBe(1003);
    const changed = await server.call<OperatorRow>('PUT', `/admin/api/operators/${target.id}/role`, {
      headers,
      body: { role: 'superadmin' },
    });
    expect(changed).toMatchObject({ code: 1, data: { role: 'superadmin' } });
    expect((await server.call('GET', '/admin/api/operators', { headers: theirs })).code).toBe(1);
    expect((await auditRows(server, 'operator.role')).at(-1)).toMatchObject({
      targetId: String(target.id),
      before: { role: 'support' },
      after: { role: 'superadmin' },
    });
    const roleChanges = (await auditRows(server, 'operator.role')).length;
    // The same role again changes nothing and writes nothing.
    expect(
      (await server.call('PUT', `/admin/api/operators/${target.id}/role`, { headers, body: { role: 'superadmin' } })).code,
    ).toBe(1);
    expect(await auditRows(server, 'operator.role')).toHaveLength(roleChanges);
    expect((await server.call('PUT', `/admin/api/operators/${target.id}/role`, { headers, body: { role: 'boss' } })).code).toBe(
      1001,
    );
    await server.call('PUT', `/admin/api/operators/${target.id}/role`, { headers, body: { role: 'support' } });
  });

  it('never lets a superadmin disable or demote themself', async () => {
    const self = { code: 1002, msg: translate('en', 'operator_cannot_change_self') };
    expect(await post(`/operators/${root.id}/disable`)).toMatchObject(self);
    expect(
      await server.call('PUT', `/admin/api/operators/${root.id}/role`, { headers, body: { role: 'finance' } }),
    ).toMatchObject(self);
    expect((await server.call('GET', '/admin/api/me', { headers })).data).toMatchObject({ role: 'superadmin' });
  });

  it('keeps at least one enabled superadmin, even against two superadmins acting at once', async () => {
    // Leaves root and one other as the only enabled superadmins.
    for (const extra of await enabledSuperadmins()) {
      if (extra.id !== root.id) await server.ctx.operators.disable(extra.id, { actor: 'cli' });
    }
    const other = await newOperator(server, 'superadmin');
    const otherHeaders = await signIn(server, other);
    // Each disables the other at the same moment: one wins, the other is refused.
    const results = await Promise.all([
      post(`/operators/${other.id}/disable`),
      post(`/operators/${root.id}/disable`, undefined, otherHeaders),
    ]);
    // The loser is refused by the guard (session already ended: 999) or, past it, inside the change (1003).
    const codes = results.map((result) => result.code).sort();
    expect(codes[0]).toBe(1);
    expect([999, 1003]).toContain(codes[1]);
    expect(await enabledSuperadmins()).toHaveLength(1);
    const [survivor] = await enabledSuperadmins();
    const survivorHeaders = survivor!.id === root.id ? headers : otherHeaders;
    const leaver = survivor!.id === root.id ? other : root;
    await server.ctx.operators.enable(leaver.id, { actor: 'cli' });

    // The command line has no self: the last-superadmin rule alone holds it back.
    await server.ctx.operators.disable(leaver.id, { actor: 'cli' });
    await expect(server.ctx.operators.disable(survivor!.id, { actor: 'cli' })).rejects.toMatchObject({
      key: 'operator_last_superadmin',
    });
    await expect(server.ctx.operators.setRole(survivor!.id, 'content', { actor: 'cli' })).rejects.toMatchObject({
      key: 'operator_last_superadmin',
    });
    // A disabled superadmin does not count: demoting them is fine.
    expect(
      (
        await server.call('PUT', `/admin/api/operators/${leaver.id}/role`, {
          headers: survivorHeaders,
          body: { role: 'content' },
        })
      ).code,
    ).toBe(1);
    const [row] = await server.database.db.select().from(operators).where(eq(operators.id, leaver.id));
    expect(row).toMatchObject({ role: 'content' });
    expect(row!.disabledAt).not.toBeNull();
    if (survivor!.id !== root.id) {
      await server.ctx.operators.setRole(root.id, 'superadmin', { actor: 'cli' });
      await server.ctx.operators.enable(root.id, { actor: 'cli' });
      headers = await signIn(server, root);
    }
  });

  it('resets password and TOTP to a new enrolment link: the old ones stop working, audited without secrets', async () => {
    const target = await newOperator(server, 'content');
    const reset = await post<{ email: string; role: string; link: string }>(`/operators/${target.id}/reset`);
    expect(reset.code).toBe(1);
    expect(reset.data).toMatchObject({ email: target.email, role: 'content' });
    clock.advance(30_000);
    expect((await login(server, target)).code).toBe(1002);
    const [audited] = (await auditRows(server, 'operator.reset')).slice(-1);
    expect(audited).toMatchObject({ actor: `operator:${root.email}`, targetId: String(target.id) });
    expect(JSON.stringify(audited)).not.toContain(reset.data.link.slice(reset.data.link.lastIndexOf('/') + 1));
    const { finished, otpauth } = await enrol(reset.data.link, 'a-fresh-password-2');
    expect(finished.code).toBe(1);
    expect(otpauth).not.toBe(target.otpauth);
    clock.advance(30_000);
    expect((await login(server, { ...target, password: 'a-fresh-password-2', otpauth })).code).toBe(1);
  });
});
