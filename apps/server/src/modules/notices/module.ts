import type { CoreDeps, Module } from '../../context.js';
import type { AuditService } from '../audit/service.js';
import { AnnouncementsAdmin, registerAnnouncementAdminRoutes } from './admin.js';
import { noticeRoutes } from './routes.js';
import { seedAnnouncements } from './seed.js';
import { NoticesService } from './service.js';

/** The notices context: announcements to every user, with each user's read state. */
export function createNoticesModule(deps: CoreDeps, services: { audit: AuditService }) {
  const service = new NoticesService(deps.database.db);
  const admin = new AnnouncementsAdmin({ db: deps.database.db, audit: services.audit });
  const module: Module = {
    name: 'notices',
    routes: (app) => {
      noticeRoutes(service)(app);
      registerAnnouncementAdminRoutes(app, admin);
    },
    seed: () => seedAnnouncements(deps.database.db),
  };
  return { service, module };
}
