import { SOCKET_PATH } from '@pipwise/domain';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { auditLog } from '../src/db/schema.js';
import { DEFAULT_LOGIN_GUARD_OPTIONS } from '../src/realtime/login-guard.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

/** A socket whose upgrade carries `forwarded` as X-Forwarded-For; answers the upgrade's status. */
function openVia(server: TestServer, forwarded: string) {
  const ws = new WebSocket(server.baseUrl.replace(/^http/, 'ws') + SOCKET_PATH, { headers: { 'x-forwarded-for': forwarded } });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const status = new Promise<number>((resolve, reject) => {
    ws.once('open', () => resolve(101));
    ws.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
  return { ws, closed, status };
}

/** The address the HTTP side saw for a request sent with `forwarded`: the failed login's audit row `ip`. */
async function recordedAddress(server: TestServer, forwarded: string) {
  const email = `nobody-${randomBytes(4).toString('hex')}@ops.test`;
  const answer = await server.call('POST', '/admin/api/login', {
    body: { email, password: 'wrong password', otp: '000000' },
    headers: { 'x-forwarded-for': forwarded },
  });
  expect(answer.code).toBe(1002);
  const [row] = await server.database.db
    .select({ ip: auditLog.ip })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'operator.login_failed'), eq(auditLog.targetId, email)));
  return row!.ip;
}

describe.each(DB_KINDS)('TRUST_PROXY on %s', (kind) => {
  describe('one proxy in front (TRUST_PROXY=1)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { env: { TRUST_PROXY: '1', SOCKETS_PER_ADDRESS: '3' } });
    });
    afterAll(() => server.close());

    it('takes the address the proxy appended, never what the client wrote left of it', async () => {
      expect(await recordedAddress(server, '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
      expect(await recordedAddress(server, '203.0.113.10')).toBe('203.0.113.10');
    });

    it('counts sockets per address by the same rule: a client cannot spread itself over made-up addresses', async () => {
      const held = [1, 2, 3].map((i) => openVia(server, `10.9.9.${i}, 198.51.100.7`));
      expect(await Promise.all(held.map((socket) => socket.status))).toEqual([101, 101, 101]);
      expect(await openVia(server, '10.9.9.4, 198.51.100.7').status).toBe(429);
      const other = openVia(server, '10.9.9.4, 198.51.100.8');
      expect(await other.status).toBe(101);
      for (const socket of [...held, other]) socket.ws.close();
      await Promise.all([...held, other].map((socket) => socket.closed));
    });

    it('keeps the socket login guard on the real address whatever the client writes in front of it', async () => {
      // Each socket is closed after three failed logins; the address's budget is counted across sockets.
      const sockets = Math.ceil(DEFAULT_LOGIN_GUARD_OPTIONS.maxFailuresPerAddress / 3);
      for (let i = 0; i < sockets; i++) {
        const socket = openVia(server, `172.16.${i}.1, 198.51.100.20`);
        expect(await socket.status).toBe(101);
        for (let attempt = 0; attempt < 3; attempt++) {
          socket.ws.send(JSON.stringify({ type: 'login', token: `forged-${i}-${attempt}` }));
        }
        expect(await socket.closed).toBe(1008);
      }
      expect(await openVia(server, '172.16.200.1, 198.51.100.20').status).toBe(429);
    });
  });

  describe('proxies named by address (TRUST_PROXY=127.0.0.1,10.0.0.0/8)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { env: { TRUST_PROXY: '127.0.0.1,10.0.0.0/8' } });
    });
    afterAll(() => server.close());

    it('walks back through the listed proxies to the first address that is not one of them', async () => {
      expect(await recordedAddress(server, '9.9.9.9, 6.6.6.6, 10.1.2.3')).toBe('6.6.6.6');
      expect(await recordedAddress(server, '9.9.9.9, 203.0.113.5')).toBe('203.0.113.5');
    });

    it('stores no address a proxy chain could not have written', async () => {
      // The nearest proxy is trusted, so the entry before it is believed: not an address, it is not kept.
      expect(await recordedAddress(server, '<script>, 10.1.2.3')).toBeNull();
    });
  });
});
