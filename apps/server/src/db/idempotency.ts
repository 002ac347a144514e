import { conflict } from '@pipwise/domain';
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from './client.js';
import { idArray, rowsOf } from './rows.js';
import { idempotencyKeys } from './schema.js';

/** An Idempotency-Key with the fingerprint of the request it came with. */
export interface IdempotentRequest {
  key: string;
  request: string;
}

/**
 * What a key replays: the record the first call acted on and its confirmation, and the request it
 * answered (a key sent again with another request is refused, not replayed). Keys stored before the
 * cashier carry `orderId` (always an order's) instead of `refId`.
 */
interface Acknowledgement {
  refId?: number;
  orderId?: number;
  msgKey: string;
  request: string;
}

/** The outcome of a money call: the record it made or changed, and its confirmation message. */
export interface Acknowledged {
  refId: number;
  msgKey: string;
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

/** The Idempotency-Key of a money call and its request's fingerprint, or none when no key was sent. */
export const idempotentRequest = (key: string | undefined, body: object): IdempotentRequest | undefined =>
  key === undefined ? undefined : { key, request: requestHash(body) };

/** Idempotency-Keys of the money calls (orders, deposits, withdrawals): each key answers one request, once. */
export class IdempotencyStore {
  constructor(private readonly db: Db) {}

  /**
   * Runs a money call at most once per Idempotency-Key. The key is claimed first, in the call's own
   * transaction: a call racing with the same key waits on that row until the first commits, then fails
   * on the key and answers the first result. Only successes are stored: a refused call rolls its claim
   * back, changed nothing, and may be retried with the same key. `load` reads the record a replay
   * answers with, as it is now.
   */
  async once<T extends Acknowledged, R>(
    userId: number,
    idempotency: IdempotentRequest | undefined,
    route: string,
    run: (tx: Executor) => Promise<T>,
    load: (refId: number) => Promise<R>,
  ): Promise<{ first: T; replayed?: never } | { replayed: { record: R; msgKey: string }; first?: never }> {
    if (!idempotency) return { first: await this.db.transaction(run) };
    const { key, request } = idempotency;
    const thisKey = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
    try {
      const first = await this.db.transaction(async (tx) => {
        await tx.insert(idempotencyKeys).values({ userId, key, route, response: { request } });
        const result = await run(tx);
        const response: Acknowledgement = { refId: result.refId, msgKey: result.msgKey, request };
        await tx.update(idempotencyKeys).set({ response }).where(thisKey);
        return result;
      });
      return { first };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const replayed = await this.replay(userId, idempotency, route, load);
      if (replayed) return { replayed };
      throw error;
    }
  }

  /** The first answer again, if the key was used for this same request; another request (or route) is a conflict. */
  /** Which of these keys were used already (as `userId:key`): one look-up for many, for callers that place in bulk. */
  async used(pairs: { userId: number; key: string }[]): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows = rowsOf(
      await this.db.execute(sql`
        SELECT k.user_id, k.key FROM ${idempotencyKeys} k
        JOIN unnest(${idArray(pairs.map((pair) => pair.userId))}, ${`{${pairs.map((pair) => JSON.stringify(pair.key)).join(',')}}`}::text[]) AS p(user_id, key)
          ON k.user_id = p.user_id AND k.key = p.key`),
    );
    return new Set(rows.map((row) => `${String(row.user_id)}:${String(row.key)}`));
  }

  async replay<R>(
    userId: number,
    { key, request }: IdempotentRequest,
    route: string,
    load: (refId: number) => Promise<R>,
    executor: Executor = this.db,
  ): Promise<{ record: R; msgKey: string } | null> {
    const [row] = await executor
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
      .limit(1);
    if (!row) return null;
    const acknowledgement = row.response as Acknowledgement;
    const refId = acknowledgement.refId ?? acknowledgement.orderId;
    if (row.route !== route || acknowledgement.request !== request || refId === undefined)
      throw conflict('idempotency_key_reused');
    return { record: await load(refId), msgKey: acknowledgement.msgKey };
  }
}
