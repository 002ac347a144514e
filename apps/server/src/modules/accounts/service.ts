import type {
  DemoSessionView,
  InviteInfoView,
  Language,
  TAcceptDisclosureRequest,
  SessionView,
  TAmendPasswordRequest,
  TForgetPasswordRequest,
  TLoginRequest,
  TOwnCodeRequest,
  TRegisterRequest,
  TSendCodeRequest,
  UserView,
} from '@pipwise/domain';
import type { Executor } from '../../db/client.js';
import type { Principal } from '../../http/auth.js';
import { CodeRequests } from './code-requests.js';
import type { Channel } from './codes.js';
import { AccountsCore, type AccountsServiceDeps, type PublicProfile, type RequestMeta } from './core.js';
import { DemoAccounts, type DemoKey } from './demo.js';
import { RiskDisclosure } from './disclosure.js';
import { Login } from './login.js';
import { Passwords } from './passwords.js';
import { Registration } from './registration.js';
import { AccountSessions } from './sessions.js';

export type { PublicProfile, RequestMeta } from './core.js';
export { LOGIN_CAPTCHA_AFTER, LOGIN_FAILURE_WINDOW_MS, LOGIN_MAX_FAILURES, LOGIN_STEP_UP_WINDOW_MS } from './login.js';
export { INVITE_LOOKUP_MAX_MISSES } from './registration.js';
export { hashToken } from './sessions.js';

/**
 * Accounts and sessions, composed of one part per concern: sessions (`sessions.ts`), verification-code
 * requests (`code-requests.ts`), registration (`registration.ts`), login (`login.ts`), demo accounts
 * (`demo.ts`), password changes (`passwords.ts`) and the risk disclosure (`disclosure.ts`), on what they share (`core.ts`: finding, making and
 * showing users, and telling them about their account).
 */
export class AccountsService {
  private readonly core: AccountsCore;
  private readonly sessions: AccountSessions;
  private readonly codeRequests: CodeRequests;
  private readonly registration: Registration;
  private readonly logins: Login;
  private readonly demoAccounts: DemoAccounts;
  private readonly passwords: Passwords;
  private readonly disclosure: RiskDisclosure;
  /** Handed to other modules as plain functions, so bound here. */
  readonly resolveToken: AccountSessions['resolveToken'];
  readonly revokeToken: AccountSessions['revokeToken'];
  /** Trading asks it before every new order. */
  readonly refuseUntilDisclosureAccepted: RiskDisclosure['refuseUntilAccepted'];
  readonly rememberDisclosures: RiskDisclosure['remember'];

  constructor(deps: AccountsServiceDeps) {
    this.core = new AccountsCore(deps);
    this.sessions = new AccountSessions(deps);
    this.codeRequests = new CodeRequests(this.core);
    this.registration = new Registration(this.core, this.sessions);
    this.logins = new Login(this.core, this.sessions);
    this.demoAccounts = new DemoAccounts(this.core, this.sessions);
    this.passwords = new Passwords(this.core, this.sessions);
    this.disclosure = new RiskDisclosure(this.core);
    this.refuseUntilDisclosureAccepted = this.disclosure.refuseUntilAccepted;
    this.rememberDisclosures = this.disclosure.remember;
    this.resolveToken = this.sessions.resolveToken;
    this.revokeToken = this.sessions.revokeToken;
  }

  /** Revokes the user's live sessions (all, or all but one); the caller publishes once committed. */
  revokeSessions(executor: Executor, userId: number, exceptSessionId?: number): Promise<number[]> {
    return this.sessions.revokeSessions(executor, userId, exceptSessionId);
  }

  publishRevoked(userId: number, sessionIds: number[]) {
    this.sessions.publishRevoked(userId, sessionIds);
  }

  view(userId: number, executor?: Executor): Promise<UserView> {
    return this.core.view(userId, executor);
  }

  /** Public profiles of these users; ids without a user are absent from the map. */
  profiles(userIds: number[]): Promise<Map<number, PublicProfile>> {
    return this.core.profiles(userIds);
  }

  inviteInfo(principal: Principal): Promise<InviteInfoView> {
    return this.core.inviteInfo(principal);
  }

  /** A security notice to the user, by e-mail or else SMS; delivery failures are logged, not thrown. */
  notifyUser(userId: number, compose: (lang: Language) => { subject: string; text: string }): Promise<void> {
    return this.core.notifyUser(userId, compose);
  }

  sendCode(channel: Channel, input: TSendCodeRequest, meta: RequestMeta) {
    return this.codeRequests.sendCode(channel, input, meta);
  }

  sendOwnCode(principal: Principal, input: TOwnCodeRequest, meta: RequestMeta) {
    return this.codeRequests.sendOwnCode(principal, input, meta);
  }

  register(input: TRegisterRequest, meta: RequestMeta): Promise<SessionView> {
    return this.registration.register(input, meta);
  }

  login(input: TLoginRequest, meta: RequestMeta): Promise<SessionView> {
    return this.logins.login(input, meta);
  }

  demo(demo: DemoKey | undefined, meta: RequestMeta): Promise<DemoSessionView> {
    return this.demoAccounts.demo(demo, meta);
  }

  switchToDemo(principal: Principal, deviceKey: DemoKey | undefined, meta: RequestMeta): Promise<DemoSessionView> {
    return this.demoAccounts.switchToDemo(principal, deviceKey, meta);
  }

  acceptDisclosure(principal: Principal, input: TAcceptDisclosureRequest): Promise<UserView> {
    return this.disclosure.accept(principal, input);
  }

  amendPassword(principal: Principal, input: TAmendPasswordRequest, meta: RequestMeta): Promise<void> {
    return this.passwords.amendPassword(principal, input, meta);
  }

  forgetPassword(input: TForgetPasswordRequest, meta: RequestMeta): Promise<void> {
    return this.passwords.forgetPassword(input, meta);
  }
}
