import type { CoreDeps, Module } from '../../context.js';
import { socialRoutes } from './routes.js';
import { SocialService, type SocialDeps } from './service.js';

/**
 * The social context: the traders leaderboard now, copy trading later. It owns no table: it reads
 * trading results and public profiles through those modules' services.
 */
export function createSocialModule(deps: CoreDeps, services: Omit<SocialDeps, 'clock'>) {
  const service = new SocialService({ ...services, clock: deps.clock });
  const module: Module = { name: 'social', routes: socialRoutes(service) };
  return { service, module };
}
