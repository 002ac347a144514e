import type { CoreDeps, Module } from '../../context.js';
import type { Leadership } from '../../leadership/leadership.js';
import type { MarketService } from '../market/api.js';
import type { RiskEngine } from '../trading/engine.js';
import type { TradingService } from '../trading/service.js';
import { riskRoutes } from './routes.js';
import { RiskService } from './service.js';

/** The dealing desk's view of the book (GET /admin/api/risk). */
export function createRiskModule(
  deps: CoreDeps,
  services: {
    engine: RiskEngine;
    market: MarketService;
    trading: Pick<TradingService, 'settings'>;
    leadership: Pick<Leadership, 'leading'>;
  },
) {
  // The engine's memory is the book only where the engine runs (as the trading module decides): on a
  // process of ROLE all or engine while it leads; a standby's engine is stopped.
  const runsEngine = deps.config.role !== 'gateway';
  const service = new RiskService({
    db: deps.database.db,
    clock: deps.clock,
    market: services.market,
    stopOutLevel: async () => (await services.trading.settings()).stopOutLevel,
    watch: () => (runsEngine && services.leadership.leading ? services.engine.watch : null),
  });
  const module: Module = { name: 'risk', routes: riskRoutes(service) };
  return { service, module };
}
