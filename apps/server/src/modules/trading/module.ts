import type { CoreDeps, Module } from '../../context.js';
import type { Leadership } from '../../leadership/leadership.js';
import type { MarketService } from '../market/api.js';
import type { SettingsService } from '../settings/service.js';
import type { WalletService } from '../wallet/service.js';
import type { TradingDisclosure, TradingRestrictions } from './core.js';
import { RiskEngine } from './engine.js';
import { tradingRoutes } from './routes.js';
import { TradingService } from './service.js';

declare module '../../realtime/bus.js' {
  interface BusEvents {
    /** A user's first socket logged in (online) or last one went away (offline) on some gateway. */
    'realtime.presence': { userId: number; online: boolean };
  }
}

/** Logged-in users across gateways, counted from presence events (FOREX_TRADE goes only to them). */
export class Presence {
  private readonly counts = new Map<number, number>();

  apply({ userId, online }: { userId: number; online: boolean }) {
    const next = (this.counts.get(userId) ?? 0) + (online ? 1 : -1);
    if (next > 0) this.counts.set(userId, next);
    else this.counts.delete(userId);
  }

  users() {
    return this.counts.keys();
  }
}

/**
 * The trading context: order and account endpoints, and the risk engine. The engine runs where the
 * feed runs (ROLE all or engine), while this process leads; a gateway only serves the endpoints and
 * forwards its changes to the engine over the bus (`trading.changed`).
 */
export function createTradingModule(
  deps: CoreDeps,
  services: {
    wallet: WalletService;
    market: MarketService;
    settings: SettingsService;
    restrictions: TradingRestrictions;
    disclosure: TradingDisclosure;
    leadership: Leadership;
  },
) {
  const { leadership, ...used } = services;
  const service = new TradingService({
    db: deps.database.db,
    bus: deps.bus,
    clock: deps.clock,
    fence: (tx) => leadership.fence(tx),
    ...used,
  });
  const presence = new Presence();
  const engine = new RiskEngine({
    trading: service,
    market: services.market,
    wallet: services.wallet,
    bus: deps.bus,
    log: deps.log,
    onlineUsers: () => presence.users(),
  });
  const runsEngine = deps.config.role !== 'gateway';
  let stopPresence: (() => void) | undefined;
  let stopResync: (() => void) | undefined;
  const module: Module & { engine: RiskEngine; service: TradingService } = {
    name: 'trading',
    engine,
    service,
    routes: tradingRoutes(service, services.market, services.wallet),
    start: async () => {
      if (!runsEngine) return;
      // A standby counts who is online too, so that it pushes to them from its first tick as leader.
      stopPresence = deps.bus.subscribe('realtime.presence', (event) => presence.apply(event));
      stopResync = resyncAfterBusOutage(deps, engine);
      await leadership.serve({
        name: 'risk engine',
        lead: async () => {
          await engine.start();
          // A level the last ticks reached before the load (the old leader's, followed here) acts now.
          for (const instrument of services.market.listInstruments()) {
            const quote = services.market.getTickedQuote(instrument.id);
            if (quote) engine.onQuote(quote);
          }
        },
        resign: () => engine.stop(),
      });
    },
    stop: async () => {
      stopResync?.();
      stopPresence?.();
      await engine.stop();
    },
  };
  return { service, engine, module };
}

/**
 * Orders placed on gateways while the bus was down sent notices the engine never heard: once it is
 * back, a running engine reads every open order again (accounts it already watches, whose orders may
 * have closed meanwhile, its balance refresh catches by their wallet versions).
 */
function resyncAfterBusOutage(deps: CoreDeps, engine: RiskEngine): () => void {
  let lost = false;
  return deps.bus.onConnectionChange((connected) => {
    if (!connected) {
      lost = true;
      return;
    }
    if (!lost || engine.state !== 'running') return;
    lost = false;
    engine.loadAll().catch((error: unknown) => deps.log.error({ err: error }, 'engine: reading the open orders again failed'));
  });
}
