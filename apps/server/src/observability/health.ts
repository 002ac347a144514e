import { sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { MarketService } from '../modules/market/api.js';
import type { EventBus } from '../realtime/bus.js';

/** The engine that runs the risk checks, as far as this process knows. */
export interface EngineLeader {
  /** Who leads: the leader's `host:pid`, `self`, or how this process knows another one runs (`bus`: its quotes arrive). */
  id: string;
  self: boolean;
}

/**
 * Answers who runs the engine: on PostgreSQL the elected leader (leadership/postgres.ts, on every
 * process). Without an election (one process, tests) a process of ROLE all or engine runs its own
 * (`runningHere`), a gateway infers one from the quotes the engine publishes (`quotesFromBus`).
 */
export interface LeaderSource {
  leader(): EngineLeader | undefined;
}

/** The engine of this process, once its modules have started. */
export function runningHere(started: () => boolean): LeaderSource {
  return { leader: () => (started() ? { id: 'self', self: true } : undefined) };
}

/** Some engine is running while its quotes reach this process fresh. */
export function quotesFromBus(feed: FeedAge): LeaderSource {
  return { leader: () => (feed.check().fresh ? { id: 'bus', self: false } : undefined) };
}

/** How old the newest quote of this process's table is, and whether any market is open to quote. */
export class FeedAge {
  constructor(
    private readonly market: MarketService,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
  ) {}

  check(): { marketsOpen: boolean; ageMs: number | null; fresh: boolean } {
    const now = this.clock.now().getTime();
    let newest: number | undefined;
    let marketsOpen = false;
    for (const instrument of this.market.listInstruments()) {
      const time = this.market.getQuote(instrument.id)?.time;
      if (time !== undefined && (newest === undefined || time > newest)) newest = time;
      if (instrument.enabled && this.market.isOpen(instrument.id)) marketsOpen = true;
    }
    const ageMs = newest === undefined ? null : Math.max(0, now - newest);
    return { marketsOpen, ageMs, fresh: ageMs !== null && ageMs <= this.maxAgeMs };
  }
}

export interface ReadyReport {
  ready: boolean;
  checks: {
    database: { ok: boolean };
    bus: { ok: boolean };
    feed: { ok: boolean; markets_open: boolean; age_ms: number | null };
    engine: { ok: boolean; leader: string | null };
  };
}

const CHECK_TIMEOUT_MS = 2_000;

function within<T>(work: Promise<T>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work.then(() => true).catch(() => false), timeout]).finally(() => clearTimeout(timer));
}

/**
 * /readyz: the database answers, the bus is connected (subscribed again after an outage) and both its
 * Redis connections answer a ping, quotes are fresh while a market is open, and an engine is known. With every market
 * closed there is nothing to judge the feed or a remote engine by, and neither keeps the process out of
 * rotation. Concurrent probes share one check.
 */
export class Readiness {
  private running: Promise<ReadyReport> | undefined;

  constructor(private readonly deps: { database: Database; bus: EventBus; feed: FeedAge; leader: LeaderSource }) {}

  check(): Promise<ReadyReport> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<ReadyReport> {
    const [database, bus] = await Promise.all([
      within(this.deps.database.db.execute(sql`SELECT 1`)),
      within(
        this.deps.bus.ping().then((answered) => {
          if (!answered) throw new Error('bus not connected');
        }),
      ),
    ]);
    const feed = this.deps.feed.check();
    const leader = this.deps.leader.leader();
    const checks = {
      database: { ok: database },
      bus: { ok: bus },
      feed: { ok: feed.fresh || !feed.marketsOpen, markets_open: feed.marketsOpen, age_ms: feed.ageMs },
      engine: { ok: leader !== undefined || !feed.marketsOpen, leader: leader?.id ?? null },
    };
    return { ready: Object.values(checks).every((check) => check.ok), checks };
  }
}
