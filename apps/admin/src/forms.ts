import { schemaErrors, type FormSchema, type SchemaErrorOptions } from '@pipwise/domain';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A schema, or how to load it: a page drawn before anything else (sign-in) passes a loader, so zod and the
 * domain's schemas download when a field is first checked, not before the page shows.
 */
export type SchemaSource = FormSchema | (() => Promise<FormSchema>);

/**
 * Form rules that check a field with the domain's zod schema, the one the server parses the request
 * with, through the adapter the web app uses (`schemaErrors`): a form refuses what the server would and
 * says why in the operator's language. `toRequest` turns the form's values into the request the page
 * sends. A message key is read in the page's namespace, then in `common`, else the namespace's
 * `field_invalid`. A rule may build its own request (one box of a field the schema checks as a whole).
 */
export function useSchemaRules<Values>(
  schema: SchemaSource,
  namespace: string,
  toRequest: (values: Values) => unknown,
  options: Omit<SchemaErrorOptions, 'namespace'> = {},
) {
  const { t } = useTranslation(namespace);
  // The adapter names a key `<namespace>.<key>`; the back office keeps a namespace per file (`<namespace>:<key>`).
  const translate = (keys: string | string[]) => t([keys].flat().map((key) => key.replace('.', ':')));
  return (field: string, requestOf: (values: Values) => unknown = toRequest): FormRule =>
    ({ getFieldsValue }) => ({
      validator: async () => {
        const request = requestOf(getFieldsValue(true) as Values);
        const checked = typeof schema === 'function' ? await schema() : schema;
        const message = schemaErrors(checked, request, translate, { namespace, ...options })[field];
        if (message) throw new Error(message);
      },
    });
}
