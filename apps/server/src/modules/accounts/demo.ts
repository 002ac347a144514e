import { timingSafeEqual } from 'node:crypto';
import { forbidden, notFound, type DemoSessionView } from '@pipwise/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { newSessionToken } from '../../security/secrets.js';
import type { Principal } from '../../http/auth.js';
import { DemoAlreadyLinked, uniqueViolation, type AccountsCore, type RequestMeta } from './core.js';
import { hashToken, type AccountSessions } from './sessions.js';

/** What lets a device back into its demo account: the uid (public) and the secret only that device has. */
export interface DemoKey {
  id: string;
  secret: string;
}

/**
 * Demo accounts: made on demand with the demo starting balance, re-entered with their secret, or by
 * the real account they were linked to when their owner first used them while signed in.
 */
export class DemoAccounts {
  constructor(
    private readonly core: AccountsCore,
    private readonly sessions: AccountSessions,
  ) {}

  /**
   * A new demo account credited with the demo starting balance (a ledger row) and a secret for the
   * device to keep, or — with `demo.id`, the uid of a demo account, and that secret — a new session of
   * that account. The uid is public (the leaderboard shows it), so it never logs in alone; accounts made
   * before the secret existed have none and cannot be re-entered. Never opens a real account.
   */
  async demo(demo: DemoKey | undefined, meta: RequestMeta): Promise<DemoSessionView> {
    if (demo !== undefined) {
      const existing = await this.withSecret(demo);
      return this.sessionOf(existing.id, meta);
    }
    return this.create(null, meta);
  }

  /**
   * The signed-in real account's own demo account, in a session of its own (the real session stays
   * live, so the device switches back without a login): the one linked to it; else the one this
   * device keeps the secret of, linked now unless another real account already owns it; else a new
   * one linked to it.
   */
  async switchToDemo(principal: Principal, deviceKey: DemoKey | undefined, meta: RequestMeta): Promise<DemoSessionView> {
    if (principal.isDemo) throw forbidden('demo_switch_real_only');
    const linked = await this.linkedTo(principal.userId);
    if (linked !== null) return this.sessionOf(linked, meta);
    if (deviceKey === undefined) {
      try {
        return await this.create(principal.userId, meta);
      } catch (error) {
        if (!(error instanceof DemoAlreadyLinked)) throw error;
        return this.switchToDemo(principal, undefined, meta);
      }
    }
    const kept = await this.withSecret(deviceKey);
    if (kept.ownerId !== null && kept.ownerId !== principal.userId) throw forbidden('demo_linked_elsewhere');
    const [claimed] = await this.core.db
      .update(users)
      .set({ demoOwnerId: principal.userId })
      .where(and(eq(users.id, kept.id), isNull(users.demoOwnerId)))
      .returning({ id: users.id })
      .catch((error: unknown) => {
        // The owner's other device linked another demo account a moment ago: that one is theirs.
        if (uniqueViolation(error) === 'users_demo_owner_unique') return [];
        throw error;
      });
    if (claimed || kept.ownerId === principal.userId) return this.sessionOf(kept.id, meta);
    return this.switchToDemo(principal, undefined, meta);
  }

  private async linkedTo(ownerId: number): Promise<number | null> {
    const [row] = await this.core.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.demoOwnerId, ownerId), eq(users.isDemo, 1)))
      .limit(1);
    return row?.id ?? null;
  }

  /**
   * The demo account of `demo.id` (its uid, which is public, so it never logs in alone) when `demo.secret`
   * is its secret; accounts made before the secret existed have none and cannot be re-entered.
   */
  private async withSecret(demo: DemoKey): Promise<{ id: number; ownerId: number | null }> {
    const [existing] = await this.core.db
      .select({ id: users.id, secretHash: users.demoSecretHash, ownerId: users.demoOwnerId })
      .from(users)
      .where(and(eq(users.uid, Number(demo.id)), eq(users.isDemo, 1)))
      .limit(1);
    const given = Buffer.from(hashToken(demo.secret), 'hex');
    const stored = Buffer.from(existing?.secretHash ?? '', 'hex');
    if (!existing || given.length !== stored.length || !timingSafeEqual(given, stored)) throw notFound('demo_not_found');
    return { id: existing.id, ownerId: existing.ownerId };
  }

  private async sessionOf(userId: number, meta: RequestMeta): Promise<DemoSessionView> {
    const token = await this.sessions.openUnfrozen(userId, meta);
    return { token, user: await this.core.view(userId) };
  }

  /** A new demo account with its starting balance (a ledger row), linked to `ownerId` when given. */
  private async create(ownerId: number | null, meta: RequestMeta): Promise<DemoSessionView> {
    const { db, deps } = this.core;
    const startBalance = await deps.reference.get('demo_start_balance');
    const secret = newSessionToken();
    const { userId, token } = await db.transaction(async (tx) => {
      const user = await this.core.insertUser(tx, {
        email: null,
        areaId: null,
        phone: null,
        passwordHash: null,
        isDemo: 1,
        invitedBy: null,
        lang: meta.lang,
        demoSecretHash: hashToken(secret),
        demoOwnerId: ownerId,
      });
      await deps.wallet.create(tx, user.id);
      await deps.wallet.post(tx, { userId: user.id, amount: startBalance, type: 'demo_grant' });
      return { userId: user.id, token: await this.sessions.create(tx, user.id, meta) };
    });
    return { token, user: await this.core.view(userId), demo_secret: secret };
  }
}
