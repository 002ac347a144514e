import { randomBytes } from 'node:crypto';
import { rejected, type SessionView, type TLoginRequest } from '@pipwise/domain';
import { and, eq, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { areaCodes, users } from '../../db/schema.js';
import { translate } from '../../i18n/catalog.js';
import { addressKey, FailureLimiter, tooManyRequests } from '../../security/limiter.js';
import { hashPassword, verifyPassword } from '../../security/secrets.js';
import { phoneLoginCandidates } from './contact.js';
import type { AccountsCore, RequestMeta, UserRow } from './core.js';
import type { AccountSessions } from './sessions.js';

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

/** A password login to a real account, limited per account and address and stepped up per account. */
export class Login {
  /** Keyed by account and address. */
  private readonly addressFailures: FailureLimiter;
  /** Keyed by account. */
  private readonly accountFailures: FailureLimiter;
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly core: AccountsCore,
    private readonly sessions: AccountSessions,
  ) {
    const { db, clock } = core.deps;
    this.addressFailures = new FailureLimiter(db, clock, 'address', LOGIN_MAX_FAILURES, LOGIN_FAILURE_WINDOW_MS);
    this.accountFailures = new FailureLimiter(db, clock, 'account', LOGIN_CAPTCHA_AFTER, LOGIN_STEP_UP_WINDOW_MS);
  }

  private async candidates(account: string): Promise<UserRow[]> {
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
    const rows = await this.core.db
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
    const candidates = await this.candidates(account);
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
        await this.core.deps.captcha.verify(input.key, input.captcha);
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
    if (matched.lang !== meta.lang) await this.core.db.update(users).set({ lang: meta.lang }).where(eq(users.id, userId));
    const token = await this.sessions.openUnfrozen(userId, meta);
    return { token, user: await this.core.view(userId) };
  }

  /**
   * Once an account's logins need the captcha, its owner hears of it (once a day) in the language of
   * their last login, by e-mail or else by SMS: they learn their password is being guessed, and why the
   * captcha appears.
   */
  private async alertOwner(user: UserRow, meta: RequestMeta) {
    const now = this.core.now();
    // One conditional update decides, so of the processes that see one attack a single one sends.
    const [due] = await this.core.db
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
    // An account that has not logged in since languages were recorded has none: it is told in the
    // language the failing logins asked for, not the default one notifyUser would choose.
    const lang = user.lang ?? meta.lang;
    await this.core.notifyUser(user.id, () => ({
      subject: translate(lang, 'mail_login_alert_subject'),
      text: translate(lang, 'mail_login_alert_body', { count: LOGIN_CAPTCHA_AFTER, ip: meta.ip }),
    }));
  }
}
