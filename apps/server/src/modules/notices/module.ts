import type { CoreDeps, Module } from '../../context.js';
import { noticeRoutes } from './routes.js';
import { seedAnnouncements } from './seed.js';
import { NoticesService } from './service.js';

/** The notices context: announcements to every user, with each user's read state. */
export function createNoticesModule(deps: CoreDeps) {
  const service = new NoticesService(deps.database.db);
  const module: Module = {
    name: 'notices',
    routes: noticeRoutes(service, deps.config),
    seed: () => seedAnnouncements(deps.database.db),
  };
  return { service, module };
}
