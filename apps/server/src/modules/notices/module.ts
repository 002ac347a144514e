import type { CoreDeps, Module } from '../../context.js';
import type { AuditService } from '../audit/service.js';
import type { TradingService } from '../trading/service.js';
import { AccountNotices, type UserNotifier } from './account.js';
import { AnnouncementsAdmin, registerAnnouncementAdminRoutes } from './admin.js';
import { noticeRoutes } from './routes.js';
import { seedAnnouncements } from './seed.js';
import { NoticesService } from './service.js';

/**
 * The notices context: announcements to every user, with each user's read state, and each user's
 * notices about their own account (the engine's closes, fills and margin calls).
 */
export function createNoticesModule(
  deps: CoreDeps,
  services: { audit: AuditService; notifier: UserNotifier; trading: Pick<TradingService, 'engineOutcomesSince'> },
) {
  const service = new NoticesService(deps.database.db);
  const account = new AccountNotices({
    db: deps.database.db,
    bus: deps.bus,
    clock: deps.clock,
    log: deps.log,
    notifier: services.notifier,
    engineOutcomesSince: (since) => services.trading.engineOutcomesSince(since),
  });
  const admin = new AnnouncementsAdmin({ db: deps.database.db, audit: services.audit });
  const module: Module & { account: AccountNotices } = {
    name: 'notices',
    account,
    routes: (app) => {
      noticeRoutes(service, account)(app);
      registerAnnouncementAdminRoutes(app, admin);
    },
    seed: () => seedAnnouncements(deps.database.db),
    start: async () => account.start(),
    stop: () => account.stop(),
  };
  return { service, account, module };
}
