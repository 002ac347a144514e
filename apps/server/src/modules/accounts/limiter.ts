import type { Clock } from '../../clock.js';

/**
 * Counts failures per key in a sliding window (e.g. wrong passwords per account). In-process: with
 * several gateways each keeps its own count, which still bounds guessing per process; the per-IP limit
 * of @fastify/rate-limit is shared through Redis.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (times.length) this.failures.set(key, times);
    else this.failures.delete(key);
    return times;
  }

  isBlocked(key: string): boolean {
    return this.recent(key, this.clock.now().getTime()).length >= this.maxFailures;
  }

  fail(key: string) {
    const now = this.clock.now().getTime();
    const times = this.recent(key, now);
    times.push(now);
    if (times.length > this.maxFailures) times.shift();
    this.failures.delete(key);
    this.failures.set(key, times);
    // Bounded memory under a spray of distinct keys: the least recently failed keys go first.
    while (this.failures.size > this.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  reset(key: string) {
    this.failures.delete(key);
  }
}
