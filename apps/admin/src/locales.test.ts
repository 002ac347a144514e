import { describe, expect, it } from 'vitest';

/*
 * Every operator-facing text exists in English and Traditional Chinese: the same areas, the same keys
 * (Chinese has no singular, so English's `_one` forms need no partner), the same placeholders, and every
 * literal key the screens ask for exists in the area they ask it of.
 */

type Tree = { [key: string]: string | Tree };
type Messages = Record<string, string>;

const files = import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' });
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

const LANGUAGES = ['en', 'hk'] as const;
const DEFAULT_AREA = 'common';

/** `{ instruments: { title } }` → `instruments.title`, as i18next reads nested keys. */
function flatten(tree: Tree, prefix = ''): Messages {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[`${prefix}${key}`, value]] : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
}

function areasOf(language: string): Map<string, Messages> {
  const areas = new Map<string, Messages>();
  for (const [file, messages] of Object.entries(files)) {
    const [, lang, area] = /^\.\/locales\/(\w+)\/(\w+)\.json$/.exec(file) ?? [];
    if (lang === language && area) areas.set(area, flatten(messages));
  }
  return areas;
}

const english = areasOf('en');
const chinese = areasOf('hk');
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('back-office texts', () => {
  it('has the same areas in both languages', () => {
    expect([...chinese.keys()].sort()).toEqual([...english.keys()].sort());
    expect(english.size).toBeGreaterThan(10);
  });

  it.each([...english.keys()])('%s: every key in both languages, non-empty, with the same placeholders', (area) => {
    const en = english.get(area)!;
    const hk = chinese.get(area)!;
    const needed = Object.keys(en).filter((key) => !key.endsWith('_one'));
    expect(needed.filter((key) => !(key in hk))).toEqual([]);
    expect(Object.keys(hk).filter((key) => !(key in en))).toEqual([]);
    for (const language of LANGUAGES) {
      const messages = language === 'en' ? en : hk;
      const empty = Object.entries(messages).filter(([, text]) => text.trim() === '');
      expect(empty, language).toEqual([]);
    }
    const differing = needed.filter((key) => placeholders(en[key]!).join() !== placeholders(hk[key]!).join());
    expect(differing).toEqual([]);
  });

  it('has every literal key the screens ask for', () => {
    const missing: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      const used = [...source.matchAll(/useTranslation\(\s*(?:'(\w+)')?\s*\)/g)].map((match) => match[1] ?? DEFAULT_AREA);
      if (used.length === 0) continue;
      for (const [, key] of source.matchAll(/\bt\(\s*'([\w:.-]+)'/g)) {
        const [area, name] = key!.includes(':') ? key!.split(':') : [undefined, key!];
        const candidates = area ? [area] : used;
        const found = candidates.some((candidate) => {
          const messages = english.get(candidate);
          return messages !== undefined && (name in messages || `${name}_other` in messages);
        });
        if (!found) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
