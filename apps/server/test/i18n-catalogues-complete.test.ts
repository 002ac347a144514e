import { LANGUAGES } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import { catalogues } from '../src/i18n/catalog.js';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('message catalogues', () => {
  const entries = Object.entries(catalogues).flatMap(([name, catalogue]) =>
    Object.entries(catalogue).map(([key, texts]) => [`${name}.${key}`, texts] as const),
  );

  it('registers the catalogues the server relies on', () => {
    expect(Object.keys(catalogues)).toEqual(expect.arrayContaining(['core', 'accounts', 'wallet']));
    expect(entries.length).toBeGreaterThan(50);
  });

  it.each(entries)('%s has every language, non-empty, with the same placeholders', (_key, texts) => {
    expect(Object.keys(texts).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) expect(texts[language]?.trim(), language).toBeTruthy();
    const expected = placeholders(texts.en ?? '');
    for (const language of LANGUAGES) expect(placeholders(texts[language] ?? ''), language).toEqual(expected);
  });

  it('translates rather than copying English into other languages', () => {
    for (const [key, texts] of entries) {
      const copies = LANGUAGES.filter((l) => l !== 'en' && texts[l] === texts.en);
      // A few short words (e.g. "Email") may legitimately coincide in some languages; most must differ.
      expect(copies.length, `${key}: ${copies.join(',')}`).toBeLessThan(6);
    }
  });
});
