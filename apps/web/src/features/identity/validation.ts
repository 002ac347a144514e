import { ZRealNameRequest, schemaErrors } from '@pipwise/domain';

/** The form's fields: the name, the ID number and one upload id per side of the document. */
export interface RealNameForm {
  name: string;
  card_id: string;
  front_pic: string | undefined;
  reverse_pic: string | undefined;
}

const FIELDS = { front_pic: 'front', reverse_pic: 'reverse' };

/**
 * The form's problems keyed by field, from the schema the server parses the request with (docs/api.md: the
 * name and the ID number each with its own message, exactly one image per side).
 */
export function realNameErrors(form: RealNameForm, t: (keys: string | string[]) => string): Record<string, string> {
  const request = { ...form, front_pic: form.front_pic ?? '', reverse_pic: form.reverse_pic ?? '' };
  return schemaErrors(ZRealNameRequest, request, t, { namespace: 'identity', fields: FIELDS });
}
