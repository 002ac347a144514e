import { LANGUAGES, type Language } from '@pipwise/domain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatLots, formatNumber, localizeFigure, parseNumber, plainFigure } from './format';

let language: Language = 'en';
vi.mock('./index', () => ({ currentLanguage: () => language }));

describe('numbers in the reader’s language', () => {
  beforeEach(() => {
    language = 'en';
  });

  it.each([
    ['ru', '1\u00a0234,57'],
    ['de', '1.234,57'],
    ['en', '1,234.57'],
  ] as const)('%s formats prices and lots with one decimal separator', (lang, price) => {
    language = lang;
    expect(formatNumber(1234.567, 2)).toBe(price);
    expect(formatLots(0.05)).toBe(lang === 'en' ? '0.05' : '0,05');
  });

  it.each([
    ['de', '0,05', 0.05],
    ['de', '1.234,5', 1234.5],
    ['ru', '1 234,5', 1234.5],
    ['ru', '0.05', 0.05],
    ['en', '1,234.5', 1234.5],
    ['en', '.5', 0.5],
  ] as const)('%s reads "%s" as %s', (lang, text, value) => {
    language = lang;
    expect(parseNumber(text)).toBe(value);
  });

  it.each(['abc', '', '1,2,3x', '--'])('refuses "%s"', (text) => {
    language = 'de';
    expect(parseNumber(text)).toBeNaN();
  });

  it('reads back what it wrote, in every language', () => {
    for (const lang of LANGUAGES) {
      language = lang;
      for (const value of [0.01, 2.5, 1234.56789, 95000]) {
        expect(parseNumber(formatNumber(value, 5)), `${lang} ${value}`).toBe(value);
      }
    }
  });
});

describe('prices typed in the reader’s language', () => {
  it.each([
    ['ru', '1,085', '1.085'],
    ['de', '1,08500', '1.08500'],
    ['de', '1.085', '1.085'],
    ['en', '1.085', '1.085'],
    ['my', '၁.၀၈၅', '1.085'],
    ['ru', '', ''],
    ['ru', 'abc', 'abc'],
  ] as const)('%s: "%s" is sent as "%s"', (lang, typed, plain) => {
    language = lang;
    expect(plainFigure(typed)).toBe(plain);
  });

  it.each([
    ['ru', '1,085'],
    ['de', '1,085'],
    ['en', '1.085'],
    ['my', '၁.၀၈၅'],
  ] as const)('%s shows the figure 1.085 as "%s", and reads it back', (lang, shown) => {
    language = lang;
    expect(localizeFigure('1.085')).toBe(shown);
    expect(plainFigure(localizeFigure('1.085'))).toBe('1.085');
  });
});
