import { ApiPath } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.js';
import type { SocialService } from './service.js';

export function socialRoutes(social: SocialService) {
  return (app: FastifyInstance) => {
    app.get(ApiPath.followList, async (request) => ok(request, await social.leaderboard()));
  };
}
