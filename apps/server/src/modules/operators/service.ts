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
import { addressKey, FailureLimiter, tooManyRequests } from '../accounts/limiter.js';
import { hashPassword, sha256Hex, verifyPassword } from '../accounts/secrets.js';
import type { AuditActor, AuditService } from '../audit/service.js';

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
 * Wrong tries lock an operator's e-mail for a while, from anywhere: an operator account opens money.
 * Not for the operator at an address they have signed in from lately, so whoever knows the address
 * cannot keep them out of the back office by failing on purpose.
 */
export const OPERATOR_LOGIN_MAX_FAILURES = 5;
export const OPERATOR_KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;
/** One address may miss a little more often, across every e-mail it tries. */
export const OPERATOR_ADDRESS_MAX_FAILURES = 20;
export const OPERATOR_LOGIN_WINDOW_MS = 15 * 60_000;
export const OPERATOR_PASSWORD_MIN_LENGTH = 12;

/** Why a login failed, for the audit log only: the caller is told one thing for all of them. */
export type LoginFailure = 'unknown_email' | 'wrong_password' | 'disabled' | 'wrong_code' | 'replayed';

/** Serialises changes to operators' roles and enablement, so two changes never both leave no superadmin. */
const OPERATORS_CHANGE_LOCK = 0x6f706572; // "oper"

/** What the command line prints and the superadmin is shown once: the only time password and secret are seen. */
export interface OperatorEnrolment {
  email: string;
  role: OperatorRole;
  password: string;
  otpauth: string;
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

  constructor(private readonly deps: { db: Db; clock: Clock; config: Config; audit: AuditService }) {
    this.totpKey = deriveKey(deps.config, 'operator-totp');
    const { db, clock } = deps;
    this.emailFailures = new FailureLimiter(db, clock, 'operator', OPERATOR_LOGIN_MAX_FAILURES, OPERATOR_LOGIN_WINDOW_MS);
    this.addressFailures = new FailureLimiter(
      db,
      clock,
      'operator-address',
      OPERATOR_ADDRESS_MAX_FAILURES,
      OPERATOR_LOGIN_WINDOW_MS,
    );
  }

