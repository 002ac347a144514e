import { conflict, type ReviewClaimView } from '@pipwise/domain';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Db, Executor } from '../db/client.js';
import { reviewClaims } from '../db/schema.js';
import type { ClaimRelease, Decider, ReviewQueue } from './decisions.js';

const MINUTE_MS = 60_000;

/**
 * What claims need from the modules above, as the settings and audit services offer it; named here so the
 * claims depend on no module.
 */
export interface ClaimDeps {
  db: Db;
  clock: Clock;
  settings: { get(key: 'review_claim_minutes'): Promise<string> };
  audit: {
    record(
      entry: {
        by: { actor: string; id?: number | null };
        action: string;
        targetType: string;
        targetId: string;
        before?: unknown;
        after?: unknown;
        ip?: string | null;
      },
      executor: Executor,
    ): Promise<void>;
  };
}

/**
 * Who is looking at a queue item. Advisory: decisions work without a claim (and end it), so a claim
 * never blocks money, it only stops two operators from reviewing the same item unawares. A claim lasts
 * `review_claim_minutes`; once expired anyone may take it.
 */
export class ReviewClaims implements ClaimRelease {
  constructor(private readonly deps: ClaimDeps) {}

  /**
   * Takes (or renews) the item for `operator`. One upsert decides: it overwrites only an expired claim
   * or the operator's own, so of two operators claiming at once exactly one holds it.
   */
  async claim(queue: ReviewQueue, itemId: string, operator: Decider & { id: number; email: string }): Promise<ReviewClaimView> {
    const minutes = Math.max(1, Number(await this.deps.settings.get('review_claim_minutes')) || 15);
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + minutes * MINUTE_MS);
    return this.deps.db.transaction(async (tx) => {
      const values = { operatorId: operator.id, operatorEmail: operator.email, claimedAt: now, expiresAt };
      const [row] = await tx
        .insert(reviewClaims)
        .values({ queue, itemId, ...values })
        .onConflictDoUpdate({
          target: [reviewClaims.queue, reviewClaims.itemId],
          set: values,
          setWhere: sql`${reviewClaims.expiresAt} <= ${now.toISOString()}::timestamptz OR ${reviewClaims.operatorId} = ${operator.id}`,
        })
        .returning();
      if (!row) {
        const holder = await this.holder(tx, queue, itemId);
        throw conflict('claim_held', { operator: holder ?? '' });
      }
      await this.deps.audit.record(
        {
          by: operator,
          action: 'claim.take',
          targetType: queue,
          targetId: itemId,
          after: { expires_at: expiresAt },
          ip: operator.ip,
        },
        tx,
      );
      return { operator: row.operatorEmail, expires_at: row.expiresAt.toISOString() };
    });
  }

  /** Gives the operator's own claim back; someone else's live claim is theirs to release. */
  async release(queue: ReviewQueue, itemId: string, operator: Decider & { id: number }): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(reviewClaims)
        .where(and(eq(reviewClaims.queue, queue), eq(reviewClaims.itemId, itemId), eq(reviewClaims.operatorId, operator.id)))
        .returning();
      if (!row) {
        const holder = await this.holder(tx, queue, itemId);
        if (holder) throw conflict('claim_held', { operator: holder });
        return;
      }
      await this.deps.audit.record(
        {
          by: operator,
          action: 'claim.release',
          targetType: queue,
          targetId: itemId,
          before: { expires_at: row.expiresAt },
          ip: operator.ip,
        },
        tx,
      );
    });
  }

  async releaseAll(tx: Executor, queue: ReviewQueue, itemId: string | number): Promise<void> {
    await tx.delete(reviewClaims).where(and(eq(reviewClaims.queue, queue), eq(reviewClaims.itemId, String(itemId))));
  }

  /** The live claims on these items (expired ones are as good as none). */
  async live(queue: ReviewQueue, itemIds: (string | number)[]): Promise<Map<string, ReviewClaimView>> {
    if (itemIds.length === 0) return new Map();
    const rows = await this.deps.db
      .select()
      .from(reviewClaims)
      .where(
        and(
          eq(reviewClaims.queue, queue),
          inArray(reviewClaims.itemId, itemIds.map(String)),
          gt(reviewClaims.expiresAt, this.deps.clock.now()),
        ),
      );
    return new Map(rows.map((row) => [row.itemId, { operator: row.operatorEmail, expires_at: row.expiresAt.toISOString() }]));
  }

  private async holder(tx: Executor, queue: ReviewQueue, itemId: string): Promise<string | null> {
    const [row] = await tx
      .select({ email: reviewClaims.operatorEmail, expiresAt: reviewClaims.expiresAt })
      .from(reviewClaims)
      .where(and(eq(reviewClaims.queue, queue), eq(reviewClaims.itemId, itemId)))
      .limit(1);
    return row && row.expiresAt > this.deps.clock.now() ? row.email : null;
  }
}
