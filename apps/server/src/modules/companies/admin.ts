import {
  CompanyStatus,
  invalid,
  notFound,
  ZCompanyChange,
  ZCompanySave,
  ZCompanyAdminView,
  type CompanyAdminView,
  type CompanySave,
} from '@pipwise/domain';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { companies } from '../../db/schema.js';
import { registerAdminCrud } from '../../http/admin-crud.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import type { AuditService } from '../audit/service.js';
import { presentCompany, presentStatus, type CompanyRecord } from './service.js';

/** A company as the back office edits it: its profile, its site status and its place in the list. */
export const companyAdminView = (row: CompanyRecord): CompanyAdminView => ({
  ...presentCompany(row),
  ...presentStatus(row),
  sort: row.sort,
});

/**
 * The operators' side of companies (the white-label sites). The site status (`status`, `type`,
 * `loss_url`) is read from the table on every request, so a change applies at once in every process.
 */
export class CompaniesAdmin {
  constructor(private readonly deps: { db: Db; audit: AuditService }) {}

  async list(): Promise<CompanyAdminView[]> {
    const rows = await this.deps.db.select().from(companies).orderBy(asc(companies.sort), asc(companies.id));
    return rows.map(companyAdminView);
  }

  /** Creates (no id) or updates (id; omitted fields keep their value), audited in the same transaction. */
  async save(input: CompanySave, by: OperatorPrincipal, ip: string) {
    const fields = {
      name: input.name,
      logo: input.logo,
      url: input.url,
      subject: input.subject,
      registeredAddress: input.registered_address,
      location: input.location,
      email: input.email,
      status: input.status,
      type: input.type,
      lossUrl: input.loss_url,
      sort: input.sort,
    };
    return this.deps.db.transaction(async (tx) => {
      if (input.id === undefined) {
        if (input.name === undefined) throw invalid('company_name_required', { field: 'name' });
        requireExitWhenClosed(input.status ?? CompanyStatus.open, input.loss_url ?? '');
        const [created] = await tx
          .insert(companies)
          .values({ ...fields, name: input.name })
          .returning();
        const view = companyAdminView(created!);
        await this.deps.audit.record(
          { by, action: 'company.create', targetType: 'company', targetId: created!.id, after: view, ip },
          tx,
        );
        return view;
      }
      const [row] = await tx.select().from(companies).where(eq(companies.id, input.id)).for('update');
      if (!row) throw notFound('company_not_found');
      requireExitWhenClosed(input.status ?? row.status, input.loss_url ?? row.lossUrl);
      const [updated] = await tx.update(companies).set(fields).where(eq(companies.id, input.id)).returning();
      const view = companyAdminView(updated!);
      await this.deps.audit.record(
        {
          by,
          action: 'company.update',
          targetType: 'company',
          targetId: input.id,
          before: companyAdminView(row),
          after: view,
          ip,
        },
        tx,
      );
      return view;
    });
  }
}

/** A closed site sends its visitors to `loss_url`: closing one without somewhere to send them strands them. */
function requireExitWhenClosed(status: number, lossUrl: string) {
  if (status === CompanyStatus.closed && lossUrl === '') throw invalid('company_loss_url_required');
}

export function registerCompanyAdminRoutes(app: FastifyInstance, admin: CompaniesAdmin) {
  // Create; with an `id` in the body, POST saves as the update PUT does (kept for callers of the first operator API).
  registerAdminCrud(
    app,
    '/admin/api/companies',
    'content',
    {
      create: ZCompanySave,
      change: ZCompanyChange,
      row: ZCompanyAdminView,
      list: z.array(ZCompanyAdminView),
      notFoundKey: 'company_not_found',
    },
    {
      list: () => admin.list(),
      create: (input, by, ip) => admin.save(input, by, ip),
      update: (id, change, by, ip) => admin.save({ ...change, id }, by, ip),
    },
  );
}
