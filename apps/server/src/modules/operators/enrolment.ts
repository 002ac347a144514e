import { rejected, type OperatorRole } from '@pipwise/domain';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor, Tx } from '../../db/client.js';
import { operators } from '../../db/schema.js';
import { hashPassword, sha256Hex } from '../../security/secrets.js';
import type { AuditService } from '../audit/service.js';
import { newEnrolmentToken, newOperatorPassword, type OperatorTotp } from './credentials.js';
import type { OperatorSessions } from './sessions.js';
import { roleOf, type OperatorView } from './view.js';

/** How long a one-time enrolment link opens: long enough to reach a new colleague, short enough to go stale. */
export const OPERATOR_ENROLMENT_TTL_MS = 72 * 3_600_000;
/** Where the admin app takes an enrolment link: the token in the fragment, so no server or proxy log keeps it. */
export const ENROLMENT_PATH = '/admin/#/enrol/';

/**
 * A one-time enrolment link, shown once to whoever made (or reset) the operator: the operator opens it,
 * sets their own password and adds their own TOTP secret. Nobody else ever holds both.
 */
export interface OperatorEnrolment {
  email: string;
  role: OperatorRole;
  /** The admin app's path with the token (`/admin/#/enrol/…`): prefix it with the server's address. */
  link: string;
  expires_at: string;
}

/** What a new operator's authenticator app needs, shown to whoever opened the enrolment link. */
export interface EnrolmentStart {
  email: string;
  role: OperatorRole;
  otpauth: string;
}

export interface OperatorEnrolmentsDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
}

/** New operators and their enrolment: the link, their own password and TOTP secret, their first session. */
export class OperatorEnrolments {
  constructor(
    private readonly deps: OperatorEnrolmentsDeps,
    private readonly totp: OperatorTotp,
    private readonly sessions: OperatorSessions,
  ) {}

  /**
   * A new operator, not audited (the callers that audit use `add`), who can sign in only once enrolled
   * through the link: until then their password and TOTP secret are random ones nobody knows.
   */
  async create(
    input: { email: string; role: OperatorRole; createdBy: string; createdById?: number | null; enrolledById?: number | null },
    executor: Executor = this.deps.db,
  ): Promise<OperatorEnrolment & { id: number }> {
    const email = input.email.trim();
    const token = newEnrolmentToken();
    const expiresAt = new Date(this.deps.clock.now().getTime() + OPERATOR_ENROLMENT_TTL_MS);
    const inserted = await executor
      .insert(operators)
      .values({
        email,
        role: input.role,
        passwordHash: await hashPassword(newOperatorPassword()),
        totpSecretSealed: this.totp.sealedUnknown(email),
        createdBy: input.createdBy,
        createdById: input.createdById ?? null,
        enrolledById: input.enrolledById ?? null,
        enrolmentTokenHash: sha256Hex(token),
        enrolmentExpiresAt: expiresAt,
      })
      .onConflictDoNothing()
      .returning({ id: operators.id });
    if (inserted.length === 0) throw rejected('operator_email_taken');
    return {
      id: inserted[0]!.id,
      email,
      role: input.role,
      link: `${ENROLMENT_PATH}${token}`,
      expires_at: expiresAt.toISOString(),
    };
  }

  /** The operator whose open enrolment link carries this token (held for update), or null. */
  private async enrolling(tx: Tx, token: string) {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const [row] = await tx
      .select()
      .from(operators)
      .where(
        and(
          eq(operators.enrolmentTokenHash, sha256Hex(token)),
          gt(operators.enrolmentExpiresAt, this.deps.clock.now()),
          isNull(operators.disabledAt),
        ),
      )
      .for('update');
    return row ?? null;
  }

  /**
   * Opens an enrolment: a fresh TOTP secret for the operator's authenticator app. Opening it again
   * replaces the secret, so only the last one shown counts; the link stays open until `finish`.
   */
  async begin(token: string): Promise<EnrolmentStart> {
    return this.deps.db.transaction(async (tx) => {
      const row = await this.enrolling(tx, token);
      if (!row) throw rejected('operator_enrolment_invalid');
      const { sealed, otpauth } = this.totp.fresh(row.email);
      await tx.update(operators).set({ totpSecretSealed: sealed, lastOtpStep: 0 }).where(eq(operators.id, row.id));
      const role = roleOf(row.role);
      return { email: row.email, role, otpauth };
    });
  }

  /**
   * Ends an enrolment: the operator's own password, and a code of the secret `begin` showed, which
   * proves their authenticator holds it. The link is spent, and a session opens.
   */
  async finish(
    input: { token: string; password: string; otp: string },
    meta: { ip: string; userAgent: string | null },
  ): Promise<{ token: string; operator: Pick<OperatorView, 'id' | 'email' | 'role'> }> {
    const passwordHash = await hashPassword(input.password);
    return this.deps.db.transaction(async (tx) => {
      const row = await this.enrolling(tx, input.token);
      if (!row) throw rejected('operator_enrolment_invalid');
      const step = this.totp.acceptedStep(row, input.otp);
      if (step === null) throw rejected('operator_enrolment_code_wrong');
      await tx
        .update(operators)
        .set({
          passwordHash,
          passwordChangedAt: this.deps.clock.now(),
          lastOtpStep: step,
          enrolmentTokenHash: null,
          enrolmentExpiresAt: null,
        })
        .where(eq(operators.id, row.id));
      await this.sessions.revokeAll(row.id, tx);
      await this.deps.audit.record(
        {
          by: { actor: `operator:${row.email}`, id: row.id },
          action: 'operator.enrol',
          targetType: 'operator',
          targetId: row.id,
          ip: meta.ip,
        },
        tx,
      );
      const session = await this.sessions.open(row.id, meta, tx);
      const role = roleOf(row.role);
      return { token: session, operator: { id: row.id, email: row.email, role } };
    });
  }

  /**
   * The first start's superadmin while it is the only operator, has never enrolled and its link has
   * expired, so a start may hand out a new one; null otherwise.
   */
  async waitingFirstOperator(email: string): Promise<number | null> {
    const rows = await this.deps.db.select().from(operators).limit(2);
    const [only] = rows;
    if (rows.length !== 1 || !only || only.passwordChangedAt || only.createdBy !== 'system') return null;
    if (only.enrolmentExpiresAt && only.enrolmentExpiresAt > this.deps.clock.now()) return null;
    return only.email.toLowerCase() === email.toLowerCase() ? only.id : null;
  }
}
