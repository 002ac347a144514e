import { LANGUAGE_LOCALES, LANGUAGES } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import { catalogues, OPERATOR_LANGUAGES, operatorCatalogues, type PluralText } from '../src/i18n/catalog.js';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
/** A plural text's forms; a plain text is its own only form. */
const forms = (text: string | PluralText | undefined): string[] =>
  typeof text === 'object' ? Object.entries(text).flatMap(([name, form]) => (name === 'by' ? [] : [form])) : [text ?? ''];
const other = (text: string | PluralText | undefined) => (typeof text === 'object' ? text.other : (text ?? ''));

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
    const expected = placeholders(other(texts.en));
    for (const language of LANGUAGES) {
      const text = texts[language];
      for (const form of forms(text)) {
        expect(form.trim(), language).toBeTruthy();
        // A plural form may spell its number out ("ثانية واحدة") and drop the counted placeholder.
        const counted = typeof text === 'object' ? text.by : null;
        expect(
          placeholders(form).filter((name) => name !== counted),
          `${language}: ${form}`,
        ).toEqual(expected.filter((name) => name !== counted));
      }
    }
  });

  it.each(entries)('%s has a form for every plural category its language has, counted by one of its params', (_key, texts) => {
    for (const language of LANGUAGES) {
      const text = texts[language];
      if (typeof text !== 'object') continue;
      expect(placeholders(other(texts.en)), `${language} counts by ${text.by}`).toContain(text.by);
      const categories = new Intl.PluralRules(LANGUAGE_LOCALES[language]).resolvedOptions().pluralCategories;
      expect(
        Object.keys(text)
          .filter((name) => name !== 'by')
          .sort(),
        language,
      ).toEqual([...categories].sort());
      expect(placeholders(text.other), language).toContain(text.by);
    }
  });

  it('translates rather than copying English into other languages', () => {
    for (const [key, texts] of entries) {
      const copies = LANGUAGES.filter((l) => l !== 'en' && other(texts[l]) === other(texts.en));
      // A few short words (e.g. "Email") may legitimately coincide in some languages; most must differ.
      expect(copies.length, `${key}: ${copies.join(',')}`).toBeLessThan(6);
    }
  });
});

describe('operator message catalogues', () => {
  const entries = Object.entries(operatorCatalogues).flatMap(([name, catalogue]) =>
    Object.entries(catalogue).map(([key, texts]) => [`${name}.${key}`, texts] as const),
  );

  it('registers the operators catalogue', () => {
    expect(Object.keys(operatorCatalogues)).toContain('operators');
  });

  it.each(entries)('%s has en and hk, non-empty, with the same placeholders', (_key, texts) => {
    const expected = placeholders(other(texts.en));
    for (const language of OPERATOR_LANGUAGES) {
      const text = texts[language];
      expect(text, language).toBeDefined();
      for (const form of forms(text)) {
        expect(form.trim(), language).toBeTruthy();
        expect(placeholders(form), `${language}: ${form}`).toEqual(expected);
      }
    }
  });
});
