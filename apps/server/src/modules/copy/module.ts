import type { CoreDeps, Module } from '../../context.js';
import type { Leadership } from '../../leadership/leadership.js';
import type { AuditService } from '../audit/service.js';
import { CopyAdmin, registerCopyAdminRoutes } from './admin.js';
import { copyRoutes } from './routes.js';
import { CopyService, type CopyDeps } from './service.js';

/**
 * The copy-trading context: providers, copies and their activity, equity snapshots. It moves money only
 * through trading (the followers' orders) and the wallet (fees); the copier runs on the engine leader.
 */
export function createCopyModule(
  deps: CoreDeps,
  services: Omit<CopyDeps, 'db' | 'bus' | 'clock' | 'log'> & { leadership: Leadership; audit: AuditService },
) {
  const { leadership, audit, ...rest } = services;
  const service = new CopyService(
    { ...rest, db: deps.database.db, bus: deps.bus, clock: deps.clock, log: deps.log },
    { afterCopies: deps.config.copyCrashAfterCopies, dataDir: deps.config.dataDir },
  );
  const admin = new CopyAdmin({ db: deps.database.db, copy: service, audit });
  const mayLead = deps.config.role !== 'gateway';
  const module: Module & { service: CopyService } = {
    service,
    name: 'copy',
    routes: (app) => {
      copyRoutes(service)(app);
      registerCopyAdminRoutes(app, admin);
    },
    start: async () => {
      if (mayLead) await leadership.serve({ name: 'copier', lead: () => service.lead(), resign: () => service.resign() });
    },
    stop: () => service.resign(),
  };
  return { service, module };
}
