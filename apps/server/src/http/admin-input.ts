import {
  dec,
  intFromInput,
  invalid,
  LANGUAGES,
  notFound,
  pageQuery,
  positiveIntId,
  safeText,
  type Language,
} from '@pipwise/domain';
import { z } from 'zod';

/**
 * Input helpers of the back office's catalogue and content forms: decimals kept as exact text, ids in
 * paths, names in every language, and "a change must change something".
 */

/**
 * A decimal from JSON (number or string) kept as exact text: plain digits, at most `scale` decimals and
 * `integerDigits` before the point (what the column holds); `positive` refuses zero. A JSON number is
 * read through its shortest round-trip text (the literal the operator typed); 1e-7 is refused.
 */
export const decimalInput = (messageKey: string, scale: number, options: { positive?: boolean; integerDigits?: number } = {}) => {
  const pattern = new RegExp(`^\\d{1,${options.integerDigits ?? 12}}${scale > 0 ? `(\\.\\d{1,${scale}})?` : ''}$`);
  return z
    .union([z.string(), z.number()], { error: messageKey })
    .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
    .refine((text) => pattern.test(text) && (!options.positive || dec(text).gt(0)), { error: messageKey })
    .transform((text) => dec(text).toFixed());
};

/** The numeric id of a path such as /instruments/:id; anything else names nothing: "not found" under `messageKey`. */
export function pathId(params: unknown, messageKey: string): number {
  const parsed = z.object({ id: positiveIntId(messageKey) }).safeParse(params);
  if (!parsed.success) throw notFound(messageKey);
  return parsed.data.id;
}

/** A flag from JSON: true or false only (a form's "1" is not a boolean). */
export const flagInput = (messageKey: string) => z.boolean({ error: messageKey });

/** An ordering number as every list sorts by. */
export const sortInput = (messageKey: string) =>
  z.number({ error: messageKey }).int({ error: messageKey }).min(-1_000_000, { error: messageKey }).max(1_000_000, {
    error: messageKey,
  });

/** A text in every one of the product's languages (category names): none missing, none empty, no others. */
export const namesInAllLanguages = (messageKey: string, max = 100) =>
  z
    .record(z.string(), safeText(messageKey).trim().min(1, { error: messageKey }).max(max, { error: 'field_too_long' }), {
      error: messageKey,
    })
    .refine(
      (names) =>
        LANGUAGES.every((language) => Object.hasOwn(names, language)) &&
        Object.keys(names).every((key) => (LANGUAGES as readonly string[]).includes(key)),
      { error: messageKey },
    )
    .transform((names) => names as Record<Language, string>);

/** The fields a partial update gives (undefined ones keep the stored value when spread over it). */
export const definedFields = <T extends object>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

/** An update must name at least one field to change. */
export function requireSomeChange<T extends object>(changes: T): T {
  if (!Object.values(changes).some((value) => value !== undefined)) throw invalid('admin_nothing_to_change');
  return changes;
}

/** Back-office content lists (news, announcements): `?lang=&published=0|1&page=&page_size=` (at most 100 a page). */
export const ZContentAdminQuery = pageQuery.extend({
  lang: z.enum(LANGUAGES, { error: 'content_lang_filter_invalid' }).optional(),
  published: z.enum(['0', '1'], { error: 'content_published_filter_invalid' }).optional(),
  page_size: intFromInput('page_size_invalid', (number) =>
    number.min(1, { error: 'page_size_invalid' }).max(100, { error: 'page_size_invalid' }),
  ).default(20),
});
export type ContentAdminQuery = z.infer<typeof ZContentAdminQuery>;
