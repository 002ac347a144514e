import { conflict, forbidden, isOperatorRole, notFound, rejected, type OperatorRole } from '@pipwise/domain';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Tx } from '../../db/client.js';
import { operators } from '../../db/schema.js';
import { hashPassword, sha256Hex } from '../../security/secrets.js';
import type { AuditActor, AuditService } from '../audit/service.js';
import type { ApprovalsService, ChangeSigner, PendingChangeRow } from './approvals.js';
import { newEnrolmentToken, newOperatorPassword, type OperatorTotp } from './credentials.js';
import { ENROLMENT_PATH, OPERATOR_ENROLMENT_TTL_MS, type OperatorEnrolment, type OperatorEnrolments } from './enrolment.js';
import type { OperatorSessions } from './sessions.js';
import type { OperatorSignIn } from './sign-in.js';
import { roleOf, toView, type OperatorView } from './view.js';

/** Serialises changes to operators' roles and enablement, so two changes never both leave no superadmin. */
const OPERATORS_CHANGE_LOCK = 0x6f706572; // "oper"

export interface OperatorManagementDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  /** Where a new operator or a raised role waits for a second superadmin; the command line acts alone. */
  approvals?: ApprovalsService | undefined;
}

/**
 * Superadmins' (and the command line's) management of operators: adding, roles, disabling and resets,
 * each serialised with the others and audited; a raise or an addition waits for a second superadmin
 * where there are two or more.
 */
export class OperatorManagement {
  constructor(
    private readonly deps: OperatorManagementDeps,
    private readonly parts: {
      totp: OperatorTotp;
      sessions: OperatorSessions;
      enrolments: OperatorEnrolments;
      signIn: OperatorSignIn;
    },
  ) {}

  async count(): Promise<number> {
    const [row] = await this.deps.db.select({ n: sql<number>`count(*)::int` }).from(operators);
    return row?.n ?? 0;
  }

  async list(): Promise<OperatorView[]> {
    const rows = await this.deps.db.select().from(operators).orderBy(asc(operators.id));
    return rows.map(toView);
  }

  async find(email: string): Promise<OperatorView | null> {
    const [row] = await this.deps.db
      .select()
      .from(operators)
      .where(eq(sql`lower(${operators.email})`, email.trim().toLowerCase()));
    return row ? toView(row) : null;
  }

  /**
   * A new operator, audited with who made it (a superadmin, the command line, the first start). Where
   * two or more superadmins are enabled, a superadmin's addition waits for another one's approval
   * (`pending`); the approver is then handed the enrolment link.
   */
  async add(
    input: { email: string; role: OperatorRole },
    by: AuditActor & { ip?: string | null },
    ip: string | null = null,
  ): Promise<OperatorEnrolment | { pending: PendingChangeRow }> {
    return this.change(by, async (tx) => {
      const email = input.email.trim();
      const [taken] = await tx
        .select({ id: operators.id })
        .from(operators)
        .where(eq(sql`lower(${operators.email})`, email.toLowerCase()));
      if (taken) throw rejected('operator_email_taken');
      const maker = await this.needsSecondSuperadmin(tx, by);
      if (maker) return { pending: await this.deps.approvals!.propose('operator.add', { email, role: input.role }, maker, tx) };
      return this.addNow(tx, { email, role: input.role }, by, { id: by.id ?? null, actor: by.actor }, ip);
    });
  }

  private async addNow(
    tx: Tx,
    input: { email: string; role: OperatorRole },
    by: AuditActor,
    maker: { id: number | null; actor: string },
    ip: string | null,
  ) {
    const { id, ...enrolment } = await this.parts.enrolments.create(
      {
        ...input,
        createdBy: maker.actor,
        createdById: maker.id,
        enrolledById: by.id ?? null,
      },
      tx,
    );
    await this.deps.audit.record(
      {
        by,
        action: 'operator.create',
        targetType: 'operator',
        targetId: id,
        after: { email: enrolment.email, role: enrolment.role },
        ip,
      },
      tx,
    );
    return enrolment;
  }

