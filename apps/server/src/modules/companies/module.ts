import type { CoreDeps, Module } from '../../context.js';
import { companyRoutes } from './routes.js';
import { seedCompanies } from './seed.js';
import { CompaniesService } from './service.js';

/** The company (white-label) site: which company a browser sees, the company search, the manifest. */
export function createCompaniesModule(deps: CoreDeps) {
  const service = new CompaniesService(deps.database.db);
  const module: Module = {
    name: 'companies',
    routes: companyRoutes(service, deps.config),
    seed: () => seedCompanies(deps.database.db),
  };
  return { service, module };
}
