import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { openDatabase, type Database } from '../db/client.js';
import { loginFailures } from '../db/schema.js';
import { addressKey, FailureLimiter } from './limiter.js';

describe('addressKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });

  it('puts every address of one /64 under one key', () => {
    expect(addressKey('2001:db8:aa:bb:1::1')).toBe(addressKey('2001:db8:aa:bb:ffff:ffff:ffff:fffe'));
    expect(addressKey('2001:db8:aa:bb::1')).not.toBe(addressKey('2001:db8:aa:bc::1'));
  });
});

describe('FailureLimiter', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
    await database.migrate();
  });
  afterAll(() => database.close());

  const rows = async (scope: string) =>
    (await database.db.select({ key: loginFailures.key }).from(loginFailures).where(eq(loginFailures.scope, scope))).map(
      (row) => row.key,
    );

  it('refuses a key after its failures until the oldest leaves the window', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00Z');
    const limiter = new FailureLimiter(database.db, clock, 'window', 3, 60_000);
    for (let i = 1; i <= 3; i++) {
      expect(await limiter.failIfRoom(['k'])).toMatchObject({ counted: true, counts: new Map([['k', i]]) });
      clock.advance(10_000);
    }
    expect(await limiter.failIfRoom(['k'])).toEqual({ counted: false, blockedForMs: 30_000 });
    expect(await limiter.failIfRoom(['other'])).toMatchObject({ counted: true, counts: new Map([['other', 1]]) });
    // A refused try counts for none of its keys.
    expect(await limiter.failIfRoom(['fresh', 'k'])).toMatchObject({ counted: false });
    expect(await limiter.failIfRoom(['fresh'])).toMatchObject({ counts: new Map([['fresh', 1]]) });
    clock.advance(30_000);
    const again = await limiter.failIfRoom(['k']);
    expect(again).toMatchObject({ counted: true, counts: new Map([['k', 3]]) });
    if (!again.counted) return;
    await limiter.takeBack(['k'], again.at);
    expect(await limiter.failIfRoom(['k'])).toMatchObject({ counts: new Map([['k', 3]]) });
    // Counted even when full, the oldest giving way.
    expect(await limiter.fail(['k'])).toMatchObject({ counts: new Map([['k', 3]]) });
    await limiter.reset(['k']);
    expect(await limiter.failIfRoom(['k'])).toMatchObject({ counts: new Map([['k', 1]]) });
  });

  it('lets exactly its limit of parallel failures in, and takes back one of equal times', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00Z');
    const limiter = new FailureLimiter(database.db, clock, 'parallel', 5, 60_000);
    const tries = await Promise.all(Array.from({ length: 20 }, () => limiter.failIfRoom(['a', 'b'])));
    expect(tries.filter((t) => t.counted)).toHaveLength(5);
    const counted = tries.find((t) => t.counted);
    if (!counted?.counted) throw new Error('no try was counted');
    await limiter.takeBack(['a', 'b'], counted.at);
    expect(await limiter.failIfRoom(['b', 'a'])).toMatchObject({
      counts: new Map([
        ['a', 5],
        ['b', 5],
      ]),
    });
  });

  it('sweeps rows whose failures have all left the window', async () => {
    const clock = new ManualClock('2026-03-02T09:00:00Z');
    const limiter = new FailureLimiter(database.db, clock, 'sweep', 3, 60_000);
    await limiter.fail(['old']);
    clock.advance(60_000);
    await limiter.fail(['new']);
    expect(await rows('sweep')).toEqual(['new']);
  });
});
