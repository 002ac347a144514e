import { desc, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { storedAddress } from '../../http/client-address.js';
import { auditLog } from '../../db/schema.js';
import { GENESIS_HASH, rowHash } from './chain.js';

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
 * commit together: inside the action's transaction when it has one.
 */
export class AuditService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  async record(entry: AuditEntry, executor?: Executor): Promise<void> {
    if (executor && executor !== this.deps.db) {
      await this.append(executor, entry);
      return;
    }
    await this.deps.db.transaction((tx) => this.append(tx, entry));
  }

  private async append(tx: Executor, entry: AuditEntry) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
    const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
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
      prevHash: last?.hash ?? GENESIS_HASH,
    };
    await tx.insert(auditLog).values({ ...fields, hash: rowHash(fields) });
  }
}
