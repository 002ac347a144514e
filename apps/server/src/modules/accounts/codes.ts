import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CODE_MAX_ATTEMPTS, CODE_RESEND_SECONDS, CODE_TTL_SECONDS, rejected, type CodePurposeValue } from '@pipwise/domain';
import { and, desc, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { settings, verificationCodes } from '../../db/schema.js';
import { addressKey, FailureLimiter, tooManyRequests } from '../../security/limiter.js';
import { newVerificationCode } from './identifiers.js';

export type Channel = 'email' | 'sms';

/** Where a code goes and what it is for; a code only ever answers for the same target. */
export interface CodeTarget {
  channel: Channel;
  /** Lower-case email or E.164 phone number. */
  destination: string;
  purpose: CodePurposeValue;
  /** The account a reset code is for (none for registration): its caps hold across all its destinations. */
  userId?: number | null;
}

/**
 * Caps over a rolling day. Sends per destination and per account: five tries per code and a code a
 * minute would otherwise allow 7,200 guesses a day, these allow 50 (50 in a million). Guesses per
 * address: one network tries at most 20 codes a day, whoever they are for. The guess budget is never
 * the account's, so guesses from elsewhere cannot lock its owner out: a fresh code has its own tries.
 */
export const CODE_DAILY_SENDS = 10;
export const CODE_DAILY_GUESSES = 20;
export const CODE_CAP_WINDOW_MS = 86_400_000;

/** Never served: the setting endpoint answers only an allow-list of public keys. */
const PEPPER_KEY = 'secret_code_pepper';

/**
 * HMAC-SHA256 under a server-side pepper. Six digits are only a million values, so a plain hash in a
 * leaked dump would be reversed at once; the pepper lives in another table and codes die in ten minutes.
 */
export class Pepper {
  private key: Promise<Buffer> | null = null;

  constructor(private readonly db: Db) {}

  private load(): Promise<Buffer> {
    this.key ??= (async () => {
      await this.db
        .insert(settings)
        .values({ key: PEPPER_KEY, value: randomBytes(32).toString('hex') })
        .onConflictDoNothing();
      const [row] = await this.db.select({ value: settings.value }).from(settings).where(eq(settings.key, PEPPER_KEY));
      if (!row) throw new Error('code pepper missing');
      return Buffer.from(row.value, 'hex');
    })();
    this.key.catch(() => (this.key = null));
    return this.key;
  }

  async hash(value: string): Promise<string> {
    return createHmac('sha256', await this.load())
      .update(value)
      .digest('hex');
  }
}

/**
 * Verification codes: six digits, ten minutes, five tries, one send per destination per minute. A new
 * code supersedes the earlier live one for the same target.
 */
export class VerificationCodes {
  /** Wrong guesses per requesting address (`addressKey`), across codes, destinations and purposes. */
  private readonly guesses: FailureLimiter;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly pepper: Pepper,
  ) {
    this.guesses = new FailureLimiter(db, clock, 'code-guess', CODE_DAILY_GUESSES, CODE_CAP_WINDOW_MS);
  }

  private digest(target: CodeTarget, code: string) {
    return this.pepper.hash(`${target.channel}:${target.destination}:${target.purpose}:${code}`);
  }

  /**
   * Stores a new code and returns it for delivery; refuses within a minute of the last send to the
   * destination, and once the destination or the account had its day's codes.
   */
  async issue(target: CodeTarget): Promise<{ id: number; code: string }> {
    const code = newVerificationCode();
    const codeHash = await this.digest(target, code);
    return this.db.transaction(async (tx) => {
      // Serialises sends to one destination, so two parallel requests cannot both pass the minute rule.
      await this.lock(tx, target);
      const now = this.clock.now();
      const sent = await tx
        .select({ n: sql<number>`count(*)::int`, oldest: sql<Date | string | null>`min(${verificationCodes.createdAt})` })
        .from(verificationCodes)
        .where(this.sameOwnerToday(target, now));
      this.refuseOverCap(sent[0], CODE_DAILY_SENDS, now);
      const [last] = await tx
        .select({ createdAt: verificationCodes.createdAt })
        .from(verificationCodes)
        .where(eq(verificationCodes.destination, target.destination))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      const waitMs = last ? CODE_RESEND_SECONDS * 1000 - (now.getTime() - last.createdAt.getTime()) : 0;
      if (waitMs > 0) throw rejected('code_resend_wait', { seconds: Math.ceil(waitMs / 1000) });
      await tx
        .update(verificationCodes)
        .set({ consumedAt: now })
        .where(and(this.sameTarget(target), isNull(verificationCodes.consumedAt)));
      const [row] = await tx
        .insert(verificationCodes)
        .values({
          channel: target.channel,
          destination: target.destination,
          purpose: target.purpose,
          userId: target.userId ?? null,
          codeHash,
          createdAt: now,
          expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
        })
        .returning({ id: verificationCodes.id });
      if (!row) throw new Error('verification code not stored');
      return { id: row.id, code };
    });
  }

  /** After a failed delivery: the code never reached anyone, so it must not block a retry. */
  async discard(id: number) {
    await this.db.delete(verificationCodes).where(eq(verificationCodes.id, id));
  }

  /**
   * Checks `code` against the target's live code and returns its id for `consume`. Every try counts
   * against the day's budget of the address it comes from (`ip`; taken back when it was right), then
   * spends one of the code's five attempts under the destination's lock, so parallel guesses cannot
   * exceed either. A try refused by the address's budget spends nothing of the code.
   */
  async check(target: CodeTarget, code: string, ip: string): Promise<number> {
    const address = [addressKey(ip)];
    const counted = await this.guesses.failIfRoom(address);
    if (!counted.counted) throw tooManyRequests(counted.blockedForMs);
    const row = await this.db.transaction(async (tx) => {
      await this.lock(tx, target);
      const now = this.clock.now();
      const [live] = await tx
        .select()
        .from(verificationCodes)
        .where(and(this.sameTarget(target), isNull(verificationCodes.consumedAt)))
        .orderBy(desc(verificationCodes.id))
        .limit(1);
      if (!live) throw rejected('code_not_found');
      if (live.expiresAt.getTime() <= now.getTime()) throw rejected('code_expired');
      const [spent] = await tx
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(and(eq(verificationCodes.id, live.id), lt(verificationCodes.attempts, CODE_MAX_ATTEMPTS)))
        .returning({ id: verificationCodes.id });
      if (!spent) throw rejected('code_attempts_exceeded');
      return live;
    });
    const given = Buffer.from(await this.digest(target, code), 'hex');
    const stored = Buffer.from(row.codeHash, 'hex');
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw rejected('code_incorrect');
    await this.guesses.takeBack(address, counted.at);
    return row.id;
  }

  /** Marks a checked code used, inside the transaction of the change it authorises. */
  async consume(tx: Executor, id: number) {
    const now = this.clock.now();
    const [row] = await tx
      .update(verificationCodes)
      .set({ consumedAt: now })
      .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt), gt(verificationCodes.expiresAt, now)))
      .returning({ id: verificationCodes.id });
    if (!row) throw rejected('code_not_found');
  }

  /** One transaction at a time per destination, and per account when the code belongs to one. */
  private async lock(tx: Executor, target: CodeTarget) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`code:${target.destination}`}, 0))`);
    if (target.userId) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`code-user:${target.userId}`}, 0))`);
  }

  /** Codes of the last day sent to the destination or for the account, whatever their purpose. */
  private sameOwnerToday(target: CodeTarget, now: Date): SQL | undefined {
    const owner = target.userId
      ? or(eq(verificationCodes.destination, target.destination), eq(verificationCodes.userId, target.userId))
      : eq(verificationCodes.destination, target.destination);
    return and(owner, gt(verificationCodes.createdAt, new Date(now.getTime() - CODE_CAP_WINDOW_MS)));
  }

  /** 429 once the day's sends are reached, until the oldest counted code is a day old. */
  private refuseOverCap(counted: { n: number; oldest: Date | string | null } | undefined, cap: number, now: Date) {
    if (!counted || counted.n < cap || counted.oldest === null) return;
    const freeAt = new Date(counted.oldest).getTime() + CODE_CAP_WINDOW_MS;
    throw tooManyRequests(freeAt - now.getTime(), 'code_daily_limit');
  }

  private sameTarget(target: CodeTarget) {
    return and(
      eq(verificationCodes.channel, target.channel),
      eq(verificationCodes.destination, target.destination),
      eq(verificationCodes.purpose, target.purpose),
    );
  }
}
