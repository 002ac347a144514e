import {
  ChangeStatus,
  conflict,
  forbidden,
  notFound,
  rejected,
  type ApprovedChangeResultView,
  type PendingChangeView,
} from '@pipwise/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Tx } from '../../db/client.js';
import { operators, pendingChanges } from '../../db/schema.js';
import type { AuditService } from '../audit/service.js';
import type { FourEyes } from './four-eyes.js';

export type PendingChangeRow = typeof pendingChanges.$inferSelect;

/** An operator as a change records them. */
export interface ChangeSigner {
  id: number;
  email: string;
  actor: string;
  ip: string | null;
}

/**
 * What applies one kind of change once a second superadmin approved it, in the approval's transaction;
 * `afterCommit` runs once that has committed (to tell other processes, say). Its answer is the approver's.
 */
export interface ChangeKind {
  apply(
    tx: Tx,
    payload: Record<string, unknown>,
    change: PendingChangeRow,
    checker: ChangeSigner,
  ): Promise<ApprovedChangeResultView>;
  afterCommit?(payload: Record<string, unknown>): void;
}

export const presentChange = (row: PendingChangeRow): PendingChangeView => ({
  id: row.id,
  kind: row.kind,
  payload: row.payload,
  status: row.status,
  maker: row.makerEmail,
  checker: row.checkerEmail,
  created_at: row.createdAt.toISOString(),
  decided_at: row.decidedAt?.toISOString() ?? null,
});

/**
 * Changes that one superadmin asks for and a second one approves before they take effect (four-eyes on
 * the controls themselves): a setting that weakens a control, a new operator, a raised role. The
 * approver is an enabled superadmin who is neither the maker nor an operator the maker made or enrolled;
 * the maker may withdraw their own (reject).
 */
export class ApprovalsService {
  private readonly kinds = new Map<string, ChangeKind>();

  constructor(private readonly deps: { db: Db; clock: Clock; audit: AuditService; fourEyes: FourEyes }) {}

  /** A change as operators read it, for the modules that propose one (settings). */
  present(row: PendingChangeRow): PendingChangeView {
    return presentChange(row);
  }

  register(kind: string, handler: ChangeKind) {
    this.kinds.set(kind, handler);
  }

  /** Records a change to wait for a second superadmin, audited in the caller's transaction when one is given. */
  async propose(kind: string, payload: Record<string, unknown>, maker: ChangeSigner, executor?: Tx): Promise<PendingChangeRow> {
    const write = async (tx: Tx) => {
      const [row] = await tx
        .insert(pendingChanges)
        .values({ kind, payload, makerId: maker.id, makerEmail: maker.email, createdAt: this.deps.clock.now() })
        .returning();
      await this.deps.audit.record(
        {
          by: maker,
          action: 'change.propose',
          targetType: 'pending_change',
          targetId: row!.id,
          after: { kind, payload },
          ip: maker.ip,
        },
        tx,
      );
      return row!;
    };
    return executor ? write(executor) : this.deps.db.transaction(write);
  }

  async list(status: number | undefined): Promise<PendingChangeRow[]> {
    return this.deps.db
      .select()
      .from(pendingChanges)
      .where(status === undefined ? undefined : eq(pendingChanges.status, status))
      .orderBy(desc(pendingChanges.id))
      .limit(100);
  }

  /** A second superadmin's approval: applies the change and marks it, in one transaction. */
  async approve(id: number, checker: ChangeSigner): Promise<{ change: PendingChangeRow; result: ApprovedChangeResultView }> {
    let handler: ChangeKind | undefined;
    const outcome = await this.deps.db.transaction(async (tx) => {
      const change = await this.waiting(tx, id);
      await this.enabledSuperadmin(tx, checker.id);
      if (change.makerId === checker.id) throw rejected('four_eyes_same_operator');
      if (await this.deps.fourEyes.related(checker.id, change.makerId, tx)) throw rejected('four_eyes_related_operator');
      handler = this.kinds.get(change.kind);
      if (!handler) throw conflict('change_kind_unknown');
      const result = await handler.apply(tx, change.payload, change, checker);
      const row = await this.decide(tx, id, ChangeStatus.approved, checker);
      await this.deps.audit.record(
        {
          by: checker,
          action: 'change.approve',
          targetType: 'pending_change',
          targetId: id,
          before: { status: ChangeStatus.waiting, maker: change.makerEmail },
          after: { status: ChangeStatus.approved, kind: change.kind, payload: change.payload },
          ip: checker.ip,
        },
        tx,
      );
      return { change: row, result };
    });
    handler?.afterCommit?.(outcome.change.payload);
    return outcome;
  }

  /** Turns a waiting change down (any superadmin, the maker too); nothing is applied. */
  async reject(id: number, checker: ChangeSigner): Promise<PendingChangeRow> {
    return this.deps.db.transaction(async (tx) => {
      await this.waiting(tx, id);
      await this.enabledSuperadmin(tx, checker.id);
      const row = await this.decide(tx, id, ChangeStatus.rejected, checker);
      await this.deps.audit.record(
        {
          by: checker,
          action: 'change.reject',
          targetType: 'pending_change',
          targetId: id,
          before: { status: ChangeStatus.waiting },
          after: { status: ChangeStatus.rejected },
          ip: checker.ip,
        },
        tx,
      );
      return row;
    });
  }

  /** Records the decision on a change `waiting` holds. */
  private async decide(tx: Tx, id: number, status: number, checker: ChangeSigner): Promise<PendingChangeRow> {
    const [row] = await tx
      .update(pendingChanges)
      .set({ status, checkerId: checker.id, checkerEmail: checker.email, decidedAt: this.deps.clock.now() })
      .where(eq(pendingChanges.id, id))
      .returning();
    return row!;
  }

  /** The change, held until the decision commits: of two decisions at once the second finds it decided. */
  private async waiting(tx: Tx, id: number): Promise<PendingChangeRow> {
    const [change] = await tx.select().from(pendingChanges).where(eq(pendingChanges.id, id)).for('update');
    if (!change) throw notFound('change_not_found');
    if (change.status !== ChangeStatus.waiting) throw conflict('change_already_decided');
    return change;
  }

  /** The decider is still an enabled superadmin (one demoted a moment ago had passed the route's guard). */
  private async enabledSuperadmin(tx: Tx, id: number) {
    const [row] = await tx
      .select({ role: operators.role, disabledAt: operators.disabledAt })
      .from(operators)
      .where(and(eq(operators.id, id)));
    if (!row || row.disabledAt || row.role !== 'superadmin') throw forbidden('operator_role_forbidden');
  }
}