  /**
   * The maker of a change that needs a second superadmin, or null when it applies at once: an operator's
   * (not the command line's) change where two or more superadmins are enabled.
   */
  private async needsSecondSuperadmin(tx: Tx, by: AuditActor & { ip?: string | null }): Promise<ChangeSigner | null> {
    if (by.id == null || !this.deps.approvals) return null;
    const [superadmins] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(operators)
      .where(and(eq(operators.role, 'superadmin'), isNull(operators.disabledAt)));
    if (!superadmins || superadmins.n < 2) return null;
    const [row] = await tx.select({ email: operators.email }).from(operators).where(eq(operators.id, by.id));
    return { id: by.id, email: row?.email ?? '', actor: by.actor, ip: by.ip ?? null };
  }

  /** How an approved addition, enablement or role change applies: the approver acts, the maker is kept as the maker. */
  registerChangeKinds(approvals: ApprovalsService) {
    approvals.register('operator.add', {
      apply: async (tx, payload, change, checker) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${OPERATORS_CHANGE_LOCK})`);
        const role = String(payload.role);
        if (!isOperatorRole(role)) throw rejected('operator_input_invalid');
        return this.addNow(
          tx,
          { email: String(payload.email), role },
          checker,
          { id: change.makerId, actor: `operator:${change.makerEmail}` },
          checker.ip,
        );
      },
    });
    approvals.register('operator.enable', {
      apply: async (tx, payload, _change, checker) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${OPERATORS_CHANGE_LOCK})`);
        return toView(await this.enableNow(tx, Number(payload.id), checker, checker.ip));
      },
    });
    approvals.register('operator.role', {
      apply: async (tx, payload, _change, checker) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${OPERATORS_CHANGE_LOCK})`);
        const role = String(payload.role);
        if (!isOperatorRole(role)) throw rejected('operator_input_invalid');
        return toView(await this.setRoleNow(tx, Number(payload.id), role, checker, checker.ip));
      },
    });
  }

  /** Disables an operator and ends their sessions at once; never oneself, never the last enabled superadmin. */
  async disable(id: number, by: AuditActor, ip: string | null = null): Promise<OperatorView> {
    return this.change(by, async (tx) => {
      const target = await this.target(tx, id);
      if (by.id === id) throw rejected('operator_cannot_change_self');
      if (target.disabledAt) throw conflict('operator_already_disabled');
      if (target.role === 'superadmin') await this.keepASuperadmin(tx, id);
      const [row] = await tx
        .update(operators)
        .set({ disabledAt: this.deps.clock.now() })
        .where(and(eq(operators.id, id), isNull(operators.disabledAt)))
        .returning();
      await this.parts.sessions.revokeAll(id, tx);
      await this.deps.audit.record(
        {
          by,
          action: 'operator.disable',
          targetType: 'operator',
          targetId: id,
          before: { disabled: false },
          after: { disabled: true },
          ip,
        },
        tx,
      );
      return toView(row!);
    });
  }

  /**
   * Enables a disabled operator. It gives back every power of their role, so beyond the least role
   * (`support`) it waits for a second superadmin where there are two or more, as a raise does: one
   * superadmin cannot bring back, alone, the finance operator another one disabled.
   */
  async enable(
    id: number,
    by: AuditActor & { ip?: string | null },
    ip: string | null = null,
  ): Promise<OperatorView | { pending: PendingChangeRow }> {
    return this.change(by, async (tx) => {
      const target = await this.target(tx, id);
      if (!target.disabledAt) throw conflict('operator_already_enabled');
      const maker = target.role === 'support' ? null : await this.needsSecondSuperadmin(tx, by);
      if (maker)
        return { pending: await this.deps.approvals!.propose('operator.enable', { id, email: target.email }, maker, tx) };
      return toView(await this.enableNow(tx, id, by, ip));
    });
  }

  private async enableNow(tx: Tx, id: number, by: AuditActor, ip: string | null) {
    const target = await this.target(tx, id);
    if (!target.disabledAt) throw conflict('operator_already_enabled');
    const [row] = await tx.update(operators).set({ disabledAt: null }).where(eq(operators.id, id)).returning();
    await this.deps.audit.record(
      {
        by,
        action: 'operator.enable',
        targetType: 'operator',
        targetId: id,
        before: { disabled: true },
        after: { disabled: false },
        ip,
      },
      tx,
    );
    return row!;
  }

  /**
   * A lost phone, a leaked password: the password and TOTP secret become random ones nobody knows, every
   * session ends, the login failures counted for the e-mail are forgotten, and a new enrolment link is
   * handed to whoever reset (who may then never check this operator's work).
   */
  async reset(id: number, by: AuditActor, ip: string | null = null): Promise<OperatorEnrolment> {
    const enrolment = await this.change(by, async (tx) => {
      const target = await this.target(tx, id);
      const role = roleOf(target.role);
      const token = newEnrolmentToken();
      const expiresAt = new Date(this.deps.clock.now().getTime() + OPERATOR_ENROLMENT_TTL_MS);
      await tx
        .update(operators)
        .set({
          passwordHash: await hashPassword(newOperatorPassword()),
          totpSecretSealed: this.parts.totp.sealedUnknown(target.email),
          lastOtpStep: 0,
          passwordChangedAt: null,
          enrolledById: by.id ?? null,
          enrolmentTokenHash: sha256Hex(token),
          enrolmentExpiresAt: expiresAt,
        })
        .where(eq(operators.id, id));
      await this.parts.sessions.revokeAll(id, tx);
      await this.deps.audit.record(
        {
          by,
          action: 'operator.reset',
          targetType: 'operator',
          targetId: id,
          after: { password: 'new', totp_secret: 'new' },
          ip,
        },
        tx,
      );
      return { email: target.email, role, link: `${ENROLMENT_PATH}${token}`, expires_at: expiresAt.toISOString() };
    });
    await this.parts.signIn.forgetFailures(enrolment.email);
    return enrolment;
  }

  /**
   * Changes a role; a superadmin cannot demote themself, and the last enabled superadmin stays one. A
   * raise (any role but `support`, the least) waits for a second superadmin where there are two or more.
   */
  async setRole(
    id: number,
    role: OperatorRole,
    by: AuditActor & { ip?: string | null },
    ip: string | null = null,
  ): Promise<OperatorView | { pending: PendingChangeRow }> {
    return this.change(by, async (tx) => {
      const target = await this.target(tx, id);
      if (target.role === role) return toView(target);
      if (by.id === id) throw rejected('operator_cannot_change_self');
      const maker = role === 'support' ? null : await this.needsSecondSuperadmin(tx, by);
      if (maker)
        return { pending: await this.deps.approvals!.propose('operator.role', { id, email: target.email, role }, maker, tx) };
      return toView(await this.setRoleNow(tx, id, role, by, ip));
    });
  }

  private async setRoleNow(tx: Tx, id: number, role: OperatorRole, by: AuditActor, ip: string | null) {
    const target = await this.target(tx, id);
    if (target.role === role) return target;
    if (by.id === id) throw rejected('operator_cannot_change_self');
    if (target.role === 'superadmin' && !target.disabledAt) await this.keepASuperadmin(tx, id);
    const [row] = await tx.update(operators).set({ role }).where(eq(operators.id, id)).returning();
    await this.deps.audit.record(
      { by, action: 'operator.role', targetType: 'operator', targetId: id, before: { role: target.role }, after: { role }, ip },
      tx,
    );
    return row!;
  }

  /**
   * One change to the operators, serialised with every other (the last-superadmin rule reads the others'
   * state), by an actor still allowed to make it: a superadmin disabled or demoted a moment ago, whose
   * request had already passed the guard, is refused here.
   */
  private async change<T>(by: AuditActor, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${OPERATORS_CHANGE_LOCK})`);
      if (by.id != null) {
        const [actor] = await tx.select().from(operators).where(eq(operators.id, by.id));
        if (!actor || actor.disabledAt || actor.role !== 'superadmin') throw forbidden('operator_role_forbidden');
      }
      return work(tx);
    });
  }

  private async target(tx: Tx, id: number) {
    const [row] = await tx.select().from(operators).where(eq(operators.id, id));
    if (!row) throw notFound('operator_not_found');
    return row;
  }

  private async keepASuperadmin(tx: Tx, leaving: number) {
    const [others] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(operators)
      .where(and(eq(operators.role, 'superadmin'), isNull(operators.disabledAt), ne(operators.id, leaving)));
    if (!others || others.n === 0) throw rejected('operator_last_superadmin');
  }
}
