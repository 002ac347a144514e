import { conflict, forbidden, isOperatorRole, notFound, rejected, type OperatorRole } from '@pipwise/domain';
import { and, asc, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db, Executor, Tx } from '../../db/client.js';
import { operatorSessions, operators } from '../../db/schema.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import { seal, unseal } from '../../sealing.js';
import { deriveKey } from '../../secret.js';
import { addressKey, FailureLimiter, tooManyRequests } from '../../security/limiter.js';
import { hashPassword, sha256Hex, verifyPassword } from '../../security/secrets.js';
import type { AuditActor, AuditService } from '../audit/service.js';
import type { ApprovalsService, ChangeSigner, PendingChangeRow } from './approvals.js';

/** An operator session lasts a working day: idle for 2 hours or 12 hours in all, whichever comes first. */
export const OPERATOR_SESSION_IDLE_MS = 2 * 3_600_000;
export const OPERATOR_SESSION_ABSOLUTE_MS = 12 * 3_600_000;
/** Moving the idle expiry on every call would write on every read; once a minute is enough. */
const SLIDE_AFTER_MS = 60_000;

/** Operator tokens carry their own prefix: a user token can never be taken for one, nor the other way round. */
export const OPERATOR_TOKEN_PREFIX = 'pwo_';

const TOTP_PERIOD_S = 30;
/** ±1 step: a code typed just before its step ends, or on a clock a little off, still counts. */
const TOTP_WINDOW = 1;

/**
 * Wrong tries for an operator's e-mail, from anywhere, after which its logins need a solved captcha for
 * the rest of the day (the users' step-up). Never a lock: whoever knows the e-mail cannot keep its owner,
 * who has the password and the authenticator, out of the back office by failing on purpose.
 */
export const OPERATOR_CAPTCHA_AFTER = 5;
export const OPERATOR_STEP_UP_WINDOW_MS = 86_400_000;
/** One address may miss a little more often, across every e-mail it tries; then that address waits. */
export const OPERATOR_ADDRESS_MAX_FAILURES = 20;
export const OPERATOR_LOGIN_WINDOW_MS = 15 * 60_000;
/** Wrong current passwords in a signed-in operator's password change (their own session only). */
const PASSWORD_CHANGE_MAX_FAILURES = 5;
export const OPERATOR_PASSWORD_MIN_LENGTH = 12;
/** How long a one-time enrolment link opens: long enough to reach a new colleague, short enough to go stale. */
export const OPERATOR_ENROLMENT_TTL_MS = 72 * 3_600_000;
/** Where the admin app takes an enrolment link: the token in the fragment, so no server or proxy log keeps it. */
export const ENROLMENT_PATH = '/admin/#/enrol/';

/** Why a login failed, for the audit log only: the caller is told one thing for all of them. */
export type LoginFailure = 'unknown_email' | 'wrong_password' | 'disabled' | 'wrong_code' | 'replayed';

/** Serialises changes to operators' roles and enablement, so two changes never both leave no superadmin. */
const OPERATORS_CHANGE_LOCK = 0x6f706572; // "oper"

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

/** Proof of a solved captcha (the accounts' step-up), once an e-mail's logins need one. */
export interface StepUp {
  verify(id: string | undefined, answer: string | undefined): Promise<void>;
}

export interface OperatorView {
  id: number;
  email: string;
  role: OperatorRole;
  disabled: boolean;
  createdBy: string;
  createdAt: string;
  passwordChangedAt: string | null;
}

