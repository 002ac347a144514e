import { CompanyStatus, CompanyType } from '@pipwise/domain';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { companies } from '../../db/schema.js';

type CompanySeed = typeof companies.$inferInsert;

/**
 * The main site and example white-label companies for a fresh installation, so the company search and
 * the branding work before the back office has set real ones. Logos ship with the web app (same origin).
 */
export const EXAMPLE_COMPANIES: CompanySeed[] = [
  {
    name: 'Pipwise',
    logo: '/icons/icon.svg',
    url: 'https://pipwise.example',
    subject: 'Pipwise Markets Ltd',
    registeredAddress: '1 Harbour View Street, Central, Hong Kong',
    location: 'Hong Kong',
    email: 'support@pipwise.example',
    status: CompanyStatus.open,
    type: CompanyType.main,
    sort: 0,
  },
  {
    name: 'Harbor Point Markets',
    logo: '/companies/harbor-point.svg',
    url: 'https://harborpoint.example',
    subject: 'Harbor Point Markets Pte. Ltd.',
    registeredAddress: '8 Marina Boulevard, Singapore 018981',
    location: 'Singapore',
    email: 'service@harborpoint.example',
    status: CompanyStatus.open,
    type: CompanyType.whiteLabel,
    sort: 1,
  },
  {
    name: 'Nordwind Capital',
    logo: '/companies/nordwind.svg',
    url: 'https://nordwind.example',
    subject: 'Nordwind Capital GmbH',
    registeredAddress: 'Neue Mainzer Straße 52, 60311 Frankfurt am Main, Germany',
    location: 'Frankfurt',
    email: 'kontakt@nordwind.example',
    status: CompanyStatus.open,
    type: CompanyType.whiteLabel,
    sort: 2,
  },
  {
    name: 'Cedar & Gold Trading',
    logo: '/companies/cedar-gold.svg',
    url: 'https://cedargold.example',
    subject: 'Cedar & Gold Trading FZE',
    registeredAddress: 'Gate Village 4, DIFC, Dubai, United Arab Emirates',
    location: 'Dubai',
    email: 'care@cedargold.example',
    status: CompanyStatus.open,
    type: CompanyType.whiteLabel,
    sort: 3,
  },
  {
    name: 'Sakura Bridge FX',
    logo: '/companies/sakura-bridge.svg',
    url: 'https://sakurabridge.example',
    subject: 'Sakura Bridge FX K.K.',
    registeredAddress: '2-7-3 Marunouchi, Chiyoda-ku, Tokyo 100-0005, Japan',
    location: 'Tokyo',
    email: 'info@sakurabridge.example',
    status: CompanyStatus.open,
    type: CompanyType.whiteLabel,
    sort: 4,
  },
];

/**
 * Seeds the example companies into an empty table only: once companies exist they belong to the back
 * office. The advisory lock makes the check and the insert one step for concurrent first starts.
 */
export async function seedCompanies(db: Db) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('seed:companies'))`);
    const [existing] = await tx.select({ n: count() }).from(companies);
    if (Number(existing?.n ?? 0) > 0) return;
    await tx.insert(companies).values(EXAMPLE_COMPANIES);
  });
}
