import { LANGUAGES, type Language } from '@pipwise/domain';
import { GLOSSARY, glossaryProblems } from '@pipwise/domain/test-support/glossary';
import { describe, expect, it } from 'vitest';
import { catalogues, OPERATOR_LANGUAGES, operatorCatalogues, type Catalogue, type PluralText } from '../src/i18n/catalog.js';

const forms = (text: string | PluralText | undefined): string[] =>
  typeof text === 'object' ? Object.entries(text).flatMap(([name, form]) => (name === 'by' ? [] : [form])) : [text ?? ''];

/** Operators sign in with an e-mail address: the back office's English keeps both words, which the app's avoids. */
const OPERATOR_WORDING = /^(?:email|log_in): expected|^forbidden "(?:e-mail|sign(?:ing|ed)?[- ]in)"$/i;

function problemsOf(catalogueSet: Record<string, Catalogue>, language: Language, operatorFacing: boolean): string[] {
  return Object.values(catalogueSet)
    .flatMap((catalogue) => Object.entries(catalogue))
    .flatMap(([key, texts]) => {
      const english = forms(texts.en).join(' ');
      return forms(texts[language]).flatMap((text) =>
        glossaryProblems(language, english, text)
          .filter((problem) => !(operatorFacing && language === 'en' && OPERATOR_WORDING.test(problem)))
          .map((problem) => `${key} "${text}": ${problem}`),
      );
    });
}

/**
 * The server names every concept with the same term as the web app and the back office: the shared
 * glossary's, in its variety and register (hk Hong Kong usage, pt Brazilian, spa tú). That covers the
 * users' messages and e-mails and the operators' messages.
 */
describe('server messages follow the glossary', () => {
  it.each([...LANGUAGES])('%s uses its glossary terms and none of its forbidden variants', (language) => {
    expect(problemsOf(catalogues, language, false), GLOSSARY[language].variety).toEqual([]);
  });

  it.each([...OPERATOR_LANGUAGES])('operator messages in %s follow the glossary', (language) => {
    expect(problemsOf(operatorCatalogues, language, true), GLOSSARY[language].variety).toEqual([]);
  });
});
