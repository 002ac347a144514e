import type { CoreDeps, Module } from '../../context.js';
import { deriveKey } from '../../secret.js';
import { auditRoutes } from './routes.js';
import { AuditService } from './service.js';

export function createAuditModule(deps: CoreDeps) {
  const key = deriveKey(deps.config, 'audit-chain');
  const service = new AuditService({ db: deps.database.db, clock: deps.clock, key });
  const module: Module = {
    name: 'audit',
    routes: auditRoutes(deps.database.db, key),
    seed: async () => {
      const seal = await service.sealLegacyRows();
      // Logged as well: a record outside the database of how many rows rest on the unkeyed hash.
      if (seal) deps.log.info(seal, 'audit log: rows written before the chain was keyed are sealed under the key');
    },
  };
  return { module, service };
}
