import { ZRiskView } from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator } from '../../http/operator.js';
import type { RiskService } from './service.js';

export const RISK_PATH = '/admin/api/risk';

export function riskRoutes(risk: RiskService) {
  return (app: FastifyInstance) => {
    const schema = { response: answers(ZRiskView) };
    app.withTypeProvider<DocumentedTypeProvider>().get(RISK_PATH, { schema }, async (request) => {
      requireOperator(request);
      return ok(request, await risk.overview());
    });
  };
}
