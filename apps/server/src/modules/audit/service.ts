import { asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { storedAddress } from '../../http/client-address.js';
import { CHAIN_SEAL_ACTION, chainedFields, GENESIS_HASH, legacyRowHash, rowHash, type ChainSeal } from './chain.js';

/** Who acted: a signed-in operator, or the command line / the system itself. */
export interface AuditActor {
  actor: string;
  id?: number | null;
}

export interface AuditEntry {
  by: AuditActor;
  /** Dotted verb, e.g. `deposit.approve`, `instrument.update`, `operator.disable`. */
  action: string;
  targetType: string;
  targetId: string | number;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

/** Every audit row's writes are serialised by this transaction-scoped advisory lock, so the chain never forks. */
const AUDIT_CHAIN_LOCK = 0x61756469; // "audi"

/** Values as jsonb gives them back (no undefined, dates as text), so the hash of what is read equals what was written. */
const asStored = (value: unknown) => (value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown));

/**
 * The append-only, hash-chained audit log. `record` takes an executor so an action and its audit row
 * commit together: inside the action's transaction when it has one. `key` is the app secret's
 * `audit-chain` key: each row's hash is an HMAC under it.
 */
export class AuditService {
  constructor(private readonly deps: { db: Db; clock: Clock; key: Buffer }) {}

  async record(entry: AuditEntry, executor?: Executor): Promise<void> {
    if (executor && executor !== this.deps.db) {
      await this.append(executor, entry);
      return;
    }
    await this.deps.db.transaction((tx) => this.append(tx, entry));
  }

  /**
   * After an upgrade from the unkeyed chain: pins the rows written before it under the key with one
   * seal row (`CHAIN_SEAL_ACTION`), so verify accepts them, and only them, on the old hash. Runs at
   * every start after the migrations (server and command line) and does nothing on a log that is
   * empty, keyed from its first row, or already sealed (an unkeyed row there is for verify to report).
   */
  async sealLegacyRows(): Promise<ChainSeal | null> {
    return this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
      const [last] = await tx.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
      if (!last) return null;
      const fields = chainedFields(last);
      if (last.hash !== legacyRowHash(fields) || last.hash === rowHash(this.deps.key, fields)) return null;
      // A log keyed from its first row, or sealed before, is never sealed (again) over an unkeyed row.
      const [first] = await tx.select().from(auditLog).orderBy(asc(auditLog.id)).limit(1);
      if (first!.hash === rowHash(this.deps.key, chainedFields(first!))) return null;
      const [sealed] = await tx.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.action, CHAIN_SEAL_ACTION)).limit(1);
      if (sealed) return null;
      const [{ rows } = { rows: 0 }] = await tx.select({ rows: count() }).from(auditLog);
      const seal: ChainSeal = { legacy_rows: Number(rows), legacy_head: last.hash };
      await this.insert(
        tx,
        { by: { actor: 'system' }, action: CHAIN_SEAL_ACTION, targetType: 'audit_log', targetId: last.id, after: seal },
        last.hash,
      );
      return seal;
    });
  }

  private async append(tx: Executor, entry: AuditEntry) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
    const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    await this.insert(tx, entry, last?.hash ?? GENESIS_HASH);
  }

  private async insert(tx: Executor, entry: AuditEntry, prevHash: string) {
    // Millisecond precision: what the database keeps (microseconds) must read back as what was hashed.
    const fields = {
      at: new Date(this.deps.clock.now().getTime()),
      actor: entry.by.actor,
      operatorId: entry.by.id ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: String(entry.targetId),
      before: asStored(entry.before),
      after: asStored(entry.after),
      // Only an address is kept: a forwarded header's free text never reaches the log.
      ip: storedAddress(entry.ip),
      prevHash,
    };
    await tx.insert(auditLog).values({ ...fields, hash: rowHash(this.deps.key, fields) });
  }
}
