import { describe, expect, it } from 'vitest';
import { countryList, parseCountryCodes } from './PolicyNotice';

describe('the policy notice’s countries', () => {
  it('reads the setting as ISO codes, skipping blanks and anything malformed', () => {
    expect(parseCountryCodes('KP,IL,CN,VU,CU')).toEqual(['KP', 'IL', 'CN', 'VU', 'CU']);
    expect(parseCountryCodes(' kp , IL,,C N,USA,cu ')).toEqual(['KP', 'IL', 'CU']);
    expect(parseCountryCodes('')).toEqual([]);
    expect(parseCountryCodes(undefined)).toEqual([]);
  });

  it('names them in the reader’s language, as one list', () => {
    expect(countryList(['KP', 'IL', 'CN', 'VU', 'CU'], 'en')).toBe('North Korea, Israel, China, Vanuatu, and Cuba');
    expect(countryList(['KP', 'CU'], 'de')).toBe('Nordkorea und Kuba');
    expect(countryList(['CN', 'CU'], 'tw')).toBe('中國及古巴');
  });
});
