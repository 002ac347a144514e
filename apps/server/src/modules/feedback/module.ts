import type { CoreDeps, Module } from '../../context.js';
import { feedbackRoutes } from './routes.js';
import { FeedbackService, type FeedbackUploads } from './service.js';

/** The feedback context: what visitors and users tell us, kept for operators. */
export function createFeedbackModule(deps: CoreDeps, options: { uploads: FeedbackUploads }) {
  const service = new FeedbackService({ db: deps.database.db, clock: deps.clock, uploads: options.uploads, log: deps.log });
  const module: Module = { name: 'feedback', routes: feedbackRoutes(service, deps.config) };
  return { service, module };
}
