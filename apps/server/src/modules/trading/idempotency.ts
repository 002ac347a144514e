import { conflict } from '@pipwise/domain';
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema.js';
import type { OrderOutcome, TradingCore } from './core.js';

/**
 * What an Idempotency-Key replays: the order the first call acted on and its confirmation, and the
 * hash of the request it answered (a key sent again with another request is refused, not replayed).
 */
interface Acknowledgement {
  orderId: number;
  msgKey: string;
  request: string;
}

/** A request's fingerprint for its Idempotency-Key: its parsed fields in a fixed order, hashed. */
export function requestHash(body: object): string {
  const fields = Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url');
}

export const isUniqueViolation = (error: unknown): boolean => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
};

/** Idempotency-Keys of the money calls: each key answers one request, once. */
export class IdempotencyKeys {
  constructor(private readonly core: TradingCore) {}

  /**
   * Runs a money call at most once per Idempotency-Key. The key is claimed first, in the call's own
   * transaction: a call racing with the same key waits on that row until the first commits, then fails
   * on the key and answers the first result (a check of the order alone would answer "already closed"
   * to it). Only successes are stored: a refused call rolls its claim back, changed nothing, and may
   * be retried with the same key.
   */
  async once(
    userId: number,
    idempotency: { key: string; request: string } | undefined,
    route: string,
    run: (tx: Executor) => Promise<OrderOutcome>,
  ): Promise<OrderOutcome & { replayed: boolean }> {
    if (!idempotency) return { ...(await this.core.db.transaction(run)), replayed: false };
    const { key, request } = idempotency;
    const thisKey = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
    try {
      const outcome = await this.core.db.transaction(async (tx) => {
        await tx.insert(idempotencyKeys).values({ userId, key, route, response: { request } });
        const result = await run(tx);
        const response: Acknowledgement = { orderId: result.order.id, msgKey: result.msgKey, request };
        await tx.update(idempotencyKeys).set({ response }).where(thisKey);
        return result;
      });
      return { ...outcome, replayed: false };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const replayed = await this.replay(userId, idempotency, route);
      if (replayed) return replayed;
      throw error;
    }
  }

  /**
   * The first answer again: the same order (as it is now) and the same confirmation, if the key was
   * used for this same request; a key reused for another request (or route) is a conflict.
   */
  async replay(
    userId: number,
    { key, request }: { key: string; request: string },
    route: string,
  ): Promise<(OrderOutcome & { replayed: true }) | null> {
    const [row] = await this.core.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
      .limit(1);
    if (!row) return null;
    const acknowledgement = row.response as Acknowledgement;
    if (row.route !== route || acknowledgement.request !== request) throw conflict('idempotency_key_reused');
    return { order: await this.core.owned(userId, acknowledgement.orderId), msgKey: acknowledgement.msgKey, replayed: true };
  }
}
