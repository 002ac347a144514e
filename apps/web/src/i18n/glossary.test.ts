import { LANGUAGES } from '@pipwise/domain';
import { GLOSSARY, glossaryProblems } from '@pipwise/domain/test-support/glossary';
import { describe, expect, it } from 'vitest';

type Tree = Record<string, Record<string, string>>;

const files = import.meta.glob<Tree>(['./locales/*.json', './lazy/*/*.json'], { eager: true, import: 'default' });
/** The language's texts, from its locale file and every lazy bundle (i18n/lazy.ts), keyed `file:namespace.key`. */
const texts = (code: string) =>
  Object.entries(files)
    .filter(([file]) => file.endsWith(`/${code}.json`))
    .flatMap(([file, tree]) =>
      Object.entries(tree).flatMap(([namespace, keys]) =>
        Object.entries(keys).map(([key, text]) => [`${file.replace(`/${code}.json`, '')}:${namespace}.${key}`, text] as const),
      ),
    );
/** English of a key; a plural form (`lots_value_few`) is compared with all of English's forms. */
const english = new Map<string, string>(texts('en'));
const englishOf = (key: string) =>
  english.get(key) ??
  [...english]
    .filter(
      ([other]) => other.replace(/_(zero|one|two|few|many|other)$/, '') === key.replace(/_(zero|one|two|few|many|other)$/, ''),
    )
    .map(([, text]) => text)
    .join(' ');

/**
 * The app names every concept with the same term as the server and the back office: the shared
 * glossary's, in its variety and register (hk Hong Kong usage, pt Brazilian, spa tú).
 */
describe('web locales follow the glossary', () => {
  it('reads the lazy bundles too', () => {
    expect(texts('en').some(([key]) => key.startsWith('./lazy/signup:'))).toBe(true);
  });

  it.each([...LANGUAGES])('%s uses its glossary terms and none of its forbidden variants', (language) => {
    const problems = texts(language).flatMap(([key, text]) =>
      glossaryProblems(language, englishOf(key), text).map((problem) => `${key} "${text}": ${problem}`),
    );
    expect(problems, GLOSSARY[language].variety).toEqual([]);
  });
});
