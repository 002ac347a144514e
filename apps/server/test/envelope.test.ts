import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

describe.each(DB_KINDS)('envelope on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  it('answers an unknown route with 404 and the envelope in the request language', async () => {
    const en = await server.call('GET', '/api/nope', { lang: 'en' });
    expect(en).toMatchObject({ status: 404, code: 1004, msg: 'The requested address does not exist', data: null });
    const hk = await server.call('GET', '/api/nope', { lang: 'tw' });
    expect(hk.msg).toBe('請求的地址不存在');
    const fallback = await server.call('GET', '/api/nope', { lang: 'xx' });
    expect(fallback.msg).toBe('請求的地址不存在');
  });

  it('reads JSON and urlencoded bodies alike and ignores a timestamp parameter', async () => {
    const bodies: RequestInit[] = [
      { body: JSON.stringify({ account: 'nobody@example.com' }), headers: { 'content-type': 'application/json', lang: 'en' } },
      {
        body: new URLSearchParams({ account: 'nobody@example.com' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
      },
    ];
    for (const init of bodies) {
      const response = await fetch(`${server.baseUrl}/api/user/loginForU?timestamp=1700000000000`, { method: 'POST', ...init });
      const json = (await response.json()) as { code: number; msg: string };
      // The account arrived in both encodings: the complaint is the missing password.
      expect(json).toMatchObject({ code: 1001, msg: 'Please enter your password' });
    }
  });

  it('answers a malformed JSON body with the envelope, not a 500', async () => {
    const response = await fetch(`${server.baseUrl}/api/user/loginForU`, {
      method: 'POST',
      body: '{"account":',
      headers: { 'content-type': 'application/json', lang: 'en' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ code: 1001, msg: 'The request body could not be read', data: null });
  });

  it('sets security headers and echoes no internals', async () => {
    const response = await fetch(`${server.baseUrl}/api/nope`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});
