import {
  COMPANY_PAGE_SIZE,
  CompanyStatus,
  CompanyType,
  isMainSite,
  type CompanyPageView,
  type CompanyStatusView,
  type CompanyView,
} from '@pipwise/domain';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { companies } from '../../db/schema.js';

export type CompanyRecord = typeof companies.$inferSelect;

/**
 * The site when no company is stored at all (an operator removed every row): the main site, open, under
 * the product's own name, so the app still starts.
 */
const BUILT_IN_MAIN: CompanyRecord = {
  id: 0,
  name: 'Pipwise',
  logo: '/icons/icon.svg',
  url: '',
  subject: '',
  registeredAddress: '',
  location: '',
  email: '',
  status: CompanyStatus.open,
  type: CompanyType.main,
  lossUrl: '',
  sort: 0,
  createdAt: new Date(0),
};

export const presentCompany = (row: CompanyRecord): CompanyView => ({
  id: row.id,
  name: row.name,
  logo: row.logo,
  url: row.url,
  subject: row.subject,
  registered_address: row.registeredAddress,
  location: row.location,
  email: row.email,
  // The status, type and exit URL are the site's own business, shown through getCompanyStatus only.
});

export const presentStatus = (row: CompanyRecord): CompanyStatusView => ({
  status: row.status,
  type: row.type,
  loss_url: row.lossUrl,
  is_main: isMainSite(row),
});

/** LIKE treats % and _ as wildcards and \ as the escape: a name typed by a user matches only itself. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * Companies of the white-label site. The current company of a request is the one its `company_id` cookie
 * names when that company exists (whatever its status, so a closed one can send the browser away), else
 * the main site: the first company of type 0 by (sort, id), else the first company, else a built-in one.
 */
export class CompaniesService {
  constructor(private readonly db: Db) {}

  async current(cookieCompanyId: number | undefined): Promise<CompanyRecord> {
    if (cookieCompanyId !== undefined) {
      const [chosen] = await this.db.select().from(companies).where(eq(companies.id, cookieCompanyId));
      if (chosen) return chosen;
    }
    const [main] = await this.db
      .select()
      .from(companies)
      .orderBy(sql`${companies.type} = ${CompanyType.main} DESC`, asc(companies.sort), asc(companies.id))
      .limit(1);
    return main ?? BUILT_IN_MAIN;
  }

  /** Open companies whose name contains `name` (any case), in the back office's order. */
  async search(name: string | undefined, page: number): Promise<CompanyPageView> {
    const open = sql`${companies.status} <> ${CompanyStatus.closed}`;
    const where = name
      ? sql`${open} AND lower(${companies.name}) LIKE '%' || lower(${likeLiteral(name)}) || '%' ESCAPE '\\'`
      : open;
    const [rows, [totals]] = await Promise.all([
      this.db
        .select()
        .from(companies)
        .where(where)
        .orderBy(asc(companies.sort), asc(companies.id))
        .limit(COMPANY_PAGE_SIZE)
        .offset((page - 1) * COMPANY_PAGE_SIZE),
      this.db.select({ total: count() }).from(companies).where(where),
    ]);
    return { data: rows.map(presentCompany), total: totals?.total ?? 0, page, page_size: COMPANY_PAGE_SIZE };
  }
}
