import type { Clock } from '../clock.js';

export interface LoginGuardOptions {
  /** Failed look-ups of socket logins one address may cause per window before its sockets are refused. */
  maxFailuresPerAddress: number;
  windowMs: number;
  /** Addresses tracked at once; the oldest go first, so a spread-out attack cannot grow the map. */
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
 * the window ends. Tokens recently found invalid are remembered briefly, so a client retrying a stale
 * token (or many addresses replaying one) costs no look-up either. Negative answers are safe to keep:
 * tokens are random and issued only after their session is committed, so an unknown token cannot
 * become valid, and a revoked or expired one never comes back.
 */
export class LoginGuard {
  private readonly failures = new Map<string, { count: number; windowEnd: number }>();
  private readonly rejected = new Map<string, number>();
  private readonly options: LoginGuardOptions;

  constructor(
    private readonly clock: Clock,
    options: Partial<LoginGuardOptions> = {},
  ) {
    this.options = { ...DEFAULT_LOGIN_GUARD_OPTIONS, ...options };
  }

  private now() {
    return this.clock.now().getTime();
  }

  /** Seconds until the address may log in again; 0 while it is within its budget. */
  blockedFor(address: string): number {
    const entry = this.failures.get(address);
    if (!entry) return 0;
    const left = entry.windowEnd - this.now();
    if (left <= 0) {
      this.failures.delete(address);
      return 0;
    }
    return entry.count >= this.options.maxFailuresPerAddress ? Math.ceil(left / 1000) : 0;
  }

  recordFailure(address: string) {
    const now = this.now();
    const entry = this.failures.get(address);
    if (entry && entry.windowEnd > now) {
      entry.count++;
      return;
    }
    this.failures.delete(address);
    if (this.failures.size >= this.options.maxAddresses) this.dropOldest(this.failures);
    this.failures.set(address, { count: 1, windowEnd: now + this.options.windowMs });
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

  /** Forgets ended windows and expired tokens (called from the hub's periodic sweep). */
  sweep() {
    const now = this.now();
    for (const [address, entry] of this.failures) if (entry.windowEnd <= now) this.failures.delete(address);
    for (const [token, until] of this.rejected) if (until <= now) this.rejected.delete(token);
  }

  private dropOldest(map: Map<string, unknown>) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}
