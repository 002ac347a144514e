import { schemaErrors, type FormSchema, type SchemaErrorOptions } from '@pipwise/domain';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Form rules that check a field with the domain's zod schema, the one the server parses the request
 * with, through the adapter the web app uses (`schemaErrors`): a form refuses what the server would and
 * says why in the operator's language. `toRequest` turns the form's values into the request the page
 * sends. A message key is read in the page's namespace, then in `common`, else the namespace's
 * `field_invalid`. A rule may build its own request (one box of a field the schema checks as a whole).
 */
export function useSchemaRules<Values>(
  schema: FormSchema,
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
        const message = schemaErrors(schema, request, translate, { namespace, ...options })[field];
        if (message) throw new Error(message);
      },
    });
}
