import { ApiPath } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

/** Every field name the client sends somewhere (docs/api.md), each given a value with a control character. */
const FIELDS = [
  'account',
  'password',
  'login_type',
  'key',
  'captcha',
  'type',
  'area_id',
  'mobile',
  'invite_code',
  'sms_code',
  're_password',
  'to',
  'new_password',
  'secondary_password',
  'auth_code',
  'demo_id',
  'demo_secret',
  'searchCurrency',
  'code',
  'period',
  'forex_id',
  'id',
  'status',
  'page',
  'lots',
  'multiple',
  'price',
  'take_profit',
  'stop_loss',
  'category_id',
];

describe.each(DB_KINDS)('control characters on %s', (kind) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { TRUST_PROXY: '1' } });
    const demo = await server.call<{ token: string }>('GET', ApiPath.createDemo);
    token = demo.data.token;
  });
  afterAll(() => server.close());

  // A number-like and an e-mail-like value: each reaches the code paths its shape opens (an e-mail is looked
  // up). NUL, which PostgreSQL refuses in text, goes into every field alone too, so no field's refusal hides
  // another's; the other controls are valid text to the database and go into all fields at once.
  it.each([
    ['\u0000', '1\u00002', 'each field alone'],
    ['\u0000', 'x\u0000@example.com', 'each field alone'],
    ['\u001b', 'x\u001b@example.com', 'all fields at once'],
    ['\u007f', '1\u007f2', 'all fields at once'],
  ])('never answers %j in any field of any call with a 500 (%j, %s)', async (_, value, fieldsAlone) => {
    let address = 0;
    const all = Object.fromEntries(FIELDS.map((name) => [name, value]));
    const alone = fieldsAlone === 'each field alone' ? FIELDS.map((name) => ({ [name]: value })) : [];
    // Logout last would end the session the other calls need; it reads no field anyway.
    for (const path of Object.values(ApiPath).filter((p) => p !== ApiPath.logout)) {
      for (const fields of [all, ...alone]) {
        for (const method of ['GET', 'POST'] as const) {
          address += 1;
          // A fresh session now and then, so the per-session trading limit never answers in place of the route.
          if (address % 200 === 0)
            token = (
              await server.call<{ token: string }>('GET', ApiPath.createDemo, {
                headers: { 'x-forwarded-for': `10.30.0.${address >> 8}` },
              })
            ).data.token;
          const headers = { 'x-forwarded-for': `10.20.${address >> 8}.${address & 255}` };
          const answer =
            method === 'GET'
              ? await server.call('GET', `${path}?${new URLSearchParams(fields).toString()}`, { token, headers })
              : await server.call('POST', path, { token, headers, form: fields });
          expect(answer.status, `${method} ${path} ${JSON.stringify(fields)}`).not.toBe(500);
          expect(answer.code, `${method} ${path} ${JSON.stringify(fields)}`).not.toBe(1500);
        }
      }
    }
  });
});
