import type { CoreDeps, Module } from '../../context.js';
import { deriveKey } from '../../secret.js';
import { identityRoutes } from './routes.js';
import { IdentityService, type IdentityUploads } from './service.js';

/** The identity context: real-name verification. Withdrawals ask it whether a user is verified. */
export function createIdentityModule(deps: CoreDeps, options: { uploads: IdentityUploads }) {
  const service = new IdentityService(
    deps.database.db,
    options.uploads,
    deriveKey(deps.config, 'identity-documents'),
    deps.clock,
    deps.log,
  );
  const module: Module = { name: 'identity', routes: identityRoutes(service, deps.config) };
  return { service, module };
}
