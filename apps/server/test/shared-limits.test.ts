import { randomBytes } from 'node:crypto';
import { ApiPath } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Database } from '../src/db/client.js';
import { ROUTE_LIMITS } from '../src/modules/accounts/routes.js';
import type { HubDeps } from '../src/realtime/hub.js';
import { DEFAULT_LOGIN_GUARD_OPTIONS } from '../src/realtime/login-guard.js';
import { DB_KINDS, openTestDatabase, startTestServer, type TestServer } from './harness.js';
import { RedisServer } from './redis-server.js';
import { TestSocket } from './socket-client.js';

/**
 * Two gateways with one REDIS_URL (a redis-server of the test's own) count one address's abuse
 * budgets together: the socket-login failures that cost a database look-up, and the HTTP per-address
 * route limits. Tries alternate between the two; together they get one budget, not one each.
 */
const kind = DB_KINDS.at(-1)!;

describe(`abuse limits shared through Redis (${kind})`, () => {
  let redis: RedisServer;
  let database: Database;
  let servers: [TestServer, TestServer];
  let lookups: MockInstance<HubDeps['resolveToken']>[];

  beforeAll(async () => {
    redis = await RedisServer.start();
    database = await openTestDatabase(kind);
    const env = { REDIS_URL: redis.url, ROLE: 'gateway' };
    servers = [await startTestServer(kind, { database, env }), await startTestServer(kind, { database, env })];
    lookups = servers.map((server) => vi.spyOn((server.ctx.hub as unknown as { deps: HubDeps }).deps, 'resolveToken'));
  });

  afterAll(async () => {
    for (const server of servers ?? []) await server.close();
    await database?.close();
    await redis?.stop();
  });

  const lookedUp = () => lookups.reduce((sum, spy) => sum + spy.mock.calls.length, 0);

  /** One socket login with a token nobody has, on `server`; resolves once the server has handled it. */
  async function badLogin(server: TestServer): Promise<'handled' | 'closed' | 'refused'> {
    let socket: TestSocket;
    try {
      socket = await TestSocket.open(server.baseUrl);
    } catch {
      return 'refused';
    }
    socket.send({ type: 'login', token: randomBytes(24).toString('hex') });
    const answer = await Promise.race([
      socket.settle().then(() => 'handled' as const),
      socket.closed.then(() => 'closed' as const),
    ]);
    socket.close();
    return answer;
  }

  it('gives an address one budget of failed socket logins across both gateways', async () => {
    const budget = DEFAULT_LOGIN_GUARD_OPTIONS.maxFailuresPerAddress;
    for (let i = 0; i < budget - 1; i++) expect(await badLogin(servers[i % 2]!)).toBe('handled');
    // The last failure of the budget closes its socket (the address is out of budget from then on).
    expect(await badLogin(servers[(budget - 1) % 2]!)).toBe('closed');
    expect(lookedUp()).toBe(budget);
    expect(lookups.every((spy) => spy.mock.calls.length === budget / 2)).toBe(true);
    // Spent, on both: more tries cost no look-up (alone, each gateway would have allowed `budget` more).
    for (let i = 0; i < 6; i++) expect(await badLogin(servers[i % 2]!)).not.toBe('handled');
    expect(lookedUp()).toBe(budget);
  });

  it('counts the HTTP per-address route limits across both gateways', async () => {
    const { max } = ROUTE_LIMITS.captcha;
    const statuses: number[] = [];
    for (let i = 0; i < max + 4; i++) {
      const response = await fetch(`${servers[i % 2]!.baseUrl}${ApiPath.captcha}`, { headers: { lang: 'en' } });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.slice(0, max).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(max)).toEqual([429, 429, 429, 429]);
  });

  it("counts in each gateway's memory while Redis is down, and fails no request", async () => {
    await redis.stop();
    const { max } = ROUTE_LIMITS.login;
    const statuses: number[] = [];
    for (let i = 0; i < max + 2; i++) {
      const response = await fetch(`${servers[0].baseUrl}${ApiPath.login}`, {
        method: 'POST',
        headers: { lang: 'en', 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'nobody@example.com', password: 'wrong' }),
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.slice(0, max).every((status) => status < 400)).toBe(true);
    expect(statuses.slice(max)).toEqual([429, 429]);
    await redis.resume();
  });
});
