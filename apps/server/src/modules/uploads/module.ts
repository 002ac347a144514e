import type { CoreDeps, Module } from '../../context.js';
import type { TokenResolver } from '../../http/auth.js';
import { deriveKey } from '../../secret.js';
import { uploadRoutes } from './routes.js';
import { UploadsService } from './service.js';

/**
 * The uploads context: images users send (payment proofs, ID documents), kept in the database so every
 * gateway serves them, shown through signed links. Deposits and identity take the service to check that
 * an upload a user references is theirs.
 */
export function createUploadsModule(deps: CoreDeps, services: { resolveToken: TokenResolver }) {
  const service = new UploadsService({
    db: deps.database.db,
    clock: deps.clock,
    linkKey: deriveKey(deps.config, 'upload-links'),
  });
  const module: Module = {
    name: 'uploads',
    routes: uploadRoutes({ uploads: service, resolveToken: services.resolveToken, clock: deps.clock, config: deps.config }),
  };
  return { service, module };
}
