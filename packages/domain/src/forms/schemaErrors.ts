/** What the forms use of a zod schema; structural, so an app needs no zod of its own. */
export interface FormSchema {
  safeParse(
    input: unknown,
  ): { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

export interface SchemaErrorOptions {
  /** Locale namespace of the texts: a schema's message key `code_invalid` is shown as `<namespace>.code_invalid`. */
  namespace: string;
  /** The request's field names as the form calls them (`sms_code` → `code`). */
  fields?: Record<string, string>;
  /** Texts to show instead of a message key's own, e.g. "enter your email" for `account_required` on the email tab. */
  messages?: Record<string, string>;
}

/**
 * A form's values checked with the domain's zod schema, the one the server parses the request with, so
 * the app refuses exactly what the server would and says why before sending. Answers the first problem
 * of each field, keyed by the form's field names, in the reader's language. A message key is read in the
 * form's namespace, then in `common` (keys every form shares, such as `field_characters_invalid`); one
 * the app has no text for reads as the namespace's `field_invalid`.
 */
export function schemaErrors(
  schema: FormSchema,
  values: unknown,
  t: (keys: string | string[]) => string,
  { namespace, fields = {}, messages = {} }: SchemaErrorOptions,
): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const found: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? 'form');
    const field = fields[name] ?? name;
    found[field] ??= t(
      messages[issue.message] ?? [`${namespace}.${issue.message}`, `common.${issue.message}`, `${namespace}.field_invalid`],
    );
  }
  return found;
}
