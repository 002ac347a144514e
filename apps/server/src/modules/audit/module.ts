import type { CoreDeps, Module } from '../../context.js';
import { auditRoutes } from './routes.js';
import { AuditService } from './service.js';

export function createAuditModule(deps: CoreDeps) {
  const service = new AuditService({ db: deps.database.db, clock: deps.clock });
  const module: Module = { name: 'audit', routes: auditRoutes(deps.database.db) };
  return { module, service };
}
