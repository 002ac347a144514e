import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CODE_MAX_ATTEMPTS, CODE_RESEND_SECONDS, CODE_TTL_SECONDS, rejected, type CodePurposeValue } from '@pipwise/domain';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { settings, verificationCodes } from '../../db/schema.js';
import { newVerificationCode } from './secrets.js';

export type Channel = 'email' | 'sms';

/** Where a code goes and what it is for; a code only ever answers for the same target. */
export interface CodeTarget {
  channel: Channel;
  /** Lower-case email or E.164 phone number. */
  destination: string;
  purpose: CodePurposeValue;
}

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
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly pepper: Pepper,
  ) {}

  private digest(target: CodeTarget, code: string) {
    return this.pepper.hash(`${target.channel}:${target.destination}:${target.purpose}:${code}`);
  }

  /** Stores a new code and returns it for delivery; refuses within a minute of the last send to the destination. */
  async issue(target: CodeTarget): Promise<{ id: number; code: string }> {
    const code = newVerificationCode();
    const codeHash = await this.digest(target, code);
    return this.db.transaction(async (tx) => {
      // Serialises sends to one destination, so two parallel requests cannot both pass the minute rule.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`code:${target.destination}`}, 0))`);
      const now = this.clock.now();
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
          ...target,
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
   * Checks `code` against the target's live code and returns its id for `consume`. Every try spends
   * one of the five attempts first (atomically), so parallel guesses cannot exceed the limit.
   */
  async check(target: CodeTarget, code: string): Promise<number> {
    const now = this.clock.now();
    const [row] = await this.db
      .select()
      .from(verificationCodes)
      .where(and(this.sameTarget(target), isNull(verificationCodes.consumedAt)))
      .orderBy(desc(verificationCodes.id))
      .limit(1);
    if (!row) throw rejected('code_not_found');
    if (row.expiresAt.getTime() <= now.getTime()) throw rejected('code_expired');
    const [spent] = await this.db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(and(eq(verificationCodes.id, row.id), lt(verificationCodes.attempts, CODE_MAX_ATTEMPTS)))
      .returning({ id: verificationCodes.id });
    if (!spent) throw rejected('code_attempts_exceeded');
    const given = Buffer.from(await this.digest(target, code), 'hex');
    const stored = Buffer.from(row.codeHash, 'hex');
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw rejected('code_incorrect');
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

  private sameTarget(target: CodeTarget) {
    return and(
      eq(verificationCodes.channel, target.channel),
      eq(verificationCodes.destination, target.destination),
      eq(verificationCodes.purpose, target.purpose),
    );
  }
}
