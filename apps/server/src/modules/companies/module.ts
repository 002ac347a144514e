import type { CoreDeps, Module } from '../../context.js';
import type { AuditService } from '../audit/service.js';
import { CompaniesAdmin, registerCompanyAdminRoutes } from './admin.js';
import { companyRoutes } from './routes.js';
import { seedCompanies } from './seed.js';
import { CompaniesService } from './service.js';

/** The company (white-label) site: which company a browser sees, the company search, the manifest. */
export function createCompaniesModule(deps: CoreDeps, services: { audit: AuditService }) {
  const service = new CompaniesService(deps.database.db);
  const admin = new CompaniesAdmin({ db: deps.database.db, audit: services.audit });
  const module: Module = {
    name: 'companies',
    routes: (app) => {
      companyRoutes(service)(app);
      registerCompanyAdminRoutes(app, admin);
    },
    seed: () => seedCompanies(deps.database.db),
  };
  return { service, module };
}
