import { asc, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { GENESIS_HASH, rowHash } from './chain.js';

/** Rows read per query while walking the chain. */
const BATCH = 1_000;

export interface ChainReport {
  ok: boolean;
  /** Rows checked (up to and including the first broken one). */
  rows: number;
  /** The id of the first row whose hash or link does not hold; null when the chain is whole. */
  broken_at: number | null;
}

/**
 * Walks the whole audit chain in id order: each row's hash must be the hash of its fields, and its
 * previous hash the hash of the row before (the genesis hash for the first). A row changed or deleted
 * behind the append-only trigger's back breaks one of the two.
 */
export async function verifyAuditChain(db: Db): Promise<ChainReport> {
  let previous = GENESIS_HASH;
  let lastId = 0;
  let rows = 0;
  for (;;) {
    const batch = await db.select().from(auditLog).where(gt(auditLog.id, lastId)).orderBy(asc(auditLog.id)).limit(BATCH);
    for (const row of batch) {
      rows++;
      const expected = rowHash({
        at: row.at,
        actor: row.actor,
        operatorId: row.operatorId,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        before: row.before,
        after: row.after,
        ip: row.ip,
        prevHash: row.prevHash,
      });
      if (row.prevHash !== previous || row.hash !== expected) return { ok: false, rows, broken_at: row.id };
      previous = row.hash;
      lastId = row.id;
    }
    if (batch.length < BATCH) return { ok: true, rows, broken_at: null };
  }
}
