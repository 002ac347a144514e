import { forbidden } from '@pipwise/domain';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import type { Principal } from '../../http/auth.js';
import { newSessionToken, sha256Hex } from '../../security/secrets.js';
import type { AccountsServiceDeps, RequestMeta } from './core.js';
import { SessionCache } from './session-cache.js';

export const hashToken = sha256Hex;

/**
 * Users' sessions: tokens are random, stored as sha256, revocable and expiring. A session found valid
 * is kept in a short cache; a revocation drops it here at once and, through `session.revoked`, in the
 * other processes.
 */
export class AccountSessions {
  private readonly cache: SessionCache;
  /** Every request of a session the cache does not hold runs it: built once, not per call. */
  private readonly liveSession;

  constructor(private readonly deps: Pick<AccountsServiceDeps, 'db' | 'clock' | 'bus' | 'config'>) {
    this.cache = new SessionCache(deps.clock);
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
    deps.bus.subscribe('session.revoked', ({ sessionIds }) => this.cache.dropSessions(sessionIds));
  }

  private now() {
    return this.deps.clock.now();
  }

  resolveToken = async (token: string): Promise<Principal | null> => {
    const tokenHash = hashToken(token);
    const cached = this.cache.get(tokenHash);
    if (cached) return cached;
    const epoch = this.cache.epoch;
    const [row] = await this.liveSession.execute({ tokenHash, now: this.now() });
    if (!row) return null;
    const principal = { userId: row.userId, sessionId: row.sessionId, isDemo: row.isDemo === 1 };
    this.cache.put(tokenHash, principal, row.expiresAt, epoch);
    return principal;
  };

  /** Logout: the token stops working at once, on HTTP and on every socket logged in with it. */
  revokeToken = async (token: string): Promise<void> => {
    const tokenHash = hashToken(token);
    const revoked = await this.deps.db
      .update(sessions)
      .set({ revokedAt: this.now() })
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id, userId: sessions.userId });
    this.cache.dropToken(tokenHash);
    const [first] = revoked;
    if (first) this.deps.bus.publish('session.revoked', { sessionIds: revoked.map((r) => r.id), userId: first.userId });
  };

  async create(executor: Executor, userId: number, meta: RequestMeta): Promise<string> {
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
  async openUnfrozen(userId: number, meta: RequestMeta): Promise<string> {
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select({ frozen: users.loginFrozen }).from(users).where(eq(users.id, userId)).for('share');
      if (row?.frozen) throw forbidden('login_frozen');
      return this.create(tx, userId, meta);
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
    this.cache.dropSessions(sessionIds);
    if (sessionIds.length) this.deps.bus.publish('session.revoked', { sessionIds, userId });
  }
}
