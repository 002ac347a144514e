import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * A process listens before its modules start (a large book takes a while to load): it is alive on
 * /healthz at once, and until the modules have started /readyz says so and nothing else gets through.
 */
describe('a process while its modules start', () => {
  let server: TestServer;
  let app: FastifyInstance;
  let started = false;
  beforeAll(async () => {
    server = await startTestServer('pglite');
    app = await buildApp(server.ctx, { started: () => started });
  });
  afterAll(async () => {
    await app.close();
    await server.close();
  });

  it('answers /healthz, says starting on /readyz and refuses the rest with 503 and Retry-After, in the caller’s language', async () => {
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ ready: false, starting: true });
    for (const request of [
      { method: 'GET' as const, url: '/api/nope' },
      {
        method: 'POST' as const,
        url: '/api/user/loginForU',
        payload: '{"__proto__":{"admin":true},"phone":"x\\u0000"}',
        headers: { 'content-type': 'application/json' },
      },
      { method: 'GET' as const, url: '/admin/api/users?__proto__=1' },
    ]) {
      const refused = await app.inject({ ...request, headers: { ...('headers' in request ? request.headers : {}), lang: 'de' } });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toEqual({
        code: 1500,
        msg: 'Der Dienst wird gestartet, bitte versuchen Sie es in einigen Sekunden erneut',
        data: null,
      });
    }
  });

  it('lets everything through once they have started', async () => {
    started = true;
    expect((await app.inject({ url: '/api/nope', headers: { lang: 'en' } })).json()).toMatchObject({ code: 1004 });
    expect((await app.inject({ url: '/readyz' })).json()).toHaveProperty('checks');
  });
});
