import { afterEach, describe, expect, it } from 'vitest';
import { ENROLMENT_MARK, enrolFirstOperator } from '../src/modules/operators/module.js';
import { DB_KINDS, startTestServer, totpCode, type TestServer } from './harness.js';

describe.each(DB_KINDS)('the first start without operators (%s)', (kind) => {
  let server: TestServer;
  afterEach(() => server?.close());

  it('prints one superadmin enrolment that signs in, and nothing once an operator exists', async () => {
    server = await startTestServer(kind);
    const printed: string[] = [];
    const enrolment = await enrolFirstOperator(server.ctx.operators, (line) => printed.push(line));

    expect(enrolment).toMatchObject({ email: 'admin@localhost', role: 'superadmin' });
    const line = printed
      .join('\n')
      .split('\n')
      .find((text) => text.startsWith(`${ENROLMENT_MARK} `));
    const shown = JSON.parse(line?.slice(ENROLMENT_MARK.length + 1) ?? 'null') as {
      email: string;
      password: string;
      otpauth: string;
    };
    expect(shown).toEqual(enrolment);

    const login = await server.call<{ token: string }>('POST', '/admin/api/login', {
      body: { email: shown.email, password: shown.password, otp: totpCode(shown.otpauth, server.clock.now().getTime()) },
    });
    expect(login.code).toBe(1);
    const me = await server.call('GET', '/admin/api/me', { headers: { authorization: `Bearer ${login.data.token}` } });
    expect(me.data).toMatchObject({ email: 'admin@localhost', role: 'superadmin' });

    expect(await enrolFirstOperator(server.ctx.operators, (text) => printed.push(text))).toBeNull();
    expect(printed.filter((text) => text.includes(ENROLMENT_MARK))).toHaveLength(1);
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
