import type { OperatorRole } from '@pipwise/domain';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import type { AuditActor, AuditService } from '../audit/service.js';
import type { ApprovalsService, PendingChangeRow } from './approvals.js';
import { OperatorTotp } from './credentials.js';
import { OperatorEnrolments, type EnrolmentStart, type OperatorEnrolment } from './enrolment.js';
import { OperatorManagement } from './management.js';
import { OperatorSessions, type OperatorSessionView } from './sessions.js';
import { OperatorSignIn, type StepUp } from './sign-in.js';
import type { OperatorView } from './view.js';

export { OPERATOR_PASSWORD_MIN_LENGTH } from './credentials.js';
export { OPERATOR_ENROLMENT_TTL_MS, type OperatorEnrolment } from './enrolment.js';
export { OPERATOR_ADDRESS_MAX_FAILURES, OPERATOR_CAPTCHA_AFTER } from './sign-in.js';
export type { OperatorView } from './view.js';

/**
 * Operators' accounts and sessions, composed of one part per concern: sign-in (`sign-in.ts`: password,
 * TOTP, limits, the own password change), sessions (`sessions.ts`), enrolment (`enrolment.ts`: new
 * operators and their one-time links) and management (`management.ts`: adding, roles, disabling,
 * resets), on the TOTP secrets they share (`credentials.ts`). Passwords are scrypt hashes, TOTP secrets
 * are sealed with a key derived from the app secret, tokens are stored as sha256 only.
 */
export class OperatorsService {
  private readonly sessionStore: OperatorSessions;
  private readonly signIn: OperatorSignIn;
  private readonly enrolments: OperatorEnrolments;
  private readonly management: OperatorManagement;
  /** Handed to the HTTP layer as a plain function, so bound here. */
  readonly resolve: OperatorSessions['resolve'];

  constructor(deps: {
    db: Db;
    clock: Clock;
    config: Config;
    audit: AuditService;
    /** The login's step-up; the command line, which never logs in, has none. */
    captcha?: StepUp;
    /** Where a new operator or a raised role waits for a second superadmin; the command line acts alone. */
    approvals?: ApprovalsService;
  }) {
    const totp = new OperatorTotp(deps.config, deps.clock);
    this.sessionStore = new OperatorSessions(deps);
    this.signIn = new OperatorSignIn(deps, totp, this.sessionStore);
    this.enrolments = new OperatorEnrolments(deps, totp, this.sessionStore);
    this.management = new OperatorManagement(deps, {
      totp,
      sessions: this.sessionStore,
      enrolments: this.enrolments,
      signIn: this.signIn,
    });
    this.resolve = this.sessionStore.resolve;
  }

  // ── sign-in and sessions ─────────────────────────────────────────────────────────────────────────

  login(
    input: { email: string; password: string; otp: string; key?: string | undefined; captcha?: string | undefined },
    meta: { ip: string; userAgent: string | null },
  ): Promise<{ token: string; operator: Pick<OperatorView, 'id' | 'email' | 'role'> }> {
    return this.signIn.login(input, meta);
  }

  changePassword(operator: OperatorPrincipal, current: string, password: string, ip: string | null): Promise<void> {
    return this.signIn.changePassword(operator, current, password, ip);
  }

  openSession(operatorId: number, meta: { ip: string | null; userAgent: string | null }, executor?: Executor): Promise<string> {
    return this.sessionStore.open(operatorId, meta, executor);
  }

  sessions(operator: OperatorPrincipal): Promise<OperatorSessionView[]> {
    return this.sessionStore.list(operator);
  }

  revokeOwnSession(operator: OperatorPrincipal, sessionId: number, ip: string | null): Promise<void> {
    return this.sessionStore.revokeOwn(operator, sessionId, ip);
  }

  logout(operator: OperatorPrincipal, ip: string | null): Promise<void> {
    return this.sessionStore.logout(operator, ip);
  }

  revokeAllSessions(operatorId: number, executor?: Executor): Promise<void> {
    return this.sessionStore.revokeAll(operatorId, executor);
  }

  // ── enrolment ────────────────────────────────────────────────────────────────────────────────────

  create(
    input: { email: string; role: OperatorRole; createdBy: string; createdById?: number | null; enrolledById?: number | null },
    executor?: Executor,
  ): Promise<OperatorEnrolment & { id: number }> {
    return this.enrolments.create(input, executor);
  }

  beginEnrolment(token: string): Promise<EnrolmentStart> {
    return this.enrolments.begin(token);
  }

  finishEnrolment(
    input: { token: string; password: string; otp: string },
    meta: { ip: string; userAgent: string | null },
  ): Promise<{ token: string; operator: Pick<OperatorView, 'id' | 'email' | 'role'> }> {
    return this.enrolments.finish(input, meta);
  }

  waitingFirstOperator(email: string): Promise<number | null> {
    return this.enrolments.waitingFirstOperator(email);
  }

  // ── management ───────────────────────────────────────────────────────────────────────────────────

  count(): Promise<number> {
    return this.management.count();
  }

  list(): Promise<OperatorView[]> {
    return this.management.list();
  }

  find(email: string): Promise<OperatorView | null> {
    return this.management.find(email);
  }

  add(
    input: { email: string; role: OperatorRole },
    by: AuditActor & { ip?: string | null },
    ip?: string | null,
  ): Promise<OperatorEnrolment | { pending: PendingChangeRow }> {
    return this.management.add(input, by, ip);
  }

  registerChangeKinds(approvals: ApprovalsService) {
    this.management.registerChangeKinds(approvals);
  }

  disable(id: number, by: AuditActor, ip?: string | null): Promise<OperatorView> {
    return this.management.disable(id, by, ip);
  }

  enable(
    id: number,
    by: AuditActor & { ip?: string | null },
    ip?: string | null,
  ): Promise<OperatorView | { pending: PendingChangeRow }> {
    return this.management.enable(id, by, ip);
  }

  reset(id: number, by: AuditActor, ip?: string | null): Promise<OperatorEnrolment> {
    return this.management.reset(id, by, ip);
  }

  setRole(
    id: number,
    role: OperatorRole,
    by: AuditActor & { ip?: string | null },
    ip?: string | null,
  ): Promise<OperatorView | { pending: PendingChangeRow }> {
    return this.management.setRole(id, role, by, ip);
  }
}
