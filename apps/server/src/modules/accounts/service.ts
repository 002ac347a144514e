import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  AccountType,
  CODE_RESEND_SECONDS,
  CODE_TTL_SECONDS,
  CodePurpose,
  conflict,
  forbidden,
  invalid,
  notFound,
  rejected,
  resolveLanguage,
  type DemoSessionView,
  type InviteInfoView,
  type Language,
  type SessionView,
  type TAmendPasswordRequest,
  type TForgetPasswordRequest,
  type TLoginRequest,
  type TOwnCodeRequest,
  type TRegisterRequest,
  type TSendCodeRequest,
  type UserView,
} from '@pipwise/domain';
import type { FastifyBaseLogger } from 'fastify';
import { and, count, eq, gt, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import { areaCodes, sessions, users } from '../../db/schema.js';
import type { Principal } from '../../http/auth.js';
import { translate } from '../../i18n/catalog.js';
import type { EventBus } from '../../realtime/bus.js';
import type { WalletService } from '../wallet/service.js';
import type { CaptchaService } from './captcha.js';
import type { Channel, CodeTarget, VerificationCodes } from './codes.js';
import { maskedName, normaliseEmail, normalisePhone, phoneLoginCandidates, type Phone } from './contact.js';
import type { Mailer, SmsProvider } from './delivery.js';
import { addressKey, FailureLimiter, tooManyRequests } from './limiter.js';
import type { ReferenceService } from './reference.js';
import { hashPassword, newInviteCode, newSessionToken, newUid, sha256Hex, verifyPassword } from './secrets.js';
import { SessionCache } from './session-cache.js';

/** What other modules may show about a user to everyone (the leaderboard). */
export interface PublicProfile {
  uid: number;
  /** Masked: never the full e-mail address or phone number. */
  name: string;
  isDemo: boolean;
}

/** Who is asking: recorded on the session, and the language of mail and SMS texts. */
export interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
  lang: Language;
}

export interface AccountsServiceDeps {
  db: Db;
  clock: Clock;
  bus: EventBus;
  config: Config;
  log: FastifyBaseLogger;
  wallet: WalletService;
  reference: ReferenceService;
  codes: VerificationCodes;
  captcha: CaptchaService;
  mailer: Mailer;
  sms: SmsProvider;
}

export const hashToken = sha256Hex;

/**
 * Wrong passwords for one account from one address before that address is refused for the account
 * (429, Retry-After) until its oldest failure is this old. Other addresses, the owner's, still get in.
 */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/**
 * Wrong passwords for one account, from any address, after which its logins need a solved captcha for
 * the rest of the day, and its owner is told by mail (once a day).
 */
export const LOGIN_CAPTCHA_AFTER = 5;
export const LOGIN_STEP_UP_WINDOW_MS = 86_400_000;
/**
 * Unknown invite codes one address may try a day: registration tells an unknown code apart (the form
 * needs it), so without a budget it would be an oracle for which codes exist.
 */
export const INVITE_LOOKUP_MAX_MISSES = 10;
export const INVITE_LOOKUP_WINDOW_MS = 86_400_000;

const ID_COLLISION_RETRIES = 5;

type UserRow = typeof users.$inferSelect;

/** Name of the unique constraint a database error violated, if it is one (drizzle wraps driver errors). */
function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}

/**
 * Accounts and sessions: verification codes, registration, login, demo accounts, password changes.
 * Tokens are random, stored as sha256, revocable and expiring.
 */
export class AccountsService {
  /** Keyed by account and address. */
  private readonly addressFailures: FailureLimiter;
  /** Keyed by account. */
  private readonly accountFailures: FailureLimiter;
  /** Keyed by address: unknown invite codes. */
  private readonly inviteMisses: FailureLimiter;
  private dummyHash: Promise<string> | null = null;
  private readonly sessionCache: SessionCache;
  /** Every request of a session the cache does not hold runs it: built once, not per call. */
  private readonly liveSession;

