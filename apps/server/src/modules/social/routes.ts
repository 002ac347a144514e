import { ApiPath, ZLeaderboardEntryView } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import type { SocialService } from './service.js';

export function socialRoutes(social: SocialService) {
  return (app: FastifyInstance) => {
    const schema = { response: answers(z.array(ZLeaderboardEntryView)) };
    app
      .withTypeProvider<DocumentedTypeProvider>()
      .get(ApiPath.traderRanking, { schema }, async (request) => ok(request, await social.leaderboard()));
  };
}
