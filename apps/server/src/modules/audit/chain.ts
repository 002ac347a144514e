import { createHash, createHmac } from 'node:crypto';
import type { auditLog } from '../../db/schema.js';

/** The first row's previous hash. */
export const GENESIS_HASH = '0'.repeat(64);

/** What a row's hash covers: everything but its id (the chain's order is the id order). */
export interface ChainedFields {
  at: Date;
  actor: string;
  operatorId: number | null;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  ip: string | null;
  prevHash: string;
}

/**
 * JSON with object keys sorted at every depth: jsonb does not keep key order, so the hash is taken over
 * a form that reads back the same from the database as it was written.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const hashed = (fields: ChainedFields) => canonicalJson({ ...fields, at: fields.at.toISOString() });

/**
 * A row's hash: HMAC-SHA256 under a key derived from the app secret (`audit-chain`), which the
 * database never holds, so whoever can write the table (its owner, a superuser) cannot re-hash a
 * changed row into a chain that verifies.
 */
export function rowHash(key: Buffer, fields: ChainedFields): string {
  return createHmac('sha256', key).update(hashed(fields)).digest('hex');
}

/**
 * The hash of rows written before the chain was keyed: plain SHA-256 of the same text. Such rows are
 * accepted only before the seal (`CHAIN_SEAL_ACTION`) that pins them under the key.
 */
export function legacyRowHash(fields: ChainedFields): string {
  return createHash('sha256').update(hashed(fields)).digest('hex');
}

/**
 * The first keyed row of a log that already held unkeyed rows: its `after` names how many there were
 * and the last one's hash (its own `prev_hash`), and its keyed hash makes both unchangeable.
 */
export const CHAIN_SEAL_ACTION = 'audit.chain_keyed';

export interface ChainSeal {
  legacy_rows: number;
  legacy_head: string;
}

/** The hashed fields of a stored row. */
export const chainedFields = (row: typeof auditLog.$inferSelect): ChainedFields => ({
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