  constructor(private readonly deps: AccountsServiceDeps) {
    this.addressFailures = new FailureLimiter(deps.db, deps.clock, 'address', LOGIN_MAX_FAILURES, LOGIN_FAILURE_WINDOW_MS);
    this.accountFailures = new FailureLimiter(deps.db, deps.clock, 'account', LOGIN_CAPTCHA_AFTER, LOGIN_STEP_UP_WINDOW_MS);
    this.inviteMisses = new FailureLimiter(deps.db, deps.clock, 'invite', INVITE_LOOKUP_MAX_MISSES, INVITE_LOOKUP_WINDOW_MS);
    this.sessionCache = new SessionCache(deps.clock);
    this.liveSession = deps.db
      .select({ sessionId: sessions.id, userId: sessions.userId, expiresAt: sessions.expiresAt, isDemo: users.isDemo })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, sql.placeholder('tokenHash')),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql.placeholder('now')),
        ),
      )
      .limit(1)
      .prepare('live_session');
    // Revocations made by other processes (through Redis); this process drops its own at once.
    deps.bus.subscribe('session.revoked', ({ sessionIds }) => this.sessionCache.dropSessions(sessionIds));
  }

  private get db() {
    return this.deps.db;
  }

  private now() {
    return this.deps.clock.now();
  }

  // ── sessions ─────────────────────────────────────────────────────────────────────────────────────

  resolveToken = async (token: string): Promise<Principal | null> => {
    const tokenHash = hashToken(token);
    const cached = this.sessionCache.get(tokenHash);
    if (cached) return cached;
    const epoch = this.sessionCache.epoch;
    const [row] = await this.liveSession.execute({ tokenHash, now: this.now() });
    if (!row) return null;
    const principal = { userId: row.userId, sessionId: row.sessionId, isDemo: row.isDemo === 1 };
    this.sessionCache.put(tokenHash, principal, row.expiresAt, epoch);
    return principal;
  };

  /** Logout: the token stops working at once, on HTTP and on every socket logged in with it. */
  revokeToken = async (token: string): Promise<void> => {
    const tokenHash = hashToken(token);
    const revoked = await this.db
      .update(sessions)
      .set({ revokedAt: this.now() })
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id, userId: sessions.userId });
    this.sessionCache.dropToken(tokenHash);
    const [first] = revoked;
    if (first) this.deps.bus.publish('session.revoked', { sessionIds: revoked.map((r) => r.id), userId: first.userId });
  };

  private async createSession(executor: Executor, userId: number, meta: RequestMeta): Promise<string> {
    const token = newSessionToken();
    const now = this.now();
    await executor.insert(sessions).values({
      userId,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.deps.config.sessionTtlDays * 86_400_000),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    });
    return token;
  }

  /**
   * A session for an account an operator has not frozen. The user row is share-locked until the session
   * is committed, so a freeze (which updates the row, then revokes the sessions) either comes first and
   * is seen here, or waits and then revokes this session too.
   */
  private async openUnfrozenSession(userId: number, meta: RequestMeta): Promise<string> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select({ frozen: users.loginFrozen }).from(users).where(eq(users.id, userId)).for('share');
      if (row?.frozen) throw forbidden('login_frozen');
      return this.createSession(tx, userId, meta);
    });
  }

  /** Revokes the user's live sessions (all, or all but one); the caller publishes once committed. */
  async revokeSessions(executor: Executor, userId: number, exceptSessionId?: number): Promise<number[]> {
    const rows = await executor
      .update(sessions)
      .set({ revokedAt: this.now() })
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          exceptSessionId === undefined ? undefined : ne(sessions.id, exceptSessionId),
        ),
      )
      .returning({ id: sessions.id });
    return rows.map((row) => row.id);
  }

  publishRevoked(userId: number, sessionIds: number[]) {
    this.sessionCache.dropSessions(sessionIds);
    if (sessionIds.length) this.deps.bus.publish('session.revoked', { sessionIds, userId });
  }

  // ── lookups ──────────────────────────────────────────────────────────────────────────────────────

  private async areaFor(areaId: number | undefined) {
    const area = areaId === undefined ? undefined : await this.deps.reference.areaById(areaId);
    if (!area) throw invalid('area_invalid');
    return area;
  }

  private async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    return row;
  }

  /** By number and dialling code, so areas sharing a code (+1: US, CA, …) share one number space. */
  private async findByPhone(phone: Phone): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select({ user: users })
      .from(users)
      .innerJoin(areaCodes, eq(areaCodes.id, users.areaId))
      .where(and(eq(users.phone, phone.national), eq(areaCodes.globalCode, phone.globalCode)))
      .limit(1);
    return row?.user;
  }

  /** Resolves an email / phone input to the code target and the account it belongs to, if any. */
  private async destination(channel: Channel, input: string, areaId: number | undefined, purpose: CodeTarget['purpose']) {
    if (channel === 'email') {
      const email = normaliseEmail(input);
      return { target: { channel, destination: email, purpose }, phone: null, email, find: () => this.findByEmail(email) };
    }
    const phone = normalisePhone(input, await this.areaFor(areaId));
    return { target: { channel, destination: phone.e164, purpose }, phone, email: null, find: () => this.findByPhone(phone) };
  }

  async view(userId: number, executor: Executor = this.db): Promise<UserView> {
    const [row] = await executor
      .select({ user: users, globalCode: areaCodes.globalCode })
      .from(users)
      .leftJoin(areaCodes, eq(areaCodes.id, users.areaId))
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) throw notFound('account_not_found');
    const [invited] = await executor.select({ n: count() }).from(users).where(eq(users.invitedBy, userId));
    const { user } = row;
    return {
      id: user.id,
      uid: user.uid,
      email: user.email ?? '',
      mobile: user.phone ?? '',
      area_code: user.phone ? (row.globalCode ?? '') : '',
      is_demo: user.isDemo === 1 ? 1 : 0,
      invite_code: user.inviteCode,
      invited_count: invited?.n ?? 0,
    };
  }

  /** Public profiles of these users; ids without a user are absent from the map. */
  async profiles(userIds: number[]): Promise<Map<number, PublicProfile>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: users.id, uid: users.uid, email: users.email, phone: users.phone, isDemo: users.isDemo })
      .from(users)
      .where(inArray(users.id, userIds));
    return new Map(rows.map((row) => [row.id, { uid: row.uid, name: maskedName(row), isDemo: row.isDemo === 1 }]));
  }

  /** Inserts a user with a fresh uid and invite code, drawing again on the rare collision. */
  private async insertUser(
    tx: Executor,
    values: Pick<
      typeof users.$inferInsert,
      'email' | 'areaId' | 'phone' | 'passwordHash' | 'isDemo' | 'invitedBy' | 'lang' | 'demoSecretHash'
    >,
  ): Promise<UserRow> {
    for (let attempt = 1; ; attempt++) {
      try {
        // A savepoint, so a collision does not abort the surrounding transaction.
        return await tx.transaction(async (savepoint) => {
          const [row] = await savepoint
            .insert(users)
            .values({ ...values, uid: newUid(), inviteCode: newInviteCode(), createdAt: this.now() })
            .returning();
          if (!row) throw new Error('user not stored');
          return row;
        });
      } catch (error) {
        const constraint = uniqueViolation(error);
        if (constraint === 'users_email_unique' || constraint === 'users_phone_unique') throw conflict('account_exists');
        const idCollision = constraint === 'users_uid_unique' || constraint === 'users_invite_code_unique';
        if (!idCollision || attempt >= ID_COLLISION_RETRIES) throw error;
      }
    }
  }

  // ── verification codes ───────────────────────────────────────────────────────────────────────────

  /**
   * Sends a register code only to an unregistered destination (saying so, which registration needs
   * anyway) and a reset code only to a registered one. A reset request for an unknown destination does
   * the same work (a code is stored, under the same minute and daily rules) but sends it to nobody, so
   * every answer of the reset form and of forget_password is the same with and without an account.
   */
  async sendCode(channel: Channel, input: TSendCodeRequest, meta: RequestMeta) {
    const answer = { resend_after: CODE_RESEND_SECONDS, expires_in: CODE_TTL_SECONDS };
    const { target, find, phone } = await this.destination(channel, input.to, input.area_id, input.type);
    // New accounts only: people who registered before the list changed still get their reset codes.
    if (phone && input.type === CodePurpose.register) await this.deps.reference.refuseRestricted(phone.countries, meta.lang);
    if (this.deps.config.captchaRequired) await this.deps.captcha.verify(input.key, input.captcha);
    const existing = await find();
    if (input.type === CodePurpose.register) {
      if (!(await this.deps.reference.allows(channel === 'email' ? AccountType.email : AccountType.phone))) {
        throw rejected('register_type_disabled');
      }
      if (existing) throw conflict('account_exists');
    } else if (!existing) {
      await this.deps.codes.issue({ ...target, userId: null });
      return answer;
    }
    await this.issueAndDeliver({ ...target, userId: existing?.id ?? null }, meta.lang);
    return answer;
  }

  /**
   * A password-change code to the signed-in user's own email or phone: the destination comes from the
   * account, never from the request, so no one can have a code sent to another person's contact.
   */
  async sendOwnCode(principal: Principal, input: TOwnCodeRequest, meta: RequestMeta) {
    const { target } = await this.ownContact(principal, input.type);
    if (this.deps.config.captchaRequired) await this.deps.captcha.verify(input.key, input.captcha);
    await this.issueAndDeliver(target, meta.lang);
    return { resend_after: CODE_RESEND_SECONDS, expires_in: CODE_TTL_SECONDS };
  }

  private async issueAndDeliver(target: CodeTarget, lang: Language) {
    const { id, code } = await this.deps.codes.issue(target);
    try {
      await this.deliver(target, code, lang);
    } catch (error) {
      await this.deps.codes.discard(id);
      this.deps.log.warn({ err: error, channel: target.channel }, 'verification code delivery failed');
      throw rejected('code_send_failed');
    }
  }

  private async deliver(target: CodeTarget, code: string, lang: Language) {
    const params = { code, minutes: CODE_TTL_SECONDS / 60 };
    if (target.channel === 'sms') {
      await this.deps.sms.send({ to: target.destination, text: translate(lang, 'sms_code_body', params) });
      return;
    }
    const subject = target.purpose === CodePurpose.register ? 'mail_register_subject' : 'mail_reset_subject';
    await this.deps.mailer.send({
      to: target.destination,
      subject: translate(lang, subject),
      text: translate(lang, 'mail_code_body', params),
    });
  }

  // ── registration and login ───────────────────────────────────────────────────────────────────────

  async register(input: TRegisterRequest, meta: RequestMeta): Promise<SessionView> {
    if (!(await this.deps.reference.allows(input.type))) throw rejected('register_type_disabled');
    const channel: Channel = input.type === AccountType.email ? 'email' : 'sms';
    const given = (input.type === AccountType.phone ? (input.mobile ?? input.account) : input.account) ?? '';
    const { target, find, email, phone } = await this.destination(channel, given, input.area_id, CodePurpose.register);
    if (phone) await this.deps.reference.refuseRestricted(phone.countries, meta.lang);
    if (await find()) throw conflict('account_exists');
    const invitedBy = input.invite_code ? await this.inviterOf(input.invite_code, meta) : null;
    const codeId = await this.deps.codes.check(target, input.sms_code, meta.ip);
    const passwordHash = await hashPassword(input.password);
    const { userId, token } = await this.db.transaction(async (tx) => {
      await this.deps.codes.consume(tx, codeId);
      const user = await this.insertUser(tx, {
        email,
        areaId: phone?.areaId ?? null,
        phone: phone?.national ?? null,
        passwordHash,
        isDemo: 0,
        invitedBy,
        lang: meta.lang,
        demoSecretHash: null,
      });
      await this.deps.wallet.create(tx, user.id);
      return { userId: user.id, token: await this.createSession(tx, user.id, meta) };
    });
    return { token, user: await this.view(userId) };
  }

  /** The real account an invite code belongs to; each unknown code spends one of the address's tries. */
  private async inviterOf(inviteCode: string, meta: RequestMeta): Promise<number> {
    const address = [addressKey(meta.ip)];
    const counted = await this.inviteMisses.failIfRoom(address);
    if (!counted.counted) throw tooManyRequests(counted.blockedForMs);
    const [inviter] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.inviteCode, inviteCode.toUpperCase()), eq(users.isDemo, 0)))
      .limit(1);
    if (!inviter) throw rejected('invite_code_unknown');
    await this.inviteMisses.takeBack(address, counted.at);
    return inviter.id;
  }

  private async loginCandidates(account: string): Promise<UserRow[]> {
    let match: SQL | undefined;
    if (account.includes('@')) {
      match = sql`lower(${users.email}) = ${account.toLowerCase()}`;
    } else {
      const options = phoneLoginCandidates(account).map((c) =>
        c.globalCode ? and(eq(users.phone, c.national), eq(areaCodes.globalCode, c.globalCode)) : eq(users.phone, c.national),
      );
      if (!options.length) return [];
      match = or(...options);
    }
    const rows = await this.db
      .select({ user: users })
      .from(users)
      .leftJoin(areaCodes, eq(areaCodes.id, users.areaId))
      .where(and(match, eq(users.isDemo, 0), isNotNull(users.passwordHash)))
      .orderBy(users.id)
      .limit(5);
    return rows.map((row) => row.user);
  }

  /** A hash to verify against when no account matched, so both failures cost the same time. */
  private decoyHash() {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }

  /**
   * One message for an unknown account and a wrong password. Wrong passwords are limited per account
   * and address (that address gets 429 with Retry-After, the owner elsewhere does not) and, past a few
   * for the account from anywhere, its logins need a captcha and the owner is told by mail.
   */
  async login(input: TLoginRequest, meta: RequestMeta): Promise<SessionView> {
    const account = input.account.trim();
    const accountKey = `account:${account.includes('@') ? account.toLowerCase() : account.replace(/\D/g, '')}`;
    const candidates = await this.loginCandidates(account);
    // An account can be spelled several ways (phone formats): the users it matches count as well.
    const keys = [accountKey, ...candidates.map((c) => `user:${c.id}`)];
    const address = addressKey(meta.ip);
    const addressKeys = keys.map((key) => `${key}@${address}`);
    // Each try is counted as failed before the (slow) hash check, and taken back on success: the limits
    // decide as they count, so tries sent in parallel, to any process, cannot all pass them.
    const fromAddress = await this.addressFailures.failIfRoom(addressKeys);
    if (!fromAddress.counted) throw tooManyRequests(fromAddress.blockedForMs);
    let forAccount = await this.accountFailures.failIfRoom(keys);
    if (!forAccount.counted) {
      // Stepped up: no password is tried without a solved captcha.
      try {
        await this.deps.captcha.verify(input.key, input.captcha);
      } catch (error) {
        await this.addressFailures.takeBack(addressKeys, fromAddress.at);
        throw error;
      }
      forAccount = await this.accountFailures.fail(keys);
    }
    let matched: UserRow | undefined;
    if (!candidates.length) await verifyPassword(input.password, await this.decoyHash());
    for (const candidate of candidates) {
      if (candidate.passwordHash && (await verifyPassword(input.password, candidate.passwordHash))) {
        matched = candidate;
        break;
      }
    }
    if (!matched) {
      for (const candidate of candidates) {
        const failures = forAccount.counts.get(`user:${candidate.id}`) ?? 0;
        if (failures >= LOGIN_CAPTCHA_AFTER) await this.alertOwner(candidate, meta);
      }
      throw rejected('login_failed');
    }
    await this.addressFailures.reset(addressKeys);
    await this.accountFailures.takeBack(keys, forAccount.at);
    const userId = matched.id;
    if (matched.lang !== meta.lang) await this.db.update(users).set({ lang: meta.lang }).where(eq(users.id, userId));
    const token = await this.openUnfrozenSession(userId, meta);
    return { token, user: await this.view(userId) };
  }

  /**
   * Tells a user something about their account (a security notice), in the language of their last
   * login: by e-mail, or else by SMS. `compose` writes the message in that language. Delivery failures
   * are logged, not thrown: the change the notice is about has already happened.
   */
  async notifyUser(userId: number, compose: (lang: Language) => { subject: string; text: string }) {
    const [user] = await this.db
      .select({ email: users.email, phone: users.phone, areaId: users.areaId, lang: users.lang })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!user) return;
    const { subject, text } = compose(resolveLanguage(user.lang));
    try {
      if (user.email) {
        await this.deps.mailer.send({ to: user.email, subject, text });
      } else if (user.phone && user.areaId !== null) {
        const area = await this.deps.reference.areaById(user.areaId);
        if (area) await this.deps.sms.send({ to: `${area.globalCode}${user.phone}`, text });
      }
    } catch (error) {
      this.deps.log.warn({ err: error, userId }, 'account notice delivery failed');
    }
  }

  /**
   * Once an account's logins need the captcha, its owner hears of it (once a day) in the language of
   * their last login, by e-mail or else by SMS: they learn their password is being guessed, and why the
   * captcha appears.
   */
  private async alertOwner(user: UserRow, meta: RequestMeta) {
    const now = this.now();
    // One conditional update decides, so of the processes that see one attack a single one sends.
    const [due] = await this.db
      .update(users)
      .set({ loginAlertAt: now })
      .where(
        and(
          eq(users.id, user.id),
          or(isNull(users.loginAlertAt), lte(users.loginAlertAt, new Date(now.getTime() - LOGIN_STEP_UP_WINDOW_MS))),
        ),
      )
      .returning({ id: users.id });
    if (!due) return;
    const lang = user.lang ?? meta.lang;
    const text = translate(lang, 'mail_login_alert_body', { count: LOGIN_CAPTCHA_AFTER, ip: meta.ip });
    try {
      if (user.email) {
        await this.deps.mailer.send({ to: user.email, subject: translate(lang, 'mail_login_alert_subject'), text });
      } else if (user.phone && user.areaId !== null) {
        const area = await this.deps.reference.areaById(user.areaId);
        if (area) await this.deps.sms.send({ to: `${area.globalCode}${user.phone}`, text });
      }
    } catch (error) {
      this.deps.log.warn({ err: error, userId: user.id }, 'login alert delivery failed');
    }
  }

  /**
   * A new demo account credited with the demo starting balance (a ledger row) and a secret for the
   * device to keep, or — with `demo.id`, the uid of a demo account, and that secret — a new session of
   * that account. The uid is public (the leaderboard shows it), so it never logs in alone; accounts made
   * before the secret existed have none and cannot be re-entered. Never opens a real account.
   */
  async demo(demo: { id: string; secret: string } | undefined, meta: RequestMeta): Promise<DemoSessionView> {
    if (demo !== undefined) {
      const [existing] = await this.db
        .select({ id: users.id, secretHash: users.demoSecretHash })
        .from(users)
        .where(and(eq(users.uid, Number(demo.id)), eq(users.isDemo, 1)))
        .limit(1);
      const given = Buffer.from(hashToken(demo.secret), 'hex');
      const stored = Buffer.from(existing?.secretHash ?? '', 'hex');
      if (!existing || given.length !== stored.length || !timingSafeEqual(given, stored)) throw notFound('demo_not_found');
      const token = await this.openUnfrozenSession(existing.id, meta);
      return { token, user: await this.view(existing.id) };
    }
    const startBalance = await this.deps.reference.get('demo_start_balance');
    const secret = newSessionToken();
    const { userId, token } = await this.db.transaction(async (tx) => {
      const user = await this.insertUser(tx, {
        email: null,
        areaId: null,
        phone: null,
        passwordHash: null,
        isDemo: 1,
        invitedBy: null,
        lang: meta.lang,
        demoSecretHash: hashToken(secret),
      });
      await this.deps.wallet.create(tx, user.id);
      await this.deps.wallet.post(tx, { userId: user.id, amount: startBalance, type: 'demo_grant' });
      return { userId: user.id, token: await this.createSession(tx, user.id, meta) };
    });
    return { token, user: await this.view(userId), demo_secret: secret };
  }

  // ── passwords ────────────────────────────────────────────────────────────────────────────────────

  /**
   * A real account's own email (type 1) or phone (type 2) as a reset-code target; without a type, the
   * email when there is one.
   */
  private async ownContact(principal: Principal, type: number | undefined) {
    if (principal.isDemo) throw forbidden('demo_not_allowed');
    const [row] = await this.db
      .select({ user: users, globalCode: areaCodes.globalCode })
      .from(users)
      .leftJoin(areaCodes, eq(areaCodes.id, users.areaId))
      .where(eq(users.id, principal.userId))
      .limit(1);
    if (!row) throw notFound('account_not_found');
    const { user, globalCode } = row;
    const channel: Channel =
      (type ?? (user.email ? AccountType.email : AccountType.phone)) === AccountType.email ? 'email' : 'sms';
    const destination = channel === 'email' ? user.email : user.phone && globalCode ? `${globalCode}${user.phone}` : null;
    if (!destination) throw rejected('contact_missing');
    const target: CodeTarget = { channel, destination, purpose: CodePurpose.reset, userId: user.id };
    return { user, target };
  }

  /** The invite link's code and how many registered with it; real accounts only (docs/api.md). */
  async inviteInfo(principal: Principal): Promise<InviteInfoView> {
    if (principal.isDemo) throw forbidden('demo_not_allowed');
    const { invite_code, invited_count } = await this.view(principal.userId);
    return { invite_code, invited_count };
  }

  /** Needs a reset code sent to the user's own email (type 1) or phone (type 2); other sessions end. */
  async amendPassword(principal: Principal, input: TAmendPasswordRequest, meta: RequestMeta): Promise<void> {
    const { user, target } = await this.ownContact(principal, input.type);
    const codeId = await this.deps.codes.check(target, input.auth_code, meta.ip);
    const passwordHash = await hashPassword(input.new_password);
    const revoked = await this.db.transaction(async (tx) => {
      await this.deps.codes.consume(tx, codeId);
      await tx.update(users).set({ passwordHash, passwordChangedAt: this.now() }).where(eq(users.id, user.id));
      return this.revokeSessions(tx, user.id, principal.sessionId);
    });
    this.publishRevoked(user.id, revoked);
  }

  /** Resets the password with a code sent to the account's email or phone; every session ends. */
  async forgetPassword(input: TForgetPasswordRequest, meta: RequestMeta): Promise<void> {
    const channel: Channel = input.type === AccountType.email ? 'email' : 'sms';
    const { target, find } = await this.destination(channel, input.account, input.area_id, CodePurpose.reset);
    const user = await find();
    // An unknown destination's code (see sendCode) was sent to nobody: its checks answer as a known
    // one's do, and one guessed by chance is only a wrong code.
    const codeId = await this.deps.codes.check({ ...target, userId: user?.id ?? null }, input.auth_code, meta.ip);
    if (!user || user.isDemo === 1) throw rejected('code_incorrect');
    const passwordHash = await hashPassword(input.new_password);
    const revoked = await this.db.transaction(async (tx) => {
      await this.deps.codes.consume(tx, codeId);
      await tx.update(users).set({ passwordHash, passwordChangedAt: this.now() }).where(eq(users.id, user.id));
      return this.revokeSessions(tx, user.id);
    });
    this.publishRevoked(user.id, revoked);
  }
}
