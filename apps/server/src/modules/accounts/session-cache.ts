import type { Clock } from '../../clock.js';
import type { Principal } from '../../http/auth.js';

/** How long a session found valid is trusted without asking the database again. */
export const SESSION_CACHE_TTL_MS = 15_000;
/** Entries kept at most; the oldest go first. */
export const SESSION_CACHE_CAPACITY = 50_000;

/**
 * Sessions recently found valid, so most authenticated requests skip a database round trip. Safe
 * because: an entry lives at most the TTL and never past the session's expiry; a revocation drops its
 * entries at once in the revoking process (other processes drop theirs on `session.revoked`); and a
 * look-up that overlapped any revocation is not stored (the epoch moved), so a read taken before a
 * revocation cannot be cached after it. Only valid sessions are kept: unknown tokens cost a look-up
 * each, so guessing cannot fill the cache.
 */
export class SessionCache {
  private readonly entries = new Map<string, { principal: Principal; until: number }>();
  private revocations = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = SESSION_CACHE_TTL_MS,
    private readonly capacity = SESSION_CACHE_CAPACITY,
  ) {}

  /** A mark to hand back to `put`: it refuses to store when a revocation happened since. */
  get epoch(): number {
    return this.revocations;
  }

  get(tokenHash: string): Principal | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.until > this.clock.now().getTime()) return entry.principal;
    this.entries.delete(tokenHash);
    return undefined;
  }

  put(tokenHash: string, principal: Principal, expiresAt: Date, epoch: number) {
    if (epoch !== this.revocations) return;
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    const until = Math.min(this.clock.now().getTime() + this.ttlMs, expiresAt.getTime());
    this.entries.set(tokenHash, { principal, until });
  }

  dropToken(tokenHash: string) {
    this.revocations++;
    this.entries.delete(tokenHash);
  }

  dropSessions(sessionIds: readonly number[]) {
    this.revocations++;
    const ids = new Set(sessionIds);
    for (const [tokenHash, entry] of this.entries) {
      if (ids.has(entry.principal.sessionId)) this.entries.delete(tokenHash);
    }
  }
}
