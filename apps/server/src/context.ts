import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Leadership } from './leadership/leadership.js';
import type { MarketDataSource } from './modules/market/feed.js';
import type { EventBus } from './realtime/bus.js';

/** What every module is built from. */
export interface CoreDeps {
  config: Config;
  database: Database;
  bus: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Where prices come from: the simulated feed with history back-fill (default), the manual source tests drive, or a source of a test's own. */
  marketFeed?: { source: 'simulated' | 'manual' | MarketDataSource; backfill?: boolean };
  /** Which engine process leads (PostgreSQL: `PostgresLeadership`); absent, this process leads alone. */
  leadership?: Leadership;
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
