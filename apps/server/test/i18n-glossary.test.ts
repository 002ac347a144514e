import { GLOSSARY, glossaryProblems, LANGUAGES } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import { catalogues, type PluralText } from '../src/i18n/catalog.js';

const forms = (text: string | PluralText | undefined): string[] =>
  typeof text === 'object' ? Object.entries(text).flatMap(([name, form]) => (name === 'by' ? [] : [form])) : [text ?? ''];

/**
 * The server names every trading concept with the same term as the web app: the shared glossary's, in
 * its variety and register (hk Hong Kong usage, pt Brazilian, spa tú).
 */
describe('server messages follow the glossary', () => {
  const entries = Object.values(catalogues).flatMap((catalogue) => Object.entries(catalogue));

  it.each([...LANGUAGES])('%s uses its glossary terms and none of its forbidden variants', (language) => {
    const problems = entries.flatMap(([key, texts]) => {
      const english = forms(texts.en).join(' ');
      return forms(texts[language]).flatMap((text) =>
        glossaryProblems(language, english, text).map((problem) => `${key} "${text}": ${problem}`),
      );
    });
    expect(problems, GLOSSARY[language].variety).toEqual([]);
  });
});
