import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { TokenResolver } from './http/auth.js';
import type { OperatorResolver } from './http/operator.js';
import type { AuditService } from './modules/audit/service.js';
import type { OperatorsService } from './modules/operators/service.js';
import type { IdentityService } from './modules/identity/service.js';
import type { MarketService } from './modules/market/api.js';
import type { MarketDataSource } from './modules/market/feed.js';
import type { SettingsService } from './modules/settings/service.js';
import type { UploadsService } from './modules/uploads/service.js';
import type { EventBus } from './realtime/bus.js';
import type { Hub } from './realtime/hub.js';

/** What every module is built from. */
export interface CoreDeps {
  config: Config;
  database: Database;
  bus: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Where prices come from: the simulated feed with history back-fill (default) or the manual source tests drive. */
  marketFeed?: { source: 'simulated' | 'manual'; backfill?: boolean };
}

/**
 * A bounded context: its routes, and background work it starts after the server is up and stops
 * before the database closes (in reverse order of the module list).
 */
export interface Module {
  name: string;
  routes?: (app: FastifyInstance) => Promise<void> | void;
  /** Called once the HTTP server exists, e.g. to attach the WebSocket upgrade handler. */
  attach?: (app: FastifyInstance) => void;
  /** Idempotent reference data (instruments, …); run at every start-up after migrations. */
  seed?: () => Promise<void>;
  start?: () => Promise<void>;
  stop?: () => Promise<void>;
}

export interface AppContext extends CoreDeps {
  resolveToken: TokenResolver;
  /** Back-office sessions: a different kind of token from users'. */
  resolveOperator: OperatorResolver;
  modules: Module[];
  /** The operator audit log (append-only, hash-chained). */
  audit: AuditService;
  operators: OperatorsService;
  market: MarketService;
  /** The running price source (a `ManualFeed` when tests chose it). */
  marketSource: MarketDataSource;
  /** Operator settings (the back office writes them through it). */
  settings: SettingsService;
  /** Users' images; the back office and tests read them through it. */
  uploads: UploadsService;
  /** Real-name verification; withdrawals ask it whether a user is verified. */
  identity: IdentityService;
  hub: Hub;
}
