import { describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, resolveLanguage } from './languages.js';

describe('resolveLanguage', () => {
  it('reads our codes, the legacy tw and BCP 47 tags', () => {
    expect(resolveLanguage('en')).toBe('en');
    expect(resolveLanguage('tw')).toBe('hk');
    expect(resolveLanguage('pt-BR')).toBe('pt');
    expect(resolveLanguage('ja-JP')).toBe('jp');
    expect(resolveLanguage(' ES ')).toBe('spa');
  });

  it('answers the default for names of Object.prototype, which a header can carry', () => {
    for (const word of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__proto__-x']) {
      expect(resolveLanguage(word)).toBe(DEFAULT_LANGUAGE);
    }
  });
});
