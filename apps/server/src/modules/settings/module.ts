import type { CoreDeps, Module } from '../../context.js';
import { SettingsService } from './service.js';

/** Operator settings, read by accounts and trading through one cached service (see `SettingsService`). */
export function createSettingsModule(deps: CoreDeps) {
  const service = new SettingsService({ db: deps.database.db, bus: deps.bus, clock: deps.clock });
  const module: Module = { name: 'settings', stop: async () => service.stop() };
  return { service, module };
}
