import { LANGUAGES } from '@pipwise/domain';
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
    expect([...messages.keys()].filter((key) => !english.has(key))).toEqual([]);
  });

  it.each([...LANGUAGES])('%s keeps the placeholders of en', (code) => {
    const messages = locale(code);
    for (const [key, text] of english) {
      const wanted =
        String(text)
          .match(/\{\{\w+\}\}/g)
          ?.sort() ?? [];
      expect(
        String(messages.get(key))
          .match(/\{\{\w+\}\}/g)
          ?.sort() ?? [],
        `${code}: ${key}`,
      ).toEqual(wanted);
    }
  });

  it('uses snake_case keys with at most one namespace level', () => {
    for (const key of english.keys()) expect(key).toMatch(/^[a-z][a-z0-9_]*(\.[a-z0-9][a-z0-9_]*)?$/);
  });

  it('defines every key the code asks for', () => {
    const used = new Set<string>();
    for (const source of Object.values(sources)) {
      for (const match of source.matchAll(/\bt\(\s*'([a-z][a-z0-9_]*\.[a-z0-9_]+)'/g)) used.add(match[1]!);
      for (const match of source.matchAll(/labelKey: '([a-z][a-z0-9_]*\.[a-z0-9_]+)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((key) => !english.has(key))).toEqual([]);
  });
});
