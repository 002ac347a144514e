import type { CoreDeps, Module } from '../../context.js';
import { contentRoutes } from './routes.js';
import { ContentService } from './service.js';

/**
 * The content context: news. Articles are published through the operator API (the back office will put
 * its screen on it); the table starts empty and the list says so.
 */
export function createContentModule(deps: CoreDeps) {
  const service = new ContentService(deps.database.db);
  const module: Module = { name: 'content', routes: contentRoutes(service, deps.config) };
  return { service, module };
}
