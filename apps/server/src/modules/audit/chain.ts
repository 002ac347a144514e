import { createHash } from 'node:crypto';

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

export function rowHash(fields: ChainedFields): string {
  return createHash('sha256')
    .update(canonicalJson({ ...fields, at: fields.at.toISOString() }))
    .digest('hex');
}
