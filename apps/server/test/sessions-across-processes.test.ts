import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { InMemoryEventBus, RedisEventBus, type EventBus } from '../src/realtime/bus.js';
import { createTrader } from './factories.js';
import { DB_KINDS, openTestDatabase, startTestServer, type TestServer } from './harness.js';

/**
 * Two server processes (gateways) on one database: each keeps recently validated sessions in memory,
 * and a logout or password change on one must end the session on the other too. With TEST_REDIS_URL
 * (CI) the two talk through real Redis pub/sub, as `REDIS_URL` deployments do; otherwise through one
 * shared in-memory bus.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const log = pino({ level: 'silent' });
const newBus = (): EventBus => (redisUrl ? new RedisEventBus(redisUrl, (error) => log.error(error)) : new InMemoryEventBus());

/** Resolves once a message published on `from` has reached `to` (Redis subscriptions start asynchronously). */
async function connected(from: EventBus, to: EventBus) {
  let heard = false;
  const unsubscribe = to.subscribe('session.revoked', () => (heard = true));
  for (let attempt = 0; !heard && attempt < 100; attempt++) {
    from.publish('session.revoked', { sessionIds: [], userId: 0 });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  unsubscribe();
  expect(heard, 'the two buses reach each other').toBe(true);
}

/** The answer of `call` once it is `code`, asking again while the revocation travels between processes. */
async function eventually(call: () => Promise<{ code: number }>, code: number) {
  let last = await call();
  for (let attempt = 0; last.code !== code && attempt < 100; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await call();
  }
  return last.code;
}

describe.each(DB_KINDS)(`sessions across two processes (%s, ${redisUrl ? 'Redis' : 'in-memory'} bus)`, (kind) => {
  let database: Database;
  let buses: EventBus[];
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    buses = redisUrl ? [newBus(), newBus()] : Array(2).fill(newBus());
    first = await startTestServer(kind, { database, bus: buses[0] });
    second = await startTestServer(kind, { database, bus: buses[1] });
    await connected(buses[0]!, buses[1]!);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    for (const bus of new Set(buses)) await bus.close();
    await database?.close();
  });

  it('a logout on one process ends the session on the other, which had it cached', async () => {
    const { token } = await createTrader(database.db);
    expect((await second.call('GET', '/api/user/info', { token })).code).toBe(1);
    expect((await second.call('GET', '/api/user/info', { token })).code).toBe(1);

    expect((await first.call('POST', '/api/user/logout', { token })).code).toBe(1);
    // The process that revoked it answers 999 at once; the other as soon as the event arrives.
    expect((await first.call('GET', '/api/user/info', { token })).code).toBe(999);
    expect(await eventually(() => second.call('GET', '/api/user/info', { token }), 999)).toBe(999);
  });

  it('a session stays valid on both processes while nobody revokes it', async () => {
    const { token } = await createTrader(database.db);
    for (const server of [first, second, first, second]) {
      expect((await server.call('GET', '/v1/api/main/wallet/getBalance', { token })).code).toBe(1);
    }
  });
});
