import { describe, expect, it } from 'vitest';
import { ZDemoRequest, ZForgetPasswordRequest, ZLoginRequest, ZRegisterRequest, ZSendCodeRequest } from './accounts.js';
import { optionalText, requiredText, safeText, withUnsafeCharactersReplaced } from './common.js';

const CONTROLS = ['\u0000', '\u0007', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f'];

describe('safe text', () => {
  it.each(CONTROLS.map((c) => [JSON.stringify(c), c]))('refuses %s anywhere in a text input', (_, control) => {
    for (const schema of [safeText(), requiredText('x_required'), optionalText()]) {
      for (const text of [`${control}abc`, `ab${control}c`, `abc${control}`]) {
        const result = schema.safeParse(text);
        expect(result.success, JSON.stringify(text)).toBe(false);
        expect(result.error?.issues[0]?.message).toBe('field_characters_invalid');
      }
    }
  });

  it.each([
    ['NEL', '\u0085'],
    ['a lone high surrogate', '\uD83D'],
    ['a lone low surrogate', '\uDE00'],
    ['a zero-width space', '\u200B'],
    ['a word joiner', '\u2060'],
    ['a byte order mark', '\uFEFF'],
    ['a line separator', '\u2028'],
    ['a right-to-left override', '\u202E'],
    ['a left-to-right embedding', '\u202A'],
    ['a first-strong isolate', '\u2068'],
  ])('refuses %s inside a text input', (_, character) => {
    for (const schema of [safeText(), requiredText('x_required'), optionalText()]) {
      const result = schema.safeParse(`ab${character}c`);
      expect(result.error?.issues[0]?.message).toBe('field_characters_invalid');
    }
  });

  it('keeps the joiners, direction marks and surrogate pairs that scripts and emoji need', () => {
    for (const text of ['क्\u200Dष', 'می\u200Cخواهم', 'مرحبا\u200F 1', 'a\u200Eb', '👩\u200D💻', '😀']) {
      expect(requiredText('x').parse(text)).toBe(text);
    }
  });

  it('replaces what it refuses with U+FFFD where a text must be recorded as it came', () => {
    expect(withUnsafeCharactersReplaced('a\u0000b\uD800c\u202Ed😀')).toBe('a\uFFFDb\uFFFDc\uFFFDd😀');
  });

  it('accepts any printable text, in any script, and trims spaces', () => {
    expect(requiredText('x').parse('  Ελένη 陳大文 ناصر  ')).toBe('Ελένη 陳大文 ناصر');
    expect(optionalText().parse('')).toBeUndefined();
  });

  it('guards every text field of the accounts requests', () => {
    const nul = 'a\u0000b';
    const refused = [
      ZLoginRequest.safeParse({ account: nul, password: 'Secret123' }),
      ZLoginRequest.safeParse({ account: 'a@example.com', password: `Secret123${'\u0000'}` }),
      ZLoginRequest.safeParse({ account: 'a@example.com', password: 'Secret123', captcha: nul }),
      ZSendCodeRequest.safeParse({ to: nul, type: 1 }),
      ZRegisterRequest.safeParse({
        type: 1,
        account: 'a@example.com',
        password: 'Secret123',
        re_password: 'Secret123',
        sms_code: '123456',
        invite_code: nul,
      }),
      ZForgetPasswordRequest.safeParse({
        type: 1,
        account: 'a@example.com',
        new_password: 'Secret123',
        secondary_password: `Secret123${'\u0000'}`,
        auth_code: '123456',
      }),
      ZDemoRequest.safeParse({ demo_id: '12345678', demo_secret: `${'a'.repeat(42)}\u0000` }),
    ];
    for (const result of refused) expect(result.success).toBe(false);
  });
});
