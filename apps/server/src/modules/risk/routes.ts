import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.js';
import { requireOperator } from '../../http/operator.js';
import type { RiskService } from './service.js';

export const RISK_PATH = '/admin/api/risk';

export function riskRoutes(risk: RiskService) {
  return (app: FastifyInstance) => {
    app.get(RISK_PATH, async (request) => {
      requireOperator(request);
      return ok(request, await risk.overview());
    });
  };
}
