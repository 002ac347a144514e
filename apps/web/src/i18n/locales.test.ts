import { LANGUAGE_LOCALES, LANGUAGES, type Language } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';

type Tree = Record<string, unknown>;

const files = import.meta.glob<Tree>('./locales/*.json', { eager: true, import: 'default' });
const sources = import.meta.glob<string>(['../**/*.ts', '../**/*.tsx', '!../**/*.test.ts', '!../**/*.test.tsx'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

/** Flattens `{ trade: { buy } }` to `trade.buy`; locales allow one namespace level at most. */
function flatten(tree: Tree, prefix = ''): Map<string, unknown> {
  const keys = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, text] of flatten(value as Tree, path)) keys.set(inner, text);
    } else keys.set(path, value);
  }
  return keys;
}

const locale = (code: string) => {
  const tree = files[`./locales/${code}.json`];
  if (!tree) throw new Error(`locales/${code}.json is missing`);
  return flatten(tree);
};

const english = locale('en');

/** The bundles screens and sheets bring with them (i18n/lazy.ts), each `lazy/<bundle>/<language>.json`. */
const lazyFiles = import.meta.glob<Tree>('./lazy/*/*.json', { eager: true, import: 'default' });
const lazyBundles = [...new Set(Object.keys(lazyFiles).map((file) => file.split('/')[2]!))];
const lazyLocale = (bundle: string, code: string) => {
  const tree = lazyFiles[`./lazy/${bundle}/${code}.json`];
  if (!tree) throw new Error(`lazy/${bundle}/${code}.json is missing`);
  return flatten(tree);
};

/** i18next's plural suffixes: `order.lots_value_one`, `_few`, … chosen by the `count` option. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
/** Keys that English gives plural forms, by their base (`order.lots_value`). */
const pluralBases = new Set([...english.keys()].filter((key) => key.endsWith('_other')).map((key) => key.replace(PLURAL, '')));
const baseOf = (key: string) => {
  const base = key.replace(PLURAL, '');
  return base !== key && pluralBases.has(base) ? base : key;
};
/** Nouns do not change after a number: no plural in Chinese, Japanese, Korean, …; Turkish and Hindi keep one form. */
const NO_NUMBER_AGREEMENT: readonly Language[] = ['hk', 'jp', 'kr', 'th', 'vn', 'id', 'my', 'tr', 'hi'];
const categories = (tag: string) => [...new Intl.PluralRules(tag).resolvedOptions().pluralCategories].sort();
const placeholders = (text: unknown) =>
  String(text)
    .match(/\{\{\w+\}\}/g)
    ?.sort() ?? [];

describe('locale files', () => {
  it('exist for exactly the 18 languages', () => {
    expect(
      Object.keys(files)
        .map((file) => /\/(\w+)\.json$/.exec(file)?.[1])
        .sort(),
    ).toEqual([...LANGUAGES].sort());
  });

  it.each([...LANGUAGES])('%s has every key of en, none empty, and no keys of its own', (code) => {
    const messages = locale(code);
    for (const key of english.keys()) {
      const text = messages.get(key);
      expect(typeof text === 'string' && text.trim().length > 0, `${code}: ${key}`).toBe(true);
    }
    expect([...messages.keys()].filter((key) => !english.has(key) && !pluralBases.has(baseOf(key)))).toEqual([]);
  });

  it.each([...LANGUAGES])('%s has a form per plural category of its language where a number meets a noun', (code) => {
    const messages = locale(code);
    const agrees = !NO_NUMBER_AGREEMENT.includes(code);
    // i18next picks the rule by our code ('spa'), not by the BCP 47 tag ('es'): both must give the same forms.
    if (agrees) expect(categories(code)).toEqual(categories(LANGUAGE_LOCALES[code]));
    expect(pluralBases.size).toBeGreaterThan(0);
    for (const base of pluralBases) {
      const forms = [...messages.keys()].filter((key) => key !== base && baseOf(key) === base);
      expect(messages.has(base), `${code}: ${base} comes in plural forms`).toBe(false);
      if (!agrees) {
        // English's forms, so every key i18next may ask for is there, all reading alike: one form for every number.
        const englishForms = [...english.keys()].filter((key) => key !== base && baseOf(key) === base);
        expect(forms.sort(), `${code}: ${base}`).toEqual(englishForms.sort());
        expect(new Set(forms.map((key) => messages.get(key))).size, `${code}: ${base} has one form for every number`).toBe(1);
        continue;
      }
      expect(forms.map((key) => PLURAL.exec(key)?.[1]).sort(), `${code}: ${base}`).toEqual(categories(LANGUAGE_LOCALES[code]));
      for (const key of forms) expect(String(messages.get(key)).trim(), `${code}: ${key}`).not.toBe('');
    }
  });

  it.each([...LANGUAGES])('%s keeps the placeholders of en', (code) => {
    for (const [key, text] of locale(code)) {
      const base = baseOf(key);
      const plural = base !== key || pluralBases.has(key);
      const wanted = placeholders(plural ? english.get(`${base}_other`) : english.get(key));
      // A plural form may spell its number out (Arabic "لوت واحد") and leave the placeholder out.
      if (plural && !key.endsWith('_other') && key !== base) {
        expect(wanted, `${code}: ${key}`).toEqual(expect.arrayContaining(placeholders(text)));
      } else expect(placeholders(text), `${code}: ${key}`).toEqual(wanted);
    }
  });

  it('uses snake_case keys with at most one namespace level', () => {
    for (const key of english.keys()) expect(key).toMatch(/^[a-z][a-z0-9_]*(\.[a-z0-9][a-z0-9_]*)?$/);
  });

  it('finds the lazy bundles', () => {
    expect(lazyBundles.sort()).toEqual(['copy', 'modes', 'risk', 'signup']);
  });

  it.each(lazyBundles.flatMap((bundle) => LANGUAGES.map((code) => [bundle, code] as const)))(
    'lazy bundle %s in %s has every key of en, none empty, none of its own, and en’s placeholders',
    (bundle, code) => {
      const wanted = lazyLocale(bundle, 'en');
      const messages = lazyLocale(bundle, code);
      expect([...messages.keys()].sort()).toEqual([...wanted.keys()].sort());
      for (const [key, text] of messages) {
        expect(typeof text === 'string' && text.trim().length > 0, `${bundle}/${code}: ${key}`).toBe(true);
        expect(placeholders(text), `${bundle}/${code}: ${key}`).toEqual(placeholders(wanted.get(key)));
      }
    },
  );

  it('defines every key the code asks for', () => {
    const used = new Set<string>();
    for (const source of Object.values(sources)) {
      for (const match of source.matchAll(/\bt\(\s*'([a-z][a-z0-9_]*\.[a-z0-9_]+)'/g)) used.add(match[1]!);
      for (const match of source.matchAll(/labelKey: '([a-z][a-z0-9_]*\.[a-z0-9_]+)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(50);
    const lazyKeys = new Set(lazyBundles.flatMap((bundle) => [...lazyLocale(bundle, 'en').keys()]));
    expect([...used].filter((key) => !english.has(key) && !pluralBases.has(key) && !lazyKeys.has(key))).toEqual([]);
  });
});
