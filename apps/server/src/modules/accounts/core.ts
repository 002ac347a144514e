import {
  AccountType,
  CodePurpose,
  conflict,
  forbidden,
  invalid,
  notFound,
  rejected,
  resolveLanguage,
  type InviteInfoView,
  type Language,
  type UserView,
} from '@pipwise/domain';
import type { FastifyBaseLogger } from 'fastify';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import { areaCodes, users } from '../../db/schema.js';
import type { Principal } from '../../http/auth.js';
import type { EventBus } from '../../realtime/bus.js';
import type { WalletService } from '../wallet/service.js';
import type { CaptchaService } from './captcha.js';
import type { Channel, CodeTarget, VerificationCodes } from './codes.js';
import { maskedName, normaliseEmail, normalisePhone, type Phone } from './contact.js';
import type { Mailer, SmsProvider } from './delivery.js';
import { newInviteCode, newUid } from './identifiers.js';
import type { ReferenceService } from './reference.js';

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

export type UserRow = typeof users.$inferSelect;

const ID_COLLISION_RETRIES = 5;

/** A demo account was linked to the same real account by a request that ran alongside this one. */
export class DemoAlreadyLinked extends Error {}

/** Name of the unique constraint a database error violated, if it is one (drizzle wraps driver errors). */
export function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}

/**
 * What the parts of the accounts service share: its dependencies, finding users by their contact,
 * making them, what they look like to themselves and to others, and telling them about their account.
 */
export class AccountsCore {
  constructor(readonly deps: AccountsServiceDeps) {}

  get db() {
    return this.deps.db;
  }

  now() {
    return this.deps.clock.now();
  }

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
  async destination(channel: Channel, input: string, areaId: number | undefined, purpose: CodeTarget['purpose']) {
    if (channel === 'email') {
      const email = normaliseEmail(input);
      return { target: { channel, destination: email, purpose }, phone: null, email, find: () => this.findByEmail(email) };
    }
    const phone = normalisePhone(input, await this.areaFor(areaId));
    return { target: { channel, destination: phone.e164, purpose }, phone, email: null, find: () => this.findByPhone(phone) };
  }

  /**
   * A real account's own email (type 1) or phone (type 2) as a reset-code target; without a type, the
   * email when there is one.
   */
  async ownContact(principal: Principal, type: number | undefined) {
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

  /** Setting `risk_disclosure_version`: the risk disclosure real accounts must have accepted to trade. */
  async disclosureInForce(): Promise<number> {
    return Number(await this.deps.reference.get('risk_disclosure_version'));
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
      country: user.country ?? '',
      risk_disclosure_version: user.riskDisclosureVersion,
      risk_disclosure_due: user.isDemo !== 1 && (user.riskDisclosureVersion ?? 0) < (await this.disclosureInForce()) ? 1 : 0,
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

  /** The invite link's code and how many registered with it; real accounts only (docs/api.md). */
  async inviteInfo(principal: Principal): Promise<InviteInfoView> {
    if (principal.isDemo) throw forbidden('demo_not_allowed');
    const { invite_code, invited_count } = await this.view(principal.userId);
    return { invite_code, invited_count };
  }

  /** Inserts a user with a fresh uid and invite code, drawing again on the rare collision. */
  async insertUser(
    tx: Executor,
    values: Pick<
      typeof users.$inferInsert,
      | 'email'
      | 'areaId'
      | 'phone'
      | 'passwordHash'
      | 'isDemo'
      | 'invitedBy'
      | 'lang'
      | 'demoSecretHash'
      | 'country'
      | 'riskDisclosureVersion'
      | 'riskDisclosureAcceptedAt'
      | 'demoOwnerId'
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
        if (constraint === 'users_demo_owner_unique') throw new DemoAlreadyLinked();
        const idCollision = constraint === 'users_uid_unique' || constraint === 'users_invite_code_unique';
        if (!idCollision || attempt >= ID_COLLISION_RETRIES) throw error;
      }
    }
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
}
