import type { CoreDeps, Module } from '../../context.js';
import { settingsRoutes } from './routes.js';
import { SettingsService } from './service.js';

/**
 * Operator settings, read by the modules through one cached service (see `SettingsService`) and written
 * through the operator API.
 */
export function createSettingsModule(deps: CoreDeps) {
  const service = new SettingsService({ db: deps.database.db, bus: deps.bus, clock: deps.clock });
  const module: Module = {
    name: 'settings',
    routes: settingsRoutes(service, deps.config),
    stop: async () => service.stop(),
  };
  return { service, module };
}
