import { z } from 'zod';

/**
 * Form-encoded bodies carry every value as text; these helpers accept both JSON and form shapes and
 * attach a message key (translated by the server) to each failure.
 */
/** C0 and C1 controls and DEL: a NUL cannot even be stored in PostgreSQL text, the rest hide or break lines (U+0085 is a line break). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * What lets a text shown to others look like something it is not: the zero-width space, word joiner and
 * byte order mark hide inside a name, the bidi embeddings, overrides and isolates reorder what follows
 * ("gnp.exe" shown for "exe.png"), line and paragraph separators break a line, and a lone surrogate is no
 * character at all (PostgreSQL refuses it, as it refuses a NUL). The zero-width (non-)joiner and the
 * left-to-right and right-to-left marks stay: Hindi, Arabic and emoji need them.
 */
const INVISIBLE_CHARACTERS =
  /[\u200B\u2028\u2029\u202A-\u202E\u2060\u2066-\u2069\uFEFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `value` is free of control characters (but `allowed`) and of invisible or reordering ones. */
export const hasOnlyVisibleCharacters = (value: string, allowed = '') =>
  !INVISIBLE_CHARACTERS.test(value) && ![...value].some((char) => CONTROL_CHARACTERS.test(char) && !allowed.includes(char));

const UNSAFE_CHARACTER = new RegExp(`${INVISIBLE_CHARACTERS.source}|${CONTROL_CHARACTERS.source}`, 'g');

/**
 * `value` with every control, invisible or reordering character (and lone surrogate) replaced by U+FFFD:
 * for text that must still be recorded as it came (a failed sign-in's e-mail in the audit log).
 */
export const withUnsafeCharactersReplaced = (value: string) => value.replace(UNSAFE_CHARACTER, '\uFFFD');

/**
 * Any single-line text input: control, invisible and reordering characters are invalid input, refused
 * with a message that says so before anything reaches the database or a log. Every string a schema
 * accepts starts here.
 */
export const safeText = (messageKey = 'field_invalid') =>
  z.string({ error: messageKey }).refine((value) => hasOnlyVisibleCharacters(value), { error: 'field_characters_invalid' });

export const requiredText = (messageKey: string, max = 255) =>
  safeText(messageKey).trim().min(1, { error: messageKey }).max(max, { error: 'field_too_long' });

export const optionalText = (max = 255) =>
  safeText()
    .trim()
    .max(max, { error: 'field_too_long' })
    .optional()
    .transform((value) => (value === '' ? undefined : value));

/** Forms post every field, the ones left blank as '': an optional field sent empty is a field left out. */
const emptyAsAbsent = (value: unknown) => (value === '' ? undefined : value);

/** An optional field: absent, or sent empty by a form, it is undefined; otherwise `schema` decides. */
export const optionalInput = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsAbsent, schema.optional());

/** A field with a default: absent, or sent empty by a form, it is `fallback`; otherwise `schema` decides. */
export const inputOrDefault = <T extends z.ZodType>(schema: T, fallback: Exclude<z.output<T>, undefined>) =>
  z.preprocess(emptyAsAbsent, schema.default(fallback as never));

/** Query strings and forms carry numbers as text: plain decimal digits are read as the number they spell. */
const digitsToNumber = (value: unknown) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value);

/**
 * An integer: a JSON number, or plain decimal digits from a query or form. Nothing else is read as a
 * number (coercion took "0x10" for 16, true for 1, and null, false, "" and [] for 0). `rules` adds
 * bounds to the number.
 */
export const intFromInput = (messageKey: string, rules: (number: z.ZodNumber) => z.ZodNumber = (number) => number) =>
  z.preprocess(digitsToNumber, rules(z.number({ error: messageKey }).int({ error: messageKey }).safe({ error: messageKey })));

export const positiveIntId = (messageKey: string, rules: (number: z.ZodNumber) => z.ZodNumber = (number) => number) =>
  intFromInput(messageKey, (number) => rules(number.positive({ error: messageKey })));

/** Plain decimal text: digits, optionally a point and up to `decimals` digits. No signs, exponents or spaces. */
const decimalPattern = (decimals: number) => new RegExp(`^\\d{1,13}(\\.\\d{1,${decimals}})?$`);

/**
 * A positive decimal from JSON (number or string) or a form (string), handed on as exact text so it
 * never passes through a float again. Numbers are read through their shortest round-trip text, which
 * is the literal the client wrote.
 */
export const positiveDecimal = (messageKey: string, decimals: number, max: string) =>
  z
    .union([z.string(), z.number()], { error: messageKey })
    .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
    .refine((text) => decimalPattern(decimals).test(text), { error: messageKey })
    .refine((text) => Number(text) > 0 && !isAbove(text, max), { error: messageKey });

/** Compares decimal texts without floats: integer parts by length then lexically, then the fraction. */
function isAbove(text: string, max: string): boolean {
  const [intPart = '', fraction = ''] = text.split('.');
  const whole = intPart.replace(/^0+(?=\d)/, '');
  if (whole.length !== max.length) return whole.length > max.length;
  if (whole !== max) return whole > max;
  return /[1-9]/.test(fraction);
}

/** Paging used by every list endpoint: page starts at 1, fixed page size chosen by the server. */
export const pageQuery = z.object({
  page: inputOrDefault(
    intFromInput('page_invalid', (number) => number.min(1, { error: 'page_invalid' }).max(1_000_000, { error: 'page_invalid' })),
    1,
  ),
});
