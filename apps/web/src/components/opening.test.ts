import type { Language } from '@pipwise/domain';
import { describe, expect, it, vi } from 'vitest';
import type { TradePair } from '../api/types';
import { formatOpening, nextOpening } from './opening';

let language: Language = 'en';
vi.mock('../i18n', () => ({ currentLanguage: () => language }));

const pair = (session: TradePair['Session'], open: boolean) => ({ Session: session, MarketStatus: open ? 1 : 0 }) as TradePair;
/** Saturday 2026-11-28 12:00 UTC: forex and the index CFDs are shut, crypto trades. */
const SATURDAY = Date.UTC(2026, 10, 28, 12);

describe('when a closed market opens', () => {
  it('gives the session’s next opening while closed, nothing while open or for a market that never closes', () => {
    expect(new Date(nextOpening(pair('forex', false), SATURDAY)!).toISOString()).toBe('2026-11-29T22:00:00.000Z');
    expect(new Date(nextOpening(pair('europe', false), SATURDAY)!).toISOString()).toBe('2026-11-30T07:00:00.000Z');
    expect(nextOpening(pair('forex', true), SATURDAY)).toBeNull();
    expect(nextOpening(pair('crypto', false), SATURDAY)).toBeNull();
  });

  it('writes the day and time in the reader’s language and time zone', () => {
    const opening = Date.UTC(2026, 10, 29, 22);
    language = 'en';
    expect(formatOpening(opening, 'UTC')).toBe('Sun, Nov 29, 10:00 PM');
    expect(formatOpening(opening, 'Asia/Hong_Kong')).toBe('Mon, Nov 30, 06:00 AM');
    language = 'de';
    expect(formatOpening(opening, 'UTC')).toBe('So., 29. Nov., 22:00');
  });
});
