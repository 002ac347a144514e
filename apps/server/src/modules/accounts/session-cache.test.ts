import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { SessionCache } from './session-cache.js';

const principal = (sessionId: number) => ({ userId: 100 + sessionId, sessionId, isDemo: false });
const farFuture = new Date('2030-01-01T00:00:00Z');

describe('SessionCache', () => {
  it('keeps a valid session for the TTL, and never past the session’s own expiry', () => {
    const clock = new ManualClock('2026-11-23T00:00:00Z');
    const cache = new SessionCache(clock, 15_000);
    cache.put('a', principal(1), farFuture, cache.epoch);
    cache.put('b', principal(2), new Date('2026-11-23T00:00:05Z'), cache.epoch);
    expect(cache.get('a')).toEqual(principal(1));
    expect(cache.get('b')).toEqual(principal(2));

    clock.advance(5_000);
    expect(cache.get('b'), 'expired session').toBeUndefined();
    expect(cache.get('a')).toEqual(principal(1));
    clock.advance(10_000);
    expect(cache.get('a'), 'past the TTL').toBeUndefined();
  });

  it('drops revoked tokens and sessions at once', () => {
    const cache = new SessionCache(new ManualClock(0), 15_000);
    for (const id of [1, 2, 3]) cache.put(`t${id}`, principal(id), farFuture, cache.epoch);
    cache.dropToken('t1');
    cache.dropSessions([2]);
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.get('t2')).toBeUndefined();
    expect(cache.get('t3')).toEqual(principal(3));
  });

  it('does not store a look-up that overlapped a revocation', () => {
    const cache = new SessionCache(new ManualClock(0), 15_000);
    // A request read the session as valid, then a logout landed before the request stored it.
    const before = cache.epoch;
    cache.dropToken('t1');
    cache.put('t1', principal(1), farFuture, before);
    expect(cache.get('t1')).toBeUndefined();

    const afterwards = cache.epoch;
    cache.put('t1', principal(1), farFuture, afterwards);
    expect(cache.get('t1')).toEqual(principal(1));
  });

  it('holds at most its capacity, letting the oldest go', () => {
    const cache = new SessionCache(new ManualClock(0), 15_000, 2);
    for (const id of [1, 2, 3]) cache.put(`t${id}`, principal(id), farFuture, cache.epoch);
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.get('t2')).toEqual(principal(2));
    expect(cache.get('t3')).toEqual(principal(3));
  });
});
