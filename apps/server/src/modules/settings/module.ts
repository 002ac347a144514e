import type { CoreDeps, Module } from '../../context.js';
import type { AuditService } from '../audit/service.js';
import type { ApprovalsService } from '../operators/approvals.js';
import { settingsRoutes } from './routes.js';
import { SettingsService } from './service.js';

/**
 * Operator settings, read by the modules through one cached service (see `SettingsService`) and written
 * through the operator API.
 */
export function createSettingsModule(deps: CoreDeps, services: { audit: AuditService; approvals: ApprovalsService }) {
  const service = new SettingsService({ db: deps.database.db, bus: deps.bus, clock: deps.clock, ...services });
  const module: Module = {
    name: 'settings',
    routes: settingsRoutes(service),
    stop: async () => service.stop(),
  };
  return { service, module };
}
