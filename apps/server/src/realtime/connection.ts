import type { WebSocket } from 'ws';
import type { Principal } from '../http/auth.js';

/**
 * Liveness and the rate limit run on monotonic time: a step of the wall clock (an NTP correction, a
 * resumed VM) must not make every socket look silent at once.
 */
export const monotonicNow = () => performance.now();

export type ClientMessage = { type: string; token?: unknown; topic?: unknown };

/** A frame held back from a congested connection: the latest one, or the merged items of a list topic. */
export interface PendingFrame {
  topic: string;
  frame?: Buffer;
  items?: unknown[];
}

/** One socket and what the hub keeps about it. */
export class Connection {
  readonly subscriptions = new Set<string>();
  principal: Principal | null = null;
  token: string | null = null;
  lastSeen: number;
  lastPing = 0;
  badFrames = 0;
  failedLogins = 0;
  /** Message allowance of the rate limit (a token bucket refilled by elapsed time). */
  allowance: number;
  allowanceAt = performance.now();
  /** Closed for a violation: whatever else it sends is ignored. */
  refused = false;
  /** Messages that arrived while a login or logout was being looked up; handled in order after it. */
  readonly backlog: ClientMessage[] = [];
  busy = false;
  /** Frames held back while congested: one per coalescing key, oldest first; none most of the time. */
  pending: Map<string, PendingFrame> | undefined;

  constructor(
    readonly ws: WebSocket,
    readonly address: string,
    now: number,
    burst: number,
  ) {
    this.lastSeen = now;
    this.allowance = burst;
  }
}
