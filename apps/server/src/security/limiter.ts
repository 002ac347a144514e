import { AppError } from '@pipwise/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { loginFailures } from '../db/schema.js';

/**
 * The address a per-address limit counts: an IPv4 address as is, an IPv6 one by its /64, since one
 * subscriber is handed a whole /64 and could otherwise take a fresh address for every try.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** A 429 that says when to come back: the envelope sends `retry_after` (seconds) as the Retry-After header. */
export const tooManyRequests = (retryAfterMs: number, key = 'too_many_requests') =>
  new AppError('tooManyRequests', key, { retry_after: Math.max(1, Math.ceil(retryAfterMs / 1000)) });

/** A failure counted for every key: when (to take it back) and each key's failures in the window, this one included. */
export interface Counted {
  counted: true;
  at: Date;
  counts: Map<string, number>;
}

/** Nothing counted: a key was at its limit until `blockedForMs` from now. */
export interface Refused {
  counted: false;
  blockedForMs: number;
}

/** Expired rows change no count (only failures inside the window are counted), so sweeping can wait. */
const SWEEP_EVERY_MS = 60_000;

const timestamp = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/**
 * Counts failures per key in a sliding window (e.g. wrong passwords per account and address). The counts
 * live in the database (`login_failures`: a row per key holding the times of its failures in the window),
 * so every process counts toward one budget and a restart forgets nothing. Each key's count is decided by
 * one conditional upsert, which holds the key's row while it decides: tries sent in parallel, to any
 * process, cannot pass a limit together. One key per statement, so no statement waits for a row while
 * holding another (no deadlock between tries).
 */
export class FailureLimiter {
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Limiters share the table: the scope keeps their keys apart. */
    private readonly scope: string,
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  /** Counts a failure for every key; a key at its limit counts it too, its oldest failure giving way. */
  async fail(keys: string[]): Promise<Counted> {
    const at = this.clock.now();
    await this.sweep(at);
    const counts = new Map<string, number>();
    for (const key of new Set(keys)) counts.set(key, (await this.count(key, at, false)) ?? 0);
    return { counted: true, at, counts };
  }

  /**
   * Counts a failure for every key if each has room for one. Otherwise counts none (what it counted is
   * taken back) and answers how long until the full key's oldest failure leaves the window.
   */
  async failIfRoom(keys: string[]): Promise<Counted | Refused> {
    const at = this.clock.now();
    await this.sweep(at);
    const counts = new Map<string, number>();
    // In one order for every try: of two parallel tries on the same keys, one never holds a later key
    // without the earlier ones, so the limit lets through exactly as many tries as it allows.
    for (const key of [...new Set(keys)].sort()) {
      const count = await this.count(key, at, true);
      if (count === null) {
        await this.takeBack([...counts.keys()], at);
        return { counted: false, blockedForMs: await this.blockedForMs(key, at) };
      }
      counts.set(key, count);
    }
    return { counted: true, at, counts };
  }

  /** Withdraws the failure counted at `at` (a try counted in advance that succeeded). */
  async takeBack(keys: string[], at: Date) {
    const times = loginFailures.failedAt;
    const position = sql`array_position(${times}, ${timestamp(at)})`;
    for (const key of new Set(keys)) {
      await this.db
        .update(loginFailures)
        .set({ failedAt: sql`${times}[:${position} - 1] || ${times}[${position} + 1:]` })
        .where(and(this.row(key), sql`${position} is not null`));
    }
  }

  /** Forgets every failure of the keys. */
  async reset(keys: string[]) {
    for (const key of new Set(keys)) await this.db.delete(loginFailures).where(this.row(key));
  }

  /**
   * Adds a failure at `at` to the key's row, keeping the newest ones within the window; with `ifRoom`,
   * only while they are fewer than the limit. Answers the count after it, or null when refused.
   */
  private async count(key: string, at: Date, ifRoom: boolean): Promise<number | null> {
    const times = loginFailures.failedAt;
    const since = timestamp(new Date(at.getTime() - this.windowMs));
    const [row] = await this.db
      .insert(loginFailures)
      .values({ scope: this.scope, key, failedAt: [at], expiresAt: new Date(at.getTime() + this.windowMs) })
      .onConflictDoUpdate({
        target: [loginFailures.scope, loginFailures.key],
        set: {
          failedAt: sql`array(select t from unnest(${times} || ${timestamp(at)}) as t where t > ${since} order by t desc limit ${this.maxFailures})`,
          expiresAt: sql`excluded.expires_at`,
        },
        ...(ifRoom
          ? { setWhere: sql`(select count(*) from unnest(${times}) as t where t > ${since}) < ${this.maxFailures}` }
          : {}),
      })
      .returning({ count: sql<number>`cardinality(${times})`.mapWith(Number) });
    return row ? row.count : null;
  }

  /** How long until the key's oldest failure in the window leaves it (at least 1 ms: it was full). */
  private async blockedForMs(key: string, at: Date): Promise<number> {
    const since = timestamp(new Date(at.getTime() - this.windowMs));
    const [row] = await this.db
      .select({
        oldest: sql<Date | string | null>`(select min(t) from unnest(${loginFailures.failedAt}) as t where t > ${since})`,
      })
      .from(loginFailures)
      .where(this.row(key));
    const oldest = row?.oldest ? new Date(row.oldest).getTime() : at.getTime();
    return Math.max(1, oldest + this.windowMs - at.getTime());
  }

  /**
   * Deletes the rows whose newest failure has left the window, at most once a minute per process. Rows
   * another statement holds are left for the next sweep, so sweeps never wait.
   */
  private async sweep(at: Date) {
    if (at.getTime() - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = at.getTime();
    const { scope, key, expiresAt } = loginFailures;
    await this.db.execute(sql`
      delete from ${loginFailures} where (${scope}, ${key}) in (
        select ${scope}, ${key} from ${loginFailures}
        where ${scope} = ${this.scope} and ${expiresAt} <= ${timestamp(at)}
        for update skip locked)`);
  }

  private row(key: string) {
    return and(eq(loginFailures.scope, this.scope), eq(loginFailures.key, key));
  }
}
