import type { Executor } from '../db/client.js';
import type { LeaderSource } from '../observability/health.js';

/**
 * Work that only the engine leader does (the price feed, the risk engine, and every periodic job that
 * must run once per cluster, such as the deposit-expiry sweep): `lead` when this process takes the
 * lead, `resign` when it loses or hands it over. Each runs to its end before the other starts.
 */
export interface LeaderRole {
  name: string;
  lead(): Promise<void>;
  resign(): Promise<void>;
}

/**
 * Which process runs the feed and the risk engine. Processes that can (ROLE all or engine) hand their
 * leader-only work to `serve`; one of them leads at a time, and every engine transaction that moves
 * money calls `fence` first, so one that has lost the lead without knowing it yet writes nothing.
 */
export interface Leadership extends LeaderSource {
  /** Whether this process leads now. */
  readonly leading: boolean;
  /** Runs `role` while this process leads: roles lead in the order served and resign in reverse. */
  serve(role: LeaderRole): Promise<void>;
  /** In the transaction that moves money: throws `LeadershipLost` unless this process still leads. */
  fence(tx: Executor): Promise<void>;
  /** Starts competing for the lead (or, on a gateway, watching who has it). */
  start(): Promise<void>;
  /** Resigns every role if leading and lets another process lead. */
  stop(): Promise<void>;
}

/** An engine action refused because its process no longer leads; the new leader does it instead. */
export class LeadershipLost extends Error {
  override name = 'LeadershipLost';
}

/**
 * One process on its own database (PGlite, whose folder only one process may open): it is the leader
 * from the start, so a role leads as soon as it is served, and nothing needs fencing.
 */
export class SoleLeadership implements Leadership {
  readonly leading = true;
  private readonly roles: LeaderRole[] = [];

  async serve(role: LeaderRole) {
    this.roles.push(role);
    await role.lead();
  }

  async fence() {}

  leader() {
    return { id: 'self', self: true };
  }

  async start() {}

  async stop() {
    for (const role of this.roles.splice(0).reverse()) await role.resign();
  }
}
