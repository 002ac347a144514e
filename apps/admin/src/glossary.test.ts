import { GLOSSARY, glossaryProblems } from '@pipwise/domain/test-support/glossary';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' });

/** `area:key.sub` → text, for one language. */
function textsOf(language: string): Map<string, string> {
  const texts = new Map<string, string>();
  const walk = (tree: Tree, prefix: string) => {
    for (const [key, value] of Object.entries(tree)) {
      if (typeof value === 'string') texts.set(`${prefix}${key}`, value);
      else walk(value, `${prefix}${key}.`);
    }
  };
  for (const [file, tree] of Object.entries(files)) {
    const [, lang, area] = /^\.\/locales\/(\w+)\/(\w+)\.json$/.exec(file) ?? [];
    if (lang === language) walk(tree, `${area}:`);
  }
  return texts;
}

const english = textsOf('en');
/** A plural form (`rows_one`) is compared with all of English's forms of the key. */
const englishOf = (key: string) => {
  const stem = key.replace(/_(one|other)$/, '');
  return [...english]
    .filter(([other]) => other.replace(/_(one|other)$/, '') === stem)
    .map(([, text]) => text)
    .join(' ');
};

/** Operators sign in with an e-mail address: the back office's English keeps both words, which the app's avoids. */
const OPERATOR_WORDING = /^(?:email|log_in): expected|^forbidden "(?:e-mail|sign(?:ing|ed)?[- ]in)"$/i;

/**
 * The back office names every concept with the app's and the server's term (the shared glossary's): an
 * operator reads what the user read, in the same words.
 */
describe('back-office texts follow the glossary', () => {
  it.each(['en', 'hk'] as const)('%s uses its glossary terms and none of its forbidden variants', (language) => {
    const texts = textsOf(language);
    expect(texts.size).toBeGreaterThan(100);
    const problems = [...texts].flatMap(([key, text]) =>
      glossaryProblems(language, englishOf(key), text)
        .filter((problem) => !(language === 'en' && OPERATOR_WORDING.test(problem)))
        .map((problem) => `${key} "${text}": ${problem}`),
    );
    expect(problems, GLOSSARY[language].variety).toEqual([]);
  });
});
