import { z } from 'zod';
import { intFromInput, optionalText, pageQuery, positiveIntId, requiredText, safeText } from './schemas/common.js';

/** Company paths (docs/api.md); the search path is ours, the spec names none. */
export const CompanyPath = {
  status: '/api/company/getCompanyStatus',
  company: '/api/company/getCompany',
  search: '/api/company/search',
  manifest: '/manifest.json',
  adminSave: '/admin/api/companies',
} as const;

/** The cookie that remembers which company's site the browser entered (docs/api.md: kept 3 years). */
export const COMPANY_COOKIE = 'company_id';
export const COMPANY_COOKIE_MAX_AGE_SECONDS = 3 * 365 * 24 * 60 * 60;

/** `status` 0 closes a company's site (the browser goes to `loss_url`); `type` 0 is the main site. */
export const CompanyStatus = { closed: 0, open: 1 } as const;
export const CompanyType = { main: 0, whiteLabel: 1 } as const;

export const COMPANY_PAGE_SIZE = 20;

/** isMain (docs/api.md): an open site of type main. */
export const isMainSite = (site: { status: number; type: number }) =>
  site.status !== CompanyStatus.closed && site.type === CompanyType.main;

/** The public profile of a company (docs/api.md). */
export interface CompanyView {
  id: number;
  name: string;
  logo: string;
  url: string;
  subject: string;
  registered_address: string;
  location: string;
  email: string;
}

export interface CompanyStatusView {
  status: number;
  type: number;
  loss_url: string;
  is_main: boolean;
}

export interface CompanyPageView {
  data: CompanyView[];
  total: number;
  page: number;
  page_size: number;
}

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
