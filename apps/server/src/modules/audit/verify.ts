import type { AuditChainView } from '@pipwise/domain';
import { asc, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { CHAIN_SEAL_ACTION, chainedFields, GENESIS_HASH, legacyRowHash, rowHash, type ChainSeal } from './chain.js';

/** Rows read per query while walking the chain. */
const BATCH = 1_000;

const isSeal = (after: unknown, legacyRows: number, legacyHead: string) => {
  const seal = after as Partial<ChainSeal> | null;
  return seal?.legacy_rows === legacyRows && seal.legacy_head === legacyHead;
};

/**
 * Walks the whole audit chain in id order: each row's `prev_hash` must be the hash of the row before
 * (the genesis hash for the first) and its hash the HMAC of its fields under `key`. Rows an earlier
 * version wrote with plain SHA-256 are accepted only as an unbroken run from the start that a seal row
 * (`CHAIN_SEAL_ACTION`, keyed) closes, naming their number and last hash; an unkeyed row anywhere else,
 * or unkeyed rows no seal closes, break the chain. Without the key nobody can re-hash a changed row.
 */
export async function verifyAuditChain(db: Db, key: Buffer): Promise<AuditChainView> {
  let previous = GENESIS_HASH;
  let lastId = 0;
  let rows = 0;
  let legacy = 0;
  let firstLegacy: number | null = null;
  let keyedSince: AuditChainView['keyed_since'] = null;
  const broken = (id: number): AuditChainView => ({
    ok: false,
    rows,
    broken_at: id,
    head: null,
    legacy_rows: legacy,
    keyed_since: keyedSince,
  });
  for (;;) {
    const batch = await db.select().from(auditLog).where(gt(auditLog.id, lastId)).orderBy(asc(auditLog.id)).limit(BATCH);
    for (const row of batch) {
      rows++;
      const fields = chainedFields(row);
      if (row.prevHash !== previous) return broken(row.id);
      if (row.hash === rowHash(key, fields)) {
        if (!keyedSince) {
          if (legacy > 0 && !(row.action === CHAIN_SEAL_ACTION && isSeal(row.after, legacy, previous))) return broken(row.id);
          keyedSince = { id: row.id, at: row.at.toISOString() };
        }
      } else if (!keyedSince && row.hash === legacyRowHash(fields)) {
        legacy++;
        firstLegacy ??= row.id;
      } else {
        return broken(row.id);
      }
      previous = row.hash;
      lastId = row.id;
    }
    if (batch.length < BATCH) break;
  }
  // Unkeyed rows with no seal after them: what a rewrite of the whole log without the key looks like.
  if (firstLegacy !== null && !keyedSince) return broken(firstLegacy);
  return { ok: true, rows, broken_at: null, head: rows > 0 ? previous : null, legacy_rows: legacy, keyed_since: keyedSince };
}
