import { AccountType, CodePurpose, conflict, rejected, type SessionView, type TRegisterRequest } from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { hashPassword } from '../../security/secrets.js';
import { addressKey, FailureLimiter, tooManyRequests } from '../../security/limiter.js';
import type { Channel } from './codes.js';
import type { AccountsCore, RequestMeta } from './core.js';
import type { AccountSessions } from './sessions.js';

/**
 * Unknown invite codes one address may try a day: registration tells an unknown code apart (the form
 * needs it), so without a budget it would be an oracle for which codes exist.
 */
export const INVITE_LOOKUP_MAX_MISSES = 10;
export const INVITE_LOOKUP_WINDOW_MS = 86_400_000;

/** A real account from a verification code: the user, their wallet and a session in one transaction. */
export class Registration {
  /** Keyed by address: unknown invite codes. */
  private readonly inviteMisses: FailureLimiter;

  constructor(
    private readonly core: AccountsCore,
    private readonly sessions: AccountSessions,
  ) {
    const { db, clock } = core.deps;
    this.inviteMisses = new FailureLimiter(db, clock, 'invite', INVITE_LOOKUP_MAX_MISSES, INVITE_LOOKUP_WINDOW_MS);
  }

  async register(input: TRegisterRequest, meta: RequestMeta): Promise<SessionView> {
    const { deps } = this.core;
    if (!(await deps.reference.allows(input.type))) throw rejected('register_type_disabled');
    const channel: Channel = input.type === AccountType.email ? 'email' : 'sms';
    const given = (input.type === AccountType.phone ? (input.mobile ?? input.account) : input.account) ?? '';
    const { target, find, email, phone } = await this.core.destination(channel, given, input.area_id, CodePurpose.register);
    await deps.reference.refuseRestricted(phone ? [input.country, ...phone.countries] : [input.country], meta.lang);
    if (input.risk_disclosure_version !== (await this.core.disclosureInForce())) throw rejected('risk_disclosure_outdated');
    if (await find()) throw conflict('account_exists');
    const invitedBy = input.invite_code ? await this.inviterOf(input.invite_code, meta) : null;
    const codeId = await deps.codes.check(target, input.sms_code, meta.ip);
    const passwordHash = await hashPassword(input.password);
    const { userId, token } = await this.core.db.transaction(async (tx) => {
      await deps.codes.consume(tx, codeId);
      const user = await this.core.insertUser(tx, {
        email,
        areaId: phone?.areaId ?? null,
        phone: phone?.national ?? null,
        passwordHash,
        isDemo: 0,
        invitedBy,
        lang: meta.lang,
        demoSecretHash: null,
        country: input.country,
        riskDisclosureVersion: input.risk_disclosure_version,
        riskDisclosureAcceptedAt: this.core.now(),
      });
      await deps.wallet.create(tx, user.id);
      return { userId: user.id, token: await this.sessions.create(tx, user.id, meta) };
    });
    return { token, user: await this.core.view(userId) };
  }

  /** The real account an invite code belongs to; each unknown code spends one of the address's tries. */
  private async inviterOf(inviteCode: string, meta: RequestMeta): Promise<number> {
    const address = [addressKey(meta.ip)];
    const counted = await this.inviteMisses.failIfRoom(address);
    if (!counted.counted) throw tooManyRequests(counted.blockedForMs);
    const [inviter] = await this.core.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.inviteCode, inviteCode.toUpperCase()), eq(users.isDemo, 0)))
      .limit(1);
    if (!inviter) throw rejected('invite_code_unknown');
    await this.inviteMisses.takeBack(address, counted.at);
    return inviter.id;
  }
}
