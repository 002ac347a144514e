import { forbidden } from '@pipwise/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { users } from '../../db/schema.js';
import type { EventBus } from '../../realtime/bus.js';

declare module '../../realtime/bus.js' {
  interface BusEvents {
    /** An operator changed a user's freezes: every process drops what it remembers of them. */
    'user.restrictions_changed': { userId: number };
  }
}

/** What an operator has frozen of one account. */
export interface Freezes {
  login: boolean;
  trading: boolean;
  withdrawals: boolean;
}

/**
 * How long a user's freezes, once read, are trusted without asking the database. Changes reach every
 * process at once by bus event; this only bounds how long a lost event (a Redis reconnect) can matter.
 */
export const RESTRICTIONS_TTL_MS = 60_000;
const RESTRICTIONS_CAPACITY = 100_000;

export const freezesOf = (row: { loginFrozen: boolean; tradingFrozen: boolean; withdrawalsFrozen: boolean }): Freezes => ({
  login: row.loginFrozen,
  trading: row.tradingFrozen,
  withdrawals: row.withdrawalsFrozen,
});

/**
 * Operators' freezes as the app enforces them. Order placement is a hot path, so a user's freezes are
 * remembered per process (most orders cost no extra round trip) and dropped on the change's bus event;
 * a read that overlapped any change is not remembered (the epoch moved), so a value read before a
 * change cannot be kept after it. Withdrawals are not hot: their check reads the database inside the
 * request's transaction, after the wallet lock the freeze also takes, so the two serialise.
 */
export class RestrictionsService {
  private readonly cache: LRUCache<number, { freezes: Freezes; until: number }>;
  private epoch = 0;

  constructor(private readonly deps: { db: Db; bus: EventBus; clock: Clock }) {
    this.cache = new LRUCache({ max: RESTRICTIONS_CAPACITY });
    deps.bus.subscribe('user.restrictions_changed', ({ userId }) => this.forget(userId));
  }

  private forget(userId: number) {
    this.epoch++;
    this.cache.delete(userId);
  }

  /** After a change committed: this process forgets at once, the others on the event. */
  changed(userId: number) {
    this.forget(userId);
    this.deps.bus.publish('user.restrictions_changed', { userId });
  }

  private async read(executor: Executor, userId: number): Promise<Freezes> {
    const [row] = await executor
      .select({ loginFrozen: users.loginFrozen, tradingFrozen: users.tradingFrozen, withdrawalsFrozen: users.withdrawalsFrozen })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row ? freezesOf(row) : { login: false, trading: false, withdrawals: false };
  }

  /** The user's freezes, from memory when fresh. */
  async of(userId: number): Promise<Freezes> {
    const now = this.deps.clock.now().getTime();
    const cached = this.cache.get(userId);
    if (cached && cached.until > now) return cached.freezes;
    const epoch = this.epoch;
    const freezes = await this.read(this.deps.db, userId);
    if (epoch === this.epoch) this.cache.set(userId, { freezes, until: now + RESTRICTIONS_TTL_MS });
    return freezes;
  }

  /** Reads the freezes of these accounts in one query into memory: before orders placed for many accounts at once. */
  async remember(userIds: number[]): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const unknown = userIds.filter((userId) => (this.cache.get(userId)?.until ?? 0) <= now);
    if (unknown.length === 0) return;
    const epoch = this.epoch;
    const rows = await this.deps.db
      .select({
        id: users.id,
        loginFrozen: users.loginFrozen,
        tradingFrozen: users.tradingFrozen,
        withdrawalsFrozen: users.withdrawalsFrozen,
      })
      .from(users)
      .where(inArray(users.id, unknown));
    if (epoch !== this.epoch) return;
    for (const row of rows) this.cache.set(row.id, { freezes: freezesOf(row), until: now + RESTRICTIONS_TTL_MS });
  }

  /** New orders and pending orders; closing, cancelling and editing stops stay allowed. */
  async refuseFrozenTrading(userId: number): Promise<void> {
    if ((await this.of(userId)).trading) throw forbidden('trading_frozen');
  }

  /**
   * Inside a batch of pending orders' fills, after their wallet locks (which a freeze takes too): the
   * accounts frozen, so that an order placed before the freeze does not open a position after it.
   */
  async tradingFrozenAmong(tx: Executor, userIds: number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, userIds), eq(users.tradingFrozen, true)));
    return new Set(rows.map((row) => row.id));
  }

  /** Inside the withdrawal's transaction, after its wallet lock. */
  async refuseFrozenWithdrawals(tx: Executor, userId: number): Promise<void> {
    if ((await this.read(tx, userId)).withdrawals) throw forbidden('withdrawals_frozen');
  }
}