/** An operator's live session, as `GET /me/sessions` lists it. */
export interface OperatorSessionView {
  id: number;
  createdAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

export const newOperatorPassword = () => randomBytes(15).toString('base64url');

const totpFor = (email: string, secret: OTPAuth.Secret) =>
  new OTPAuth.TOTP({ issuer: 'Pipwise', label: email, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret });

const sealContext = (email: string) => `operator-totp:${email.toLowerCase()}`;

const newEnrolmentToken = () => randomBytes(32).toString('base64url');

/** A hash to compare against when the e-mail is unknown, so a wrong e-mail costs as long as a wrong password. */
const unknownOperatorHash = hashPassword(randomBytes(16).toString('hex'));

/**
 * Operators' accounts and sessions. Passwords are scrypt hashes, TOTP secrets are sealed with a key
 * derived from the app secret, tokens are stored as sha256 only.
 */
export class OperatorsService {
  private readonly totpKey: Buffer;
  private readonly emailFailures: FailureLimiter;
  private readonly addressFailures: FailureLimiter;
  private readonly passwordFailures: FailureLimiter;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      config: Config;
      audit: AuditService;
      /** The login's step-up; the command line, which never logs in, has none. */
      captcha?: StepUp;
      /** Where a new operator or a raised role waits for a second superadmin; the command line acts alone. */
      approvals?: ApprovalsService;
    },
  ) {
    this.totpKey = deriveKey(deps.config, 'operator-totp');
    const { db, clock } = deps;
    this.emailFailures = new FailureLimiter(db, clock, 'operator-step-up', OPERATOR_CAPTCHA_AFTER, OPERATOR_STEP_UP_WINDOW_MS);
    this.passwordFailures = new FailureLimiter(
      db,
      clock,
      'operator-password',
      PASSWORD_CHANGE_MAX_FAILURES,
      OPERATOR_LOGIN_WINDOW_MS,
    );
    this.addressFailures = new FailureLimiter(
      db,
      clock,
      'operator-address',
      OPERATOR_ADDRESS_MAX_FAILURES,
      OPERATOR_LOGIN_WINDOW_MS,
    );
  }

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
        totpSecretSealed: seal(this.totpKey, sealContext(email), new OTPAuth.Secret({ size: 20 }).base32),
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
   * replaces the secret, so only the last one shown counts; the link stays open until `finishEnrolment`.
   */
  async beginEnrolment(token: string): Promise<EnrolmentStart> {
    return this.deps.db.transaction(async (tx) => {
      const row = await this.enrolling(tx, token);
      if (!row) throw rejected('operator_enrolment_invalid');
      const secret = new OTPAuth.Secret({ size: 20 });
      await tx
        .update(operators)
        .set({ totpSecretSealed: seal(this.totpKey, sealContext(row.email), secret.base32), lastOtpStep: 0 })
        .where(eq(operators.id, row.id));
      const role = isOperatorRole(row.role) ? row.role : 'support';
      return { email: row.email, role, otpauth: totpFor(row.email, secret).toString() };
    });
  }

  /**
   * Ends an enrolment: the operator's own password, and a code of the secret `beginEnrolment` showed,
   * which proves their authenticator holds it. The link is spent, and a session opens.
   */
  async finishEnrolment(
    input: { token: string; password: string; otp: string },
    meta: { ip: string; userAgent: string | null },
  ): Promise<{ token: string; operator: Pick<OperatorView, 'id' | 'email' | 'role'> }> {
    const passwordHash = await hashPassword(input.password);
    return this.deps.db.transaction(async (tx) => {
      const row = await this.enrolling(tx, input.token);
      if (!row) throw rejected('operator_enrolment_invalid');
      const step = this.acceptedStep(row, input.otp);
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
      await this.revokeAllSessions(row.id, tx);
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
      const session = await this.openSession(row.id, meta, tx);
      const role = isOperatorRole(row.role) ? row.role : 'support';
      return { token: session, operator: { id: row.id, email: row.email, role } };
    });
  }

  /** The TOTP step of a valid code for the operator's secret, or null. */
  private acceptedStep(row: typeof operators.$inferSelect, otp: string): number | null {
    const secret = OTPAuth.Secret.fromBase32(unseal(this.totpKey, sealContext(row.email), row.totpSecretSealed));
    const now = this.deps.clock.now().getTime();
    const delta = /^\d{6}$/.test(otp)
      ? totpFor(row.email, secret).validate({ token: otp, timestamp: now, window: TOTP_WINDOW })
      : null;
    return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
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
   * Password, then TOTP; a failure with its reason (the caller answers one message for all of them, so
   * nothing tells which part was wrong). A code is accepted once: the step it belongs to must be newer
   * than the last accepted one, taken with a conditional UPDATE so two logins racing with one code
   * cannot both pass.
   */
  async verifyCredentials(
    email: string,
    password: string,
    otp: string,
  ): Promise<{ operator: OperatorView; passwordHash: string } | { failure: LoginFailure; operatorId: number | null }> {
    const [row] = await this.deps.db
      .select()
      .from(operators)
      .where(eq(sql`lower(${operators.email})`, email.trim().toLowerCase()));
    const passwordOk = await verifyPassword(password, row?.passwordHash ?? (await unknownOperatorHash));
    if (!row) return { failure: 'unknown_email', operatorId: null };
    if (!passwordOk) return { failure: 'wrong_password', operatorId: row.id };
    if (row.disabledAt) return { failure: 'disabled', operatorId: row.id };
    const step = this.acceptedStep(row, otp);
    if (step === null) return { failure: 'wrong_code', operatorId: row.id };
    const taken = await this.deps.db
      .update(operators)
      .set({ lastOtpStep: step })
      .where(and(eq(operators.id, row.id), lt(operators.lastOtpStep, step)))
      .returning({ id: operators.id });
    return taken.length === 1
      ? { operator: toView(row), passwordHash: row.passwordHash }
      : { failure: 'replayed', operatorId: row.id };
  }

  /**
   * A login, throttled per address (over every e-mail it tries: that address waits) and stepped up per
   * e-mail (past a few failures from anywhere, no password is tried without a solved captcha, which the
   * owner can always solve). Each try is counted as failed before the slow checks and taken back on
   * success, so tries sent in parallel, to any process, cannot pass the limits together. Every failure,
   * a replayed code included, answers the same; each is audited with its reason (never the password);
   * a try refused by the limits is not, so a flood cannot fill the log.
   */
  async login(
    input: { email: string; password: string; otp: string; key?: string | undefined; captcha?: string | undefined },
    meta: { ip: string; userAgent: string | null },
  ): Promise<{ token: string; operator: Pick<OperatorView, 'id' | 'email' | 'role'> }> {
    const emailKeys = [input.email.trim().toLowerCase()];
    const addressKeys = [addressKey(meta.ip)];
    const fromAddress = await this.addressFailures.failIfRoom(addressKeys);
    if (!fromAddress.counted) throw tooManyRequests(fromAddress.blockedForMs, 'operator_login_throttled');
    const forEmail = await this.emailFailures.failIfRoom(emailKeys);
    if (!forEmail.counted) {
      try {
        if (!this.deps.captcha) throw rejected('operator_login_failed');
        await this.deps.captcha.verify(input.key, input.captcha);
      } catch (error) {
        await this.addressFailures.takeBack(addressKeys, fromAddress.at);
        throw error;
      }
      await this.emailFailures.fail(emailKeys);
    }
    const result = await this.verifyCredentials(input.email, input.password, input.otp);
    if ('failure' in result) {
      await this.deps.audit.record({
        by: { actor: 'anonymous' },
        action: 'operator.login_failed',
        targetType: 'operator',
        targetId: result.operatorId ?? emailKeys[0]!.slice(0, 254),
        after: { email: input.email.trim().slice(0, 254), reason: result.failure },
        ip: meta.ip,
      });
      throw rejected('operator_login_failed');
    }
    await this.emailFailures.reset(emailKeys);
    await this.addressFailures.takeBack(addressKeys, fromAddress.at);
    const { id, email, role } = result.operator;
    const token = await this.deps.db.transaction(async (tx) => {
      // Still enabled with the password just checked, held until the session exists: a disable or reset
      // committing meanwhile either comes first (no session) or waits and then ends this one too.
      const [still] = await tx
        .select({ id: operators.id })
        .from(operators)
        .where(and(eq(operators.id, id), isNull(operators.disabledAt), eq(operators.passwordHash, result.passwordHash)))
        .for('update');
      if (!still) throw rejected('operator_login_failed');
      const opened = await this.openSession(id, meta, tx);
      await this.deps.audit.record(
        { by: { actor: `operator:${email}`, id }, action: 'operator.login', targetType: 'operator', targetId: id, ip: meta.ip },
        tx,
      );
      return opened;
    });
    return { token, operator: { id, email, role } };
  }

  /** The operator's own password: the current one first (counted like a login failure when wrong); ends their other sessions. */
  async changePassword(operator: OperatorPrincipal, current: string, password: string, ip: string | null): Promise<void> {
    const keys = [String(operator.id)];
    const counted = await this.passwordFailures.failIfRoom(keys);
    if (!counted.counted) throw tooManyRequests(counted.blockedForMs, 'operator_login_throttled');
    const [row] = await this.deps.db
      .select({ passwordHash: operators.passwordHash })
      .from(operators)
      .where(eq(operators.id, operator.id));
    if (!row || !(await verifyPassword(current, row.passwordHash))) throw rejected('operator_password_wrong');
    await this.passwordFailures.takeBack(keys, counted.at);
    if (password === current) throw rejected('operator_password_unchanged');
    const passwordHash = await hashPassword(password);
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(operators)
        .set({ passwordHash, passwordChangedAt: this.deps.clock.now() })
        .where(eq(operators.id, operator.id));
      await tx
        .update(operatorSessions)
        .set({ revokedAt: this.deps.clock.now() })
        .where(
          and(
            eq(operatorSessions.operatorId, operator.id),
            ne(operatorSessions.id, operator.sessionId),
            isNull(operatorSessions.revokedAt),
          ),
        );
      await this.deps.audit.record(
        { by: operator, action: 'operator.password_change', targetType: 'operator', targetId: operator.id, ip },
        tx,
      );
    });
  }

  /** The operator's live sessions, newest first. */
  async sessions(operator: OperatorPrincipal): Promise<OperatorSessionView[]> {
    const rows = await this.deps.db
      .select()
      .from(operatorSessions)
      .where(
        and(
          eq(operatorSessions.operatorId, operator.id),
          isNull(operatorSessions.revokedAt),
          gt(operatorSessions.expiresAt, this.deps.clock.now()),
        ),
      )
      .orderBy(desc(operatorSessions.id));
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      ip: row.ip,
      userAgent: row.userAgent,
      current: row.id === operator.sessionId,
    }));
  }

  /** Ends one of the operator's own live sessions; another operator's is as unknown as a missing one. */
  async revokeOwnSession(operator: OperatorPrincipal, sessionId: number, ip: string | null): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const ended = await tx
        .update(operatorSessions)
        .set({ revokedAt: this.deps.clock.now() })
        .where(
          and(
            eq(operatorSessions.id, sessionId),
            eq(operatorSessions.operatorId, operator.id),
            isNull(operatorSessions.revokedAt),
            gt(operatorSessions.expiresAt, this.deps.clock.now()),
          ),
        )
        .returning({ id: operatorSessions.id });
      if (ended.length === 0) throw notFound('operator_session_not_found');
      await this.deps.audit.record(
        { by: operator, action: 'operator.session_revoke', targetType: 'operator_session', targetId: sessionId, ip },
        tx,
      );
    });
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
    const { id, ...enrolment } = await this.create(
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

  /** How an approved addition or role change applies: the approver acts, the maker is kept as the maker. */
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
      await this.revokeAllSessions(id, tx);
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

  async enable(id: number, by: AuditActor, ip: string | null = null): Promise<OperatorView> {
    return this.change(by, async (tx) => {
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
      return toView(row!);
    });
  }

  /**
   * A lost phone, a leaked password: the password and TOTP secret become random ones nobody knows, every
   * session ends, the login failures counted for the e-mail are forgotten, and a new enrolment link is
   * handed to whoever reset (who may then never check this operator's work).
   */
  async reset(id: number, by: AuditActor, ip: string | null = null): Promise<OperatorEnrolment> {
    const enrolment = await this.change(by, async (tx) => {
      const target = await this.target(tx, id);
      const role = isOperatorRole(target.role) ? target.role : 'support';
      const token = newEnrolmentToken();
      const expiresAt = new Date(this.deps.clock.now().getTime() + OPERATOR_ENROLMENT_TTL_MS);
      await tx
        .update(operators)
        .set({
          passwordHash: await hashPassword(newOperatorPassword()),
          totpSecretSealed: seal(this.totpKey, sealContext(target.email), new OTPAuth.Secret({ size: 20 }).base32),
          lastOtpStep: 0,
          passwordChangedAt: null,
          enrolledById: by.id ?? null,
          enrolmentTokenHash: sha256Hex(token),
          enrolmentExpiresAt: expiresAt,
        })
        .where(eq(operators.id, id));
      await this.revokeAllSessions(id, tx);
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
    await this.emailFailures.reset([enrolment.email.toLowerCase()]);
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

  async openSession(
    operatorId: number,
    meta: { ip: string | null; userAgent: string | null },
    executor: Executor = this.deps.db,
  ): Promise<string> {
    const token = `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = this.deps.clock.now().getTime();
    await executor.insert(operatorSessions).values({
      operatorId,
      tokenHash: sha256Hex(token),
      createdAt: new Date(now),
      expiresAt: new Date(now + OPERATOR_SESSION_IDLE_MS),
      absoluteExpiresAt: new Date(now + OPERATOR_SESSION_ABSOLUTE_MS),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    });
    return token;
  }

  /** The session's operator, or null (unknown, expired, revoked, operator disabled). Read every time: a revoke is immediate. */
  readonly resolve = async (token: string): Promise<OperatorPrincipal | null> => {
    if (!token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 100) return null;
    const now = this.deps.clock.now();
    const [row] = await this.deps.db
      .select({
        sessionId: operatorSessions.id,
        expiresAt: operatorSessions.expiresAt,
        absoluteExpiresAt: operatorSessions.absoluteExpiresAt,
        id: operators.id,
        email: operators.email,
        role: operators.role,
      })
      .from(operatorSessions)
      .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
      .where(
        and(
          eq(operatorSessions.tokenHash, sha256Hex(token)),
          isNull(operatorSessions.revokedAt),
          gt(operatorSessions.expiresAt, now),
          isNull(operators.disabledAt),
        ),
      );
    if (!row || !isOperatorRole(row.role)) return null;
    const slid = Math.min(now.getTime() + OPERATOR_SESSION_IDLE_MS, row.absoluteExpiresAt.getTime());
    if (slid - row.expiresAt.getTime() > SLIDE_AFTER_MS) {
      await this.deps.db
        .update(operatorSessions)
        .set({ expiresAt: new Date(slid) })
        .where(eq(operatorSessions.id, row.sessionId));
    }
    return { id: row.id, email: row.email, role: row.role, sessionId: row.sessionId, actor: `operator:${row.email}` };
  };

  /** Ends one session (logout), with its audit row in the same transaction. */
  async logout(operator: OperatorPrincipal, ip: string | null): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(operatorSessions)
        .set({ revokedAt: this.deps.clock.now() })
        .where(and(eq(operatorSessions.id, operator.sessionId), isNull(operatorSessions.revokedAt)));
      await this.deps.audit.record(
        { by: operator, action: 'operator.logout', targetType: 'operator', targetId: operator.id, ip },
        tx,
      );
    });
  }

  async revokeSession(sessionId: number): Promise<void> {
    await this.deps.db
      .update(operatorSessions)
      .set({ revokedAt: this.deps.clock.now() })
      .where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.revokedAt)));
  }

  /** Ends every session of an operator (disabled, password reset). */
  async revokeAllSessions(operatorId: number, executor: Executor = this.deps.db): Promise<void> {
    await executor
      .update(operatorSessions)
      .set({ revokedAt: this.deps.clock.now() })
      .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)));
  }
}

function toView(row: typeof operators.$inferSelect): OperatorView {
  return {
    id: row.id,
    email: row.email,
    role: isOperatorRole(row.role) ? row.role : 'support',
    disabled: row.disabledAt !== null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    passwordChangedAt: row.passwordChangedAt?.toISOString() ?? null,
  };
}
