import type { CoreDeps, Module } from '../../context.js';
import type { Leadership } from '../../leadership/leadership.js';
import { StrategiesService, type StrategiesDeps } from './service.js';

export type { AutomatedProviders, StrategyMarket } from './service.js';

/**
 * The broker's automated demo strategies, only on the simulated feed: on real prices a broker's own
 * strategies would be advice, not a demo. Every process reads their accounts and backtests (gateways
 * serve the profiles); they trade on the engine leader only, once per cluster. `simulatedFeed` says
 * which feed runs (by default read from `deps.marketFeed`, as the market module does).
 */
export function createStrategiesModule(
  deps: CoreDeps,
  services: Omit<StrategiesDeps, 'db' | 'bus' | 'clock' | 'log'> & { leadership: Leadership },
  options: { simulatedFeed?: boolean } = {},
) {
  const { leadership, ...used } = services;
  const service = new StrategiesService({ db: deps.database.db, bus: deps.bus, clock: deps.clock, log: deps.log, ...used });
  const simulated = options.simulatedFeed ?? (deps.marketFeed?.source ?? 'simulated') === 'simulated';
  const module: Module = {
    name: 'strategies',
    start: async () => {
      if (!simulated) return;
      await service.load();
      if (deps.config.role === 'gateway') return;
      await leadership.serve({ name: 'automated strategies', lead: () => service.lead(), resign: () => service.resign() });
    },
    stop: () => service.resign(),
  };
  return { service, module };
}
