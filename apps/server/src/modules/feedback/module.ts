import type { CoreDeps, Module } from '../../context.js';
import type { AuditService } from '../audit/service.js';
import { feedbackRoutes } from './routes.js';
import { FeedbackService, type FeedbackUploads } from './service.js';

/** The feedback context: what visitors and users tell us, kept for operators. */
export function createFeedbackModule(deps: CoreDeps, options: { uploads: FeedbackUploads; audit: AuditService }) {
  const service = new FeedbackService({ db: deps.database.db, clock: deps.clock, ...options });
  const module: Module = { name: 'feedback', routes: feedbackRoutes(service) };
  return { service, module };
}
