import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.js';
import { GLOSSARY, glossaryProblems } from '../../test-support/glossary.js';

describe('glossary', () => {
  it.each([...LANGUAGES])('%s forbids none of its own terms', (language) => {
    const { terms, forbidden } = GLOSSARY[language];
    const clashes = Object.values(terms).flatMap(([term]) =>
      forbidden.filter((pattern) => pattern.test(term)).map((pattern) => `${term} ${pattern}`),
    );
    expect(clashes).toEqual([]);
  });

  it('names a concept the translation misses, and a forbidden variant it uses', () => {
    expect(glossaryProblems('hk', 'Please log in first', '請先登錄')).toEqual(['log_in: expected "登入"', 'forbidden "登錄"']);
    expect(glossaryProblems('hk', 'Please log in first', '請先登入')).toEqual([]);
    expect(glossaryProblems('pt', 'Incorrect account or password', 'Conta ou palavra-passe incorreta')).toEqual([
      'password: expected "senha"',
      'forbidden "palavra-passe"',
    ]);
    expect(glossaryProblems('spa', 'Please enter your password', 'Introduzca su contraseña')).toHaveLength(2);
    expect(glossaryProblems('spa', 'Please enter your password', 'Introduce tu contraseña')).toEqual([]);
  });

  it('holds one term for each concept the app and the server once named two ways', () => {
    expect(glossaryProblems('de', 'Payout method deleted', 'Zahlungsweg gelöscht')).toEqual([
      'payout_method: expected "Auszahlungsmethode"',
      'forbidden "Zahlungsweg"',
    ]);
    expect(glossaryProblems('kr', 'Your Pipwise identity verification', 'Pipwise 본인 인증')).toEqual([
      'real_name_verification: expected "실명 인증"',
      'forbidden "본인 인증"',
    ]);
    expect(glossaryProblems('en', 'Your Pipwise identity verification', 'Your Pipwise identity verification')).toEqual([
      'real_name_verification: expected "real-name verification"',
      'forbidden "identity verification"',
    ]);
    expect(glossaryProblems('tr', 'Locked', 'Bloke')).toEqual(['locked_funds: expected "kilitli"', 'forbidden "Bloke"']);
    expect(glossaryProblems('spa', 'Add bank account', 'Añadir cuenta bancaria')).toEqual(['forbidden "Añad"']);
    expect(glossaryProblems('hk', 'Thank you for your feedback', '多謝您的意見')).toEqual(['forbidden "您"']);
    expect(glossaryProblems('it', '1 (white label)', '1 (white label)')).toEqual([
      'white_label: expected "marchio del partner"',
      'forbidden "white label"',
    ]);
  });

  it('accepts inflected forms and ignores Arabic diacritics', () => {
    expect(glossaryProblems('ru', 'The verification code has expired', 'Срок действия кода подтверждения истёк')).toEqual([]);
    expect(glossaryProblems('ar', 'Cancel this pending order?', 'هل تريد إلغاء هذا الأمر المعلّق؟')).toEqual([]);
    expect(glossaryProblems('tr', 'Lots', 'İşlem Lotları')).toEqual([]);
  });
});
