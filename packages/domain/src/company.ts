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