  /** A new operator, not audited: the callers that audit use `add`; tests make their operators with it. */
  async create(
    input: { email: string; role: OperatorRole; createdBy: string },
    executor: Executor = this.deps.db,
  ): Promise<OperatorEnrolment> {
    const email = input.email.trim();
    const password = newOperatorPassword();
    const secret = new OTPAuth.Secret({ size: 20 });
    const inserted = await executor
      .insert(operators)
      .values({
        email,
        role: input.role,
        passwordHash: await hashPassword(password),
        totpSecretSealed: seal(this.totpKey, sealContext(email), secret.base32),
        createdBy: input.createdBy,
      })
      .onConflictDoNothing()
      .returning({ id: operators.id });
    if (inserted.length === 0) throw rejected('operator_email_taken');
    return { email, role: input.role, password, otpauth: totpFor(email, secret).toString() };
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
    const secret = OTPAuth.Secret.fromBase32(unseal(this.totpKey, sealContext(row.email), row.totpSecretSealed));
    const now = this.deps.clock.now().getTime();
    const delta = /^\d{6}$/.test(otp)
      ? totpFor(row.email, secret).validate({ token: otp, timestamp: now, window: TOTP_WINDOW })
      : null;
    if (delta === null) return { failure: 'wrong_code', operatorId: row.id };
    const step = Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
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
   * A login, throttled per e-mail (from anywhere but the operator's recent addresses) and per address
   * (over every e-mail it tries). Each try is counted as failed before the slow checks and taken back on
   * success, so tries sent in parallel, to any process, cannot pass the limits together. Failures are
   * audited with their reason (never the password); a try refused by the limits is not, so a flood
   * cannot fill the log.
   */
  async login(
    input: { email: string; password: string; otp: string },
    meta: { ip: string; userAgent: string | null },
  ): Promise<{ token: string; operator: Pick<OperatorView, 'id' | 'email' | 'role'> }> {
    const emailKeys = [input.email.trim().toLowerCase()];
    const addressKeys = [addressKey(meta.ip)];
    const fromAddress = await this.addressFailures.failIfRoom(addressKeys);
    if (!fromAddress.counted) throw tooManyRequests(fromAddress.blockedForMs, 'operator_login_throttled');
    const forEmail = await this.emailFailures.failIfRoom(emailKeys);
    if (!forEmail.counted && !(await this.signedInFrom(emailKeys[0]!, meta.ip))) {
      await this.addressFailures.takeBack(addressKeys, fromAddress.at);
      throw tooManyRequests(forEmail.blockedForMs, 'operator_login_throttled');
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
      throw rejected(result.failure === 'replayed' ? 'operator_otp_replayed' : 'operator_login_failed');
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

  /** Whether the operator with this e-mail opened a session from this address within the last 30 days. */
  private async signedInFrom(email: string, ip: string): Promise<boolean> {
    const since = new Date(this.deps.clock.now().getTime() - OPERATOR_KNOWN_ADDRESS_MS);
    const [known] = await this.deps.db
      .select({ id: operatorSessions.id })
      .from(operatorSessions)
      .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
      .where(and(eq(sql`lower(${operators.email})`, email), eq(operatorSessions.ip, ip), gt(operatorSessions.createdAt, since)))
      .limit(1);
    return known !== undefined;
  }

  /** The operator's own password: the current one first (counted like a login failure when wrong); ends their other sessions. */
  async changePassword(operator: OperatorPrincipal, current: string, password: string, ip: string | null): Promise<void> {
    const keys = [operator.email.toLowerCase()];
    const counted = await this.emailFailures.failIfRoom(keys);
    if (!counted.counted) throw tooManyRequests(counted.blockedForMs, 'operator_login_throttled');
    const [row] = await this.deps.db
      .select({ passwordHash: operators.passwordHash })
      .from(operators)
      .where(eq(operators.id, operator.id));
    if (!row || !(await verifyPassword(current, row.passwordHash))) throw rejected('operator_password_wrong');
    await this.emailFailures.takeBack(keys, counted.at);
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

  /** A new operator, audited with who made it (a superadmin, the command line, the first start). */
  async add(input: { email: string; role: OperatorRole }, by: AuditActor, ip: string | null = null): Promise<OperatorEnrolment> {
    return this.change(by, async (tx) => {
      const enrolment = await this.create({ ...input, createdBy: by.actor }, tx);
      const [row] = await tx
        .select({ id: operators.id })
        .from(operators)
        .where(eq(sql`lower(${operators.email})`, enrolment.email.toLowerCase()));
      await this.deps.audit.record(
        {
          by,
          action: 'operator.create',
          targetType: 'operator',
          targetId: row!.id,
          after: { email: enrolment.email, role: enrolment.role },
          ip,
        },
        tx,
      );
      return enrolment;
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
   * A new password and a new TOTP secret (a lost phone, a leaked password); ends every session. The
   * last accepted step starts over: the new secret's codes have never been used.
   */
  async reset(id: number, by: AuditActor, ip: string | null = null): Promise<OperatorEnrolment> {
    return this.change(by, async (tx) => {
      const target = await this.target(tx, id);
      const role = isOperatorRole(target.role) ? target.role : 'support';
      const password = newOperatorPassword();
      const secret = new OTPAuth.Secret({ size: 20 });
      await tx
        .update(operators)
        .set({
          passwordHash: await hashPassword(password),
          totpSecretSealed: seal(this.totpKey, sealContext(target.email), secret.base32),
          lastOtpStep: 0,
          passwordChangedAt: null,
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
      return { email: target.email, role, password, otpauth: totpFor(target.email, secret).toString() };
    });
  }

  /** Changes a role; a superadmin cannot demote themself, and the last enabled superadmin stays one. */
  async setRole(id: number, role: OperatorRole, by: AuditActor, ip: string | null = null): Promise<OperatorView> {
    return this.change(by, async (tx) => {
      const target = await this.target(tx, id);
      if (target.role === role) return toView(target);
      if (by.id === id) throw rejected('operator_cannot_change_self');
      if (target.role === 'superadmin' && !target.disabledAt) await this.keepASuperadmin(tx, id);
      const [row] = await tx.update(operators).set({ role }).where(eq(operators.id, id)).returning();
      await this.deps.audit.record(
        { by, action: 'operator.role', targetType: 'operator', targetId: id, before: { role: target.role }, after: { role }, ip },
        tx,
      );
      return toView(row!);
    });
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
