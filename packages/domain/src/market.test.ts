import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSessionOpen, MARKET_SESSIONS, nextSessionOpen } from './market.js';

const utc = (text: string) => Date.parse(`${text}Z`);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('nextSessionOpen', () => {
  it('sends a forex weekend to Sunday 22:00', () => {
    // 2026-11-27 is a Friday: forex closes at 22:00 and opens again on Sunday the 29th.
    expect(iso(nextSessionOpen('forex', utc('2026-11-27T22:00:00')))).toBe('2026-11-29T22:00:00.000Z');
    expect(iso(nextSessionOpen('forex', utc('2026-11-28T13:45:10')))).toBe('2026-11-29T22:00:00.000Z');
    expect(iso(nextSessionOpen('forex', utc('2026-11-29T21:59:59')))).toBe('2026-11-29T22:00:00.000Z');
  });

  it('sends a CFD in its daily break to 23:00 the same day, and on Friday night to Sunday 23:00', () => {
    expect(iso(nextSessionOpen('cfd', utc('2026-11-24T22:30:00')))).toBe('2026-11-24T23:00:00.000Z');
    expect(iso(nextSessionOpen('cfd', utc('2026-11-27T22:00:00')))).toBe('2026-11-29T23:00:00.000Z');
  });

  it('sends a European index after its close to 07:00 the next weekday, across the week end', () => {
    expect(iso(nextSessionOpen('europe', utc('2026-11-24T21:00:00')))).toBe('2026-11-25T07:00:00.000Z');
    expect(iso(nextSessionOpen('europe', utc('2026-11-24T06:59:00')))).toBe('2026-11-24T07:00:00.000Z');
    expect(iso(nextSessionOpen('europe', utc('2026-11-27T21:00:00')))).toBe('2026-11-30T07:00:00.000Z');
  });

  it('gives no opening for a session that never closes', () => {
    expect(nextSessionOpen('crypto', utc('2026-11-28T12:00:00'))).toBeNull();
  });

  it('is always a later time at which the session is open and was closed the minute before', () => {
    const sessions = MARKET_SESSIONS.filter((session) => session !== 'crypto');
    fc.assert(
      fc.property(
        fc.constantFrom(...sessions),
        fc.integer({ min: utc('2000-01-01T00:00:00'), max: utc('2100-01-01T00:00:00') }),
        (session, time) => {
          const opening = nextSessionOpen(session, time);
          expect(opening).not.toBeNull();
          expect(opening!).toBeGreaterThan(time);
          expect(isSessionOpen(session, opening!)).toBe(true);
          expect(isSessionOpen(session, opening! - 60_000)).toBe(false);
          expect(opening! % 60_000).toBe(0);
        },
      ),
    );
  });

  it('leaves no closed minute between now and the opening it gives', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(['forex', 'cfd', 'europe'] as const)),
        fc.integer({ min: utc('2020-01-01T00:00:00'), max: utc('2030-01-01T00:00:00') }),
        (session, time) => {
          fc.pre(!isSessionOpen(session, time));
          const opening = nextSessionOpen(session, time)!;
          for (let minute = Math.floor(time / 60_000) * 60_000; minute < opening; minute += 60_000) {
            expect(isSessionOpen(session, minute)).toBe(false);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
