import { afterEach, describe, expect, it } from 'vitest';
import { ENROLMENT_MARK, enrolFirstOperator } from '../src/modules/operators/module.js';
import { OPERATOR_ENROLMENT_TTL_MS } from '../src/modules/operators/service.js';
import { DB_KINDS, ManualClock, startTestServer, totpCode, type TestServer } from './harness.js';

describe.each(DB_KINDS)('the first start without operators (%s)', (kind) => {
  let server: TestServer;
  afterEach(() => server?.close());

  it('prints one superadmin enrolment that signs in, and nothing once an operator exists', async () => {
    server = await startTestServer(kind);
    const printed: string[] = [];
    const enrolment = await enrolFirstOperator(server.ctx.operators, (line) => printed.push(line), 'http://localhost:8080');

    expect(enrolment).toMatchObject({ email: 'admin@localhost', role: 'superadmin' });
    const line = printed
      .join('\n')
      .split('\n')
      .find((text) => text.startsWith(`${ENROLMENT_MARK} `));
    const shown = JSON.parse(line?.slice(ENROLMENT_MARK.length + 1) ?? 'null') as { email: string; link: string };
    expect(shown).toEqual(enrolment);
    expect(printed.join('\n')).toContain(`http://localhost:8080${shown.link}`);
    expect(shown).not.toHaveProperty('password');

    // The owner opens the link, sets a password and adds the code to their authenticator.
    const token = shown.link.slice(shown.link.lastIndexOf('/') + 1);
    const begun = await server.call<{ otpauth: string }>('POST', '/admin/api/enrolment/begin', { body: { token } });
    const login = await server.call<{ token: string }>('POST', '/admin/api/enrolment/finish', {
      body: { token, password: 'the-owners-password', otp: totpCode(begun.data.otpauth, server.clock.now().getTime()) },
    });
    expect(login.code).toBe(1);
    const me = await server.call('GET', '/admin/api/me', { headers: { authorization: `Bearer ${login.data.token}` } });
    expect(me.data).toMatchObject({ email: 'admin@localhost', role: 'superadmin' });

    expect(await enrolFirstOperator(server.ctx.operators, (text) => printed.push(text))).toBeNull();
    expect(printed.filter((text) => text.includes(ENROLMENT_MARK))).toHaveLength(1);
  });

  it('prints a fresh link at a start after the first one expired unused, and none once it is used', async () => {
    const clock = new ManualClock('2026-11-23T09:00:00Z');
    server = await startTestServer(kind, { clock });
    const printed: string[] = [];
    const first = await enrolFirstOperator(server.ctx.operators, (line) => printed.push(line));
    expect(await enrolFirstOperator(server.ctx.operators, (line) => printed.push(line))).toBeNull();
    clock.advance(OPERATOR_ENROLMENT_TTL_MS + 1000);
    const token = (link: string) => link.slice(link.lastIndexOf('/') + 1);
    expect(await server.call('POST', '/admin/api/enrolment/begin', { body: { token: token(first!.link) } })).toMatchObject({
      code: 1002,
    });
    const second = await enrolFirstOperator(server.ctx.operators, (line) => printed.push(line));
    expect(second).toMatchObject({ email: 'admin@localhost', role: 'superadmin' });
    const begun = await server.call<{ otpauth: string }>('POST', '/admin/api/enrolment/begin', {
      body: { token: token(second!.link) },
    });
    expect(begun.code).toBe(1);
    const finished = await server.call('POST', '/admin/api/enrolment/finish', {
      body: {
        token: token(second!.link),
        password: 'the-owners-password',
        otp: totpCode(begun.data.otpauth, clock.now().getTime()),
      },
    });
    expect(finished.code).toBe(1);
    clock.advance(OPERATOR_ENROLMENT_TTL_MS + 1000);
    expect(await enrolFirstOperator(server.ctx.operators, (line) => printed.push(line))).toBeNull();
  });

  it('makes one first operator when two processes start at once', async () => {
    server = await startTestServer(kind);
    const printed: string[] = [];
    const results = await Promise.all(
      [1, 2, 3].map(() => enrolFirstOperator(server.ctx.operators, (line) => printed.push(line))),
    );
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect(await server.ctx.operators.count()).toBe(1);
  });
});
