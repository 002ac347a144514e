import { z } from 'zod';
import { intFromInput, optionalText, pageQuery, positiveIntId, requiredText, safeText } from './common.js';

/*
 * The company requests' schemas, apart from company.ts: the app's first screen needs the company paths and
 * views, and zod would come with them.
 */
export const ZCompanySearchQuery = pageQuery.extend({ name: optionalText(64) });

/** An absolute http(s) URL or a path on this origin; nothing that runs script (javascript:, data:). */
const linkText = (messageKey: string) =>
  safeText(messageKey)
    .trim()
    .max(500, { error: 'field_too_long' })
    .refine((value) => value === '' || /^(https?:\/\/[^\s]+|\/[^\s]*)$/i.test(value), { error: messageKey });

/** Free text that an update may also clear (''). */
const profileText = (max: number) => safeText().trim().max(max, { error: 'field_too_long' }).optional();

const flag = (messageKey: string) =>
  intFromInput(messageKey, (number) => number.min(0, { error: messageKey }).max(1, { error: messageKey }));

/** The operator's create (no id) or update (id) of a company; omitted fields keep their value on update. */
export const ZCompanySave = z.object({
  id: positiveIntId('company_not_found').optional(),
  name: requiredText('company_name_required', 100).optional(),
  logo: linkText('company_link_invalid').optional(),
  url: linkText('company_link_invalid').optional(),
  subject: profileText(200),
  registered_address: profileText(300),
  location: profileText(100),
  email: profileText(200),
  status: flag('company_status_invalid').optional(),
  type: flag('company_type_invalid').optional(),
  loss_url: linkText('company_link_invalid').optional(),
  sort: intFromInput('company_sort_invalid', (number) =>
    number.min(-1_000_000, { error: 'company_sort_invalid' }).max(1_000_000, { error: 'company_sort_invalid' }),
  ).optional(),
});
export type CompanySave = z.infer<typeof ZCompanySave>;
