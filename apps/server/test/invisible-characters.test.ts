import { ApiPath } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrader, type Trader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';
import { auditRows } from './operators-helpers.js';

/** Characters that hide in, or reorder, a text others read; and ones that only break it (NUL, a lone surrogate). */
const UNSAFE = [
  ['NEL (U+0085)', 'Bob\u0085Smith'],
  ['a lone high surrogate', 'Bob\uD800Smith'],
  ['a lone low surrogate', 'Bob\uDC00Smith'],
  ['a zero-width space', 'Bob\u200BSmith'],
  ['a right-to-left override', 'Bob\u202Egnp.exe'],
  ['a first-strong isolate', 'Bob\u2068Smith'],
  ['a line separator', 'Bob\u2028Smith'],
  ['a byte order mark', 'Bob\uFEFFSmith'],
];

describe.each(DB_KINDS)('control and invisible characters in text shown to others on %s', (kind) => {
  let server: TestServer;
  let trader: Trader;
  let address = 0;
  const freshIp = () => `10.77.${(++address >> 8) & 255}.${address & 255}`;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { TRUST_PROXY: '1' } });
    trader = await createTrader(server.database.db);
  });
  afterAll(() => server.close());

  it.each(UNSAFE)('refuses feedback, a real name and a news title with %s, saying why', async (_, text) => {
    const expected = { code: 1001, msg: expect.stringContaining('contains control or invisible characters') };
    const feedback = await server.call('POST', ApiPath.feedbackSubmit, {
      body: { category: 'general', text },
      // Feedback is limited per user: each submission comes from a new one.
      token: (await createTrader(server.database.db)).token,
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(feedback).toMatchObject(expected);
    const realName = await server.call('POST', ApiPath.realName, {
      body: { name: text, card_id: 'A1234567', front_pic: '1', reverse_pic: '2' },
      token: trader.token,
    });
    expect(realName).toMatchObject(expected);
    const news = await server.call('POST', '/admin/api/news', {
      body: { lang: 'en', title: text, content: '<p>x</p>' },
      headers: await server.operatorHeaders('editor', 'content'),
    });
    expect(news).toMatchObject(expected);
  });

  it('keeps the joiners and direction marks that scripts and emoji need', async () => {
    for (const text of ['नमस्ते क्‍ष', 'مرحبا\u200F 123', '👩‍💻 works', 'line one\nline two']) {
      const answer = await server.call('POST', ApiPath.feedbackSubmit, {
        body: { category: 'general', text },
        token: (await createTrader(server.database.db)).token,
        headers: { 'x-forwarded-for': freshIp() },
      });
      expect(answer, text).toMatchObject({ code: 1 });
    }
  });

  it('answers a back-office sign-in with a NUL or a lone surrogate in the e-mail as any failed sign-in, and audits it', async () => {
    const wrongPassword = await server.call('POST', '/admin/api/login', {
      body: { email: 'nobody@ops.test', password: 'wrong password', otp: '000000' },
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(wrongPassword.code).not.toBe(1);
    for (const email of ['admin\u0000@ops.test', 'admin\uD800@ops.test']) {
      const before = (await auditRows(server, 'operator.login_failed')).length;
      const answer = await server.call('POST', '/admin/api/login', {
        body: { email, password: 'wrong password', otp: '000000' },
        headers: { 'x-forwarded-for': freshIp() },
      });
      expect(answer).toEqual({ ...wrongPassword });
      const rows = await auditRows(server, 'operator.login_failed');
      expect(rows).toHaveLength(before + 1);
      expect(rows.at(-1)!.after).toMatchObject({ email: 'admin\uFFFD@ops.test' });
    }
  });
});
