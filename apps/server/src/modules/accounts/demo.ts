import { timingSafeEqual } from 'node:crypto';
import { notFound, type DemoSessionView } from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { newSessionToken } from '../../security/secrets.js';
import type { AccountsCore, RequestMeta } from './core.js';
import { hashToken, type AccountSessions } from './sessions.js';

/** Demo accounts: made on demand with the demo starting balance, re-entered only with their secret. */
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
  async demo(demo: { id: string; secret: string } | undefined, meta: RequestMeta): Promise<DemoSessionView> {
    const { db, deps } = this.core;
    if (demo !== undefined) {
      const [existing] = await db
        .select({ id: users.id, secretHash: users.demoSecretHash })
        .from(users)
        .where(and(eq(users.uid, Number(demo.id)), eq(users.isDemo, 1)))
        .limit(1);
      const given = Buffer.from(hashToken(demo.secret), 'hex');
      const stored = Buffer.from(existing?.secretHash ?? '', 'hex');
      if (!existing || given.length !== stored.length || !timingSafeEqual(given, stored)) throw notFound('demo_not_found');
      const token = await this.sessions.openUnfrozen(existing.id, meta);
      return { token, user: await this.core.view(existing.id) };
    }
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
      });
      await deps.wallet.create(tx, user.id);
      await deps.wallet.post(tx, { userId: user.id, amount: startBalance, type: 'demo_grant' });
      return { userId: user.id, token: await this.sessions.create(tx, user.id, meta) };
    });
    return { token, user: await this.core.view(userId), demo_secret: secret };
  }
}
