import type { CoreDeps, Module } from '../../context.js';
import type { AuditService } from '../audit/service.js';
import { NewsAdmin, registerNewsAdminRoutes } from './admin.js';
import { contentRoutes } from './routes.js';
import { ContentService } from './service.js';

/**
 * The content context: news. Articles are published through the operator API (the back office will put
 * its screen on it); the table starts empty and the list says so.
 */
export function createContentModule(deps: CoreDeps, services: { audit: AuditService }) {
  const service = new ContentService(deps.database.db);
  const admin = new NewsAdmin({ db: deps.database.db, audit: services.audit });
  const module: Module = {
    name: 'content',
    routes: (app) => {
      contentRoutes(service)(app);
      registerNewsAdminRoutes(app, admin);
    },
  };
  return { service, module };
}
