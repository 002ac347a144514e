import type { CoreDeps, Module } from '../../context.js';
import type { AuditService } from '../audit/service.js';
import type { WalletService } from '../wallet/service.js';
import type { RestrictionsService } from './restrictions.js';
import { backofficeUserRoutes } from './routes.js';
import { BackofficeUsersService, type FiguresReader, type PayoutWarningsReader, type SessionRevoker } from './service.js';

/** The back office's view of users: search, details, records, freezes, sessions, and the mail/SMS outbox. */
export function createBackofficeUsersModule(
  deps: CoreDeps,
  services: {
    wallet: WalletService;
    accounts: SessionRevoker;
    trading: FiguresReader;
    payouts: PayoutWarningsReader;
    restrictions: RestrictionsService;
    audit: AuditService;
  },
) {
  const mail = deps.config.smtpUrl ? ('smtp' as const) : ('outbox' as const);
  const service = new BackofficeUsersService({ db: deps.database.db, clock: deps.clock, mail, ...services });
  const module: Module = { name: 'backoffice-users', routes: backofficeUserRoutes(service) };
  return { service, module };
}
