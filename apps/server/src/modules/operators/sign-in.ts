import { randomBytes } from 'node:crypto';
import { rejected } from '@pipwise/domain';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { operators } from '../../db/schema.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import { addressKey, FailureLimiter, tooManyRequests } from '../../security/limiter.js';
import { hashPassword, verifyPassword } from '../../security/secrets.js';
import type { AuditService } from '../audit/service.js';
import type { OperatorTotp } from './credentials.js';
import type { OperatorSessions } from './sessions.js';
import { toView, type OperatorView } from './view.js';

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

/** Why a login failed, for the audit log only: the caller is told one thing for all of them. */
export type LoginFailure = 'unknown_email' | 'wrong_password' | 'disabled' | 'wrong_code' | 'replayed';

/** Proof of a solved captcha (the accounts' step-up), once an e-mail's logins need one. */
export interface StepUp {
  verify(id: string | undefined, answer: string | undefined): Promise<void>;
}

export interface OperatorSignInDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  /** The login's step-up; the command line, which never logs in, has none. */
  captcha?: StepUp | undefined;
}

/** A hash to compare against when the e-mail is unknown, so a wrong e-mail costs as long as a wrong password. */
const unknownOperatorHash = hashPassword(randomBytes(16).toString('hex'));

/** Operators' sign-in: password and TOTP, throttled per address and stepped up per e-mail; their own password change. */
export class OperatorSignIn {
  private readonly emailFailures: FailureLimiter;
  private readonly addressFailures: FailureLimiter;
  private readonly passwordFailures: FailureLimiter;

  constructor(
    private readonly deps: OperatorSignInDeps,
    private readonly totp: OperatorTotp,
    private readonly sessions: OperatorSessions,
  ) {
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
    const step = this.totp.acceptedStep(row, otp);
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
      const opened = await this.sessions.open(id, meta, tx);
      await this.deps.audit.record(
        { by: { actor: `operator:${email}`, id }, action: 'operator.login', targetType: 'operator', targetId: id, ip: meta.ip },
        tx,
      );
      return opened;
    });
    return { token, operator: { id, email, role } };
  }

  /** Forgets the login failures counted for an e-mail (its operator was reset). */
  async forgetFailures(email: string): Promise<void> {
    await this.emailFailures.reset([email.toLowerCase()]);
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
      await this.sessions.revokeOthers(tx, operator);
      await this.deps.audit.record(
        { by: operator, action: 'operator.password_change', targetType: 'operator', targetId: operator.id, ip },
        tx,
      );
    });
  }
}
