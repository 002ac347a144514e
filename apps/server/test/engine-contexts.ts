import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/client.js';
import type { LeaderRole, Leadership } from '../src/leadership/leadership.js';
import { createLogger } from '../src/log.js';
import { createContext, type AppContext } from '../src/modules.js';
import type { ManualFeed } from '../src/modules/market/feed.js';
import type { EventBus } from '../src/realtime/bus.js';
import { TEST_APP_SECRET } from './harness.js';

/** A leadership the test hands out: `take` makes this process lead, as winning the lock would. */
export class GivenLeadership implements Leadership {
  leading = false;
  private readonly roles: LeaderRole[] = [];

  async serve(role: LeaderRole) {
    this.roles.push(role);
    if (this.leading) await role.lead();
  }

  async take() {
    this.leading = true;
    for (const role of this.roles) await role.lead();
  }

  async give() {
    this.leading = false;
    for (const role of [...this.roles].reverse()) await role.resign();
  }

  async fence() {}

  leader() {
    return this.leading ? { id: 'self', self: true } : undefined;
  }

  async start() {}

  async stop() {}
}

export interface EngineContext {
  ctx: AppContext;
  leadership: GivenLeadership;
  feed: ManualFeed;
  stop(): Promise<void>;
}

/**
 * A `ROLE=engine` process's modules, started, in this process: several of them on one database and one
 * bus stand for engine processes of one cluster, and the test decides which leads. None leads at first.
 */
export async function startEngineContext(deps: {
  database: Database;
  bus: EventBus;
  clock: ManualClock;
}): Promise<EngineContext> {
  const leadership = new GivenLeadership();
  const ctx = await createContext({
    ...deps,
    config: loadConfig({
      ROLE: 'engine',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/pipwise-test-unused',
      APP_SECRET: TEST_APP_SECRET,
    }),
    log: createLogger('silent'),
    marketFeed: { source: 'manual' },
    leadership,
  });
  for (const module of ctx.modules) await module.seed?.();
  for (const module of ctx.modules) await module.start?.();
  return {
    ctx,
    leadership,
    feed: ctx.marketSource as ManualFeed,
    stop: async () => {
      for (const module of [...ctx.modules].reverse()) await module.stop?.();
    },
  };
}
