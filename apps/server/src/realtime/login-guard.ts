import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from '../clock.js';
import type { SharedLimits } from '../security/shared-limits.js';

export interface LoginGuardOptions {
  /** Failed look-ups of socket logins one address may cause per window before its sockets are refused. */
  maxFailuresPerAddress: number;
  windowMs: number;
  /** Blocked addresses remembered at once; the oldest go first, so a spread-out attack cannot grow the map. */
  maxAddresses: number;
  /** How long a token found invalid is answered from memory instead of the database. */
  rejectedTtlMs: number;
  rejectedCapacity: number;
}

export const DEFAULT_LOGIN_GUARD_OPTIONS: LoginGuardOptions = {
  maxFailuresPerAddress: 30,
  windowMs: 60_000,
  maxAddresses: 100_000,
  rejectedTtlMs: 30_000,
  rejectedCapacity: 10_000,
};

/**
 * Bounds what bad socket logins can cost the database (a look-up each). Each address has a budget of
 * failures per fixed window; past it, its logins and new sockets are refused without a look-up until
 * the window ends. The budget is counted by `SharedLimits`: in memory, or in Redis when it is set up,
 * so that every gateway counts toward one budget (a gateway that has not yet seen an address asks
 * Redis before a look-up, and remembers what it learns until the window ends). Tokens recently found
 * invalid are remembered briefly, per process, so a client retrying a stale token (or many addresses
 * replaying one) costs no look-up either. Negative answers are safe to keep: tokens are random and
 * issued only after their session is committed, so an unknown token cannot become valid, and a
 * revoked or expired one never comes back.
 */
export class LoginGuard {
  private readonly failures: RateLimiterAbstract;
  /** Addresses known here to be out of budget, and until when: answered without asking the store. */
  private readonly blocked = new Map<string, number>();
  private readonly rejected = new Map<string, number>();
  private readonly options: LoginGuardOptions;

  constructor(
    private readonly clock: Clock,
    private readonly limits: SharedLimits,
    options: Partial<LoginGuardOptions> = {},
  ) {
    this.options = { ...DEFAULT_LOGIN_GUARD_OPTIONS, ...options };
    this.failures = limits.limiter({
      name: 'socket-login-failures',
      points: this.options.maxFailuresPerAddress,
      durationMs: this.options.windowMs,
    });
  }

  private now() {
    return this.clock.now().getTime();
  }

  /** Seconds until the address may log in again, as far as this process knows; 0 if not known to be blocked. */
  blockedFor(address: string): number {
    const until = this.blocked.get(address);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.blocked.delete(address);
    return 0;
  }

  /** As `blockedFor`, counting the failures other processes recorded (a round trip to Redis when shared). */
  async check(address: string): Promise<number> {
    const known = this.blockedFor(address);
    if (known > 0 || !this.limits.shared) return known;
    const counted = await this.failures.get(address);
    if (counted) this.learn(address, counted);
    return this.blockedFor(address);
  }

  async recordFailure(address: string) {
    this.learn(address, await this.failures.penalty(address));
  }

  private learn(address: string, counted: RateLimiterRes) {
    if (counted.consumedPoints < this.options.maxFailuresPerAddress) return;
    this.blocked.delete(address);
    if (this.blocked.size >= this.options.maxAddresses) this.dropOldest(this.blocked);
    this.blocked.set(address, this.now() + counted.msBeforeNext);
  }

  isRejected(token: string): boolean {
    const until = this.rejected.get(token);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.rejected.delete(token);
    return false;
  }

  rememberRejected(token: string) {
    this.rejected.delete(token);
    if (this.rejected.size >= this.options.rejectedCapacity) this.dropOldest(this.rejected);
    this.rejected.set(token, this.now() + this.options.rejectedTtlMs);
  }

  /** Forgets ended blocks and expired tokens (called from the hub's periodic sweep). */
  sweep() {
    const now = this.now();
    for (const [address, until] of this.blocked) if (until <= now) this.blocked.delete(address);
    for (const [token, until] of this.rejected) if (until <= now) this.rejected.delete(token);
  }

  private dropOldest(map: Map<string, unknown>) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}
