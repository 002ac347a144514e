import type { CoreDeps, Module } from '../../context.js';
import type { Leadership } from '../../leadership/leadership.js';
import type { AuditService } from '../audit/service.js';
import { MarketAdmin, registerMarketAdminRoutes } from './admin.js';
import type { MarketService } from './api.js';
import { ManualFeed, SimulatedFeed, type MarketDataSource } from './feed.js';
import { registerMarketRoutes } from './routes.js';
import { MarketEngine } from './service.js';

/** At most one DAY_MARKET per instrument a second from the live feed: lists need no more, phones save data. */
export const DAY_MARKET_INTERVAL_MS = 1_000;

/**
 * The market context. The price source is chosen by `deps.marketFeed` (default: the seeded simulated
 * feed with history back-fill; tests choose the manual source, or hand a source of their own). A gateway
 * process (ROLE=gateway) runs no source and follows the engine's quotes over the bus; so does an engine
 * process while another one leads.
 */
export function createMarketModule(deps: CoreDeps, services: { audit: AuditService; leadership: Leadership }) {
  const choice = deps.marketFeed ?? { source: 'simulated' };
  const source: MarketDataSource =
    typeof choice.source === 'object'
      ? choice.source
      : choice.source === 'manual'
        ? new ManualFeed(deps.clock)
        : new SimulatedFeed(deps.config.feedSeed, deps.clock);
  const engine = new MarketEngine(deps, {
    source,
    backfill: choice.backfill ?? choice.source === 'simulated',
    dayMarketIntervalMs: choice.source === 'simulated' ? DAY_MARKET_INTERVAL_MS : 0,
    runsFeed: deps.config.role !== 'gateway',
    leadership: services.leadership,
  });
  const admin = new MarketAdmin({ db: deps.database.db, bus: deps.bus, audit: services.audit, engine });
  const module: Module = {
    name: 'market',
    routes: (app) => {
      registerMarketRoutes(app, engine);
      registerMarketAdminRoutes(app, admin);
    },
    seed: () => engine.seed(),
    start: () => engine.start(),
    stop: () => engine.stop(),
  };
  const service: MarketService = engine;
  return { service, engine, source, module };
}
