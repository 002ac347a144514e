import type { CoreDeps, Module } from '../../context.js';
import { deriveKey } from '../../secret.js';
import type { AuditService } from '../audit/service.js';
import type { ClaimRelease, UserNotifier } from '../../review/decisions.js';
import type { ReviewDesk } from '../../review/desk.js';
import { identityRoutes } from './routes.js';
import { IdentityService, type IdentityUploads } from './service.js';

/** The identity context: real-name verification. Withdrawals ask it whether a user is verified. */
export function createIdentityModule(
  deps: CoreDeps,
  options: { uploads: IdentityUploads; audit: AuditService; claims: ClaimRelease; notifier: UserNotifier; desk: ReviewDesk },
) {
  const { desk, ...rest } = options;
  const service = new IdentityService({
    db: deps.database.db,
    key: deriveKey(deps.config, 'identity-documents'),
    clock: deps.clock,
    log: deps.log,
    ...rest,
  });
  const module: Module = { name: 'identity', routes: identityRoutes(service, desk) };
  return { service, module };
}
