import { ApiPath, type BalanceView, type BasicInfoView, type DemoResetView, type SessionView } from '@pipwise/domain';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import type { SettingKey } from '../src/db/seed.js';
import { SETTINGS_MAX_AGE_MS } from '../src/modules/settings/service.js';
import { InMemoryEventBus, RedisEventBus, type EventBus } from '../src/realtime/bus.js';
import { query } from './accounts-helpers.js';
import { DB_KINDS, ManualClock, openTestDatabase, startTestServer, type TestServer } from './harness.js';

/**
 * Two server processes on one database and bus. Each keeps the settings in memory (accounts reads them
 * for registration and demo accounts, trading for every order); a change made through the settings
 * service on one must reach the other without a restart. The clock stands still, so no cache can
 * expire on its own: only the `settings.changed` event can make the other process read again. With
 * TEST_REDIS_URL the two talk through real Redis pub/sub; otherwise through one shared in-memory bus.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const log = pino({ level: 'silent' });
const newBus = (): EventBus => (redisUrl ? new RedisEventBus(redisUrl, (error) => log.error(error)) : new InMemoryEventBus());

/** Resolves once a message published on `from` has reached `to` (Redis subscriptions start asynchronously). */
async function connected(from: EventBus, to: EventBus) {
  let heard = false;
  const unsubscribe = to.subscribe('settings.changed', () => (heard = true));
  for (let attempt = 0; !heard && attempt < 100; attempt++) {
    from.publish('settings.changed', { keys: [] });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  unsubscribe();
  expect(heard, 'the two buses reach each other').toBe(true);
}

/**
 * Resolves once `bus` has delivered a change of `key`. The process on that bus subscribed first, so by
 * then it has dropped its copy: whatever the test does next happens after the event, not racing it.
 */
function changeHeard(bus: EventBus, key: SettingKey): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = bus.subscribe('settings.changed', ({ keys }) => {
      if (!keys.includes(key)) return;
      unsubscribe();
      resolve();
    });
  });
}

/** `read()` once it satisfies `done`, reading again while the event travels between processes. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let last = await read();
  for (let attempt = 0; !done(last) && attempt < 100; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  return last;
}

describe.each(DB_KINDS)(`settings across two processes (%s, ${redisUrl ? 'Redis' : 'in-memory'} bus)`, (kind) => {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  let database: Database;
  let buses: EventBus[];
  let first: TestServer;
  let second: TestServer;

  const basicInfo = async (server: TestServer) => (await server.call<BasicInfoView>('GET', ApiPath.basicInfo)).data;
  /** A new demo account's opening balance: the accounts module reads `demo_start_balance`. */
  const newDemoBalance = async (server: TestServer) => {
    const { data } = await server.call<SessionView>('GET', ApiPath.createDemo);
    return (await server.call<BalanceView>('GET', ApiPath.getBalance, { token: data.token })).data.balance;
  };
  /** What a demo reset restores: the trading module reads `demo_start_balance`. */
  const resetBalance = async (server: TestServer, token: string) =>
    (await server.call<DemoResetView>('POST', ApiPath.resetDemo, { token })).data.balance;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    buses = redisUrl ? [newBus(), newBus()] : Array(2).fill(newBus());
    first = await startTestServer(kind, { database, bus: buses[0], clock });
    second = await startTestServer(kind, { database, bus: buses[1], clock });
    await connected(buses[0]!, buses[1]!);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    for (const bus of new Set(buses)) await bus.close();
    await database?.close();
  });

  it('a change made on one process is seen by the other, whose copy was warm, without a restart', async () => {
    const demo = (await second.call<SessionView>('GET', ApiPath.createDemo)).data.token;
    expect((await basicInfo(second)).service_link).toBe('');
    expect(await newDemoBalance(second)).toBe(100_000);
    expect(await resetBalance(second, demo)).toBe(100_000);

    await first.ctx.settings.set({ service_link: 'https://help.example.com', demo_start_balance: '5000' });

    // The process that wrote sees it at once; the other as soon as the event arrives.
    expect((await basicInfo(first)).service_link).toBe('https://help.example.com');
    expect(
      (
        await eventually(
          () => basicInfo(second),
          (info) => info.service_link !== '',
        )
      ).service_link,
    ).toBe('https://help.example.com');
    expect(await newDemoBalance(second)).toBe(5000);
    expect(await resetBalance(second, demo)).toBe(5000);
  });

  it('is a cache: a row changed behind the service is read again only once the copy is old', async () => {
    const heard = changeHeard(buses[1]!, 'complaint_email');
    await first.ctx.settings.set({ complaint_email: 'complaints@pipwise.local' });
    await heard;
    expect((await basicInfo(second)).complaint_email).toBe('complaints@pipwise.local');

    await query(second, `update settings set value = 'desk@example.com' where key = 'complaint_email'`);
    expect((await basicInfo(second)).complaint_email).toBe('complaints@pipwise.local');

    clock.advance(SETTINGS_MAX_AGE_MS);
    expect((await basicInfo(second)).complaint_email).toBe('desk@example.com');
  });
});
