import { AccountType, ZForgetPasswordRequest, ZLoginRequest, ZRegisterRequest } from '@pipwise/domain';
import fc from 'fast-check';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import de from '../i18n/locales/de.json';
import en from '../i18n/locales/en.json';
import { schemaErrors, type FormSchema } from '@pipwise/domain';

const i18n = createInstance();
await i18n.init({ lng: 'en', resources: { en: { translation: en }, de: { translation: de } }, fallbackLng: false });

const errorsOf = (schema: FormSchema, values: unknown, lang = 'en') =>
  schemaErrors(schema, values, i18n.getFixedT(lang), { namespace: 'auth' });

/** What people type: empty, blank, short, letters only, digits only, a good password, a NUL, far too long. */
const typed = fc.oneof(
  fc.constantFrom('', '   ', 'abc', 'abcdefgh', '12345678', 'Secret123', '123456', '12a456', 'a\u0000b', 'x'.repeat(300)),
  fc.string({ maxLength: 80 }),
);

const forms: [string, FormSchema, fc.Arbitrary<Record<string, unknown>>][] = [
  ['login', ZLoginRequest, fc.record({ account: typed, password: typed })],
  [
    'register',
    ZRegisterRequest,
    fc.record({
      type: fc.constant(AccountType.email),
      account: typed,
      password: typed,
      re_password: typed,
      sms_code: typed,
      invite_code: typed,
    }),
  ],
  [
    'forgot',
    ZForgetPasswordRequest,
    fc.record({
      type: fc.constant(AccountType.email),
      account: typed,
      new_password: typed,
      secondary_password: typed,
      auth_code: typed,
    }),
  ],
];

describe('auth form rules are the server schema', () => {
  it.each(forms)('the %s form refuses exactly what the server refuses, saying why in words', (_, schema, values) => {
    fc.assert(
      fc.property(values, fc.constantFrom('en', 'de'), (input, lang) => {
        const errors = errorsOf(schema, input, lang);
        expect(Object.keys(errors).length > 0).toBe(!schema.safeParse(input).success);
        for (const message of Object.values(errors)) expect(message).not.toMatch(/^auth\.|_/);
      }),
      { numRuns: 300 },
    );
  });

  it('says that a field holds control or invisible characters, as the server does', () => {
    for (const account of ['a\u200Bb@example.com', 'a\u202Eb@example.com', 'a\u0000b@example.com']) {
      expect(errorsOf(ZLoginRequest, { account, password: 'Secret123' }).account).toBe(
        'This field contains control or invisible characters; please remove them',
      );
    }
  });

  it('refuses a password the old form let through, with the rule, under the field the form shows', () => {
    const register = {
      type: AccountType.email,
      account: 'bob@example.com',
      password: 'abcdefgh',
      re_password: 'abcdefgh',
      sms_code: '12345',
      country: 'DE',
      risk_disclosure_version: 1,
    };
    expect(
      schemaErrors(ZRegisterRequest, register, i18n.getFixedT('en'), { namespace: 'auth', fields: { sms_code: 'code' } }),
    ).toEqual({
      password: en.auth.password_rules,
      code: en.auth.code_invalid,
    });
  });

  it('shows a form its own text for a message key, and a generic one for a key it has no text for', () => {
    const t = i18n.getFixedT('en');
    expect(
      schemaErrors(ZLoginRequest, { account: ' ', password: 'x' }, t, {
        namespace: 'auth',
        messages: { account_required: 'auth.email_required' },
      }),
    ).toEqual({ account: en.auth.email_required });
    expect(
      errorsOf(ZRegisterRequest, {
        type: 9,
        account: 'a@b.c',
        password: 'Secret123',
        re_password: 'Secret123',
        sms_code: '123456',
        country: 'DE',
        risk_disclosure_version: 1,
      }),
    ).toEqual({
      type: en.auth.field_invalid,
    });
  });
});
