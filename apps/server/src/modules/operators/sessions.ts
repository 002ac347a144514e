import { randomBytes } from 'node:crypto';
import { isOperatorRole, notFound } from '@pipwise/domain';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { operatorSessions, operators } from '../../db/schema.js';
import type { OperatorPrincipal } from '../../http/operator.js';
import { sha256Hex } from '../../security/secrets.js';
import type { AuditService } from '../audit/service.js';

/** An operator session lasts a working day: idle for 2 hours or 12 hours in all, whichever comes first. */
export const OPERATOR_SESSION_IDLE_MS = 2 * 3_600_000;
export const OPERATOR_SESSION_ABSOLUTE_MS = 12 * 3_600_000;
/** Moving the idle expiry on every call would write on every read; once a minute is enough. */
const SLIDE_AFTER_MS = 60_000;

/** Operator tokens carry their own prefix: a user token can never be taken for one, nor the other way round. */
export const OPERATOR_TOKEN_PREFIX = 'pwo_';

/** An operator's live session, as `GET /me/sessions` lists it. */
export interface OperatorSessionView {
  id: number;
  createdAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

export interface OperatorSessionsDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
}

/** Operators' sessions: tokens stored as sha256 only, read on every call so a revoke is immediate. */
export class OperatorSessions {
  constructor(private readonly deps: OperatorSessionsDeps) {}

  async open(
    operatorId: number,
    meta: { ip: string | null; userAgent: string | null },
    executor: Executor = this.deps.db,
  ): Promise<string> {
    const token = `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = this.deps.clock.now().getTime();
    await executor.insert(operatorSessions).values({
      operatorId,
      tokenHash: sha256Hex(token),
      createdAt: new Date(now),
      expiresAt: new Date(now + OPERATOR_SESSION_IDLE_MS),
      absoluteExpiresAt: new Date(now + OPERATOR_SESSION_ABSOLUTE_MS),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    });
    return token;
  }

  /** The session's operator, or null (unknown, expired, revoked, operator disabled). Read every time: a revoke is immediate. */
  readonly resolve = async (token: string): Promise<OperatorPrincipal | null> => {
    if (!token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 100) return null;
    const now = this.deps.clock.now();
    const [row] = await this.deps.db
      .select({
        sessionId: operatorSessions.id,
        expiresAt: operatorSessions.expiresAt,
        absoluteExpiresAt: operatorSessions.absoluteExpiresAt,
        id: operators.id,
        email: operators.email,
        role: operators.role,
      })
      .from(operatorSessions)
      .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
      .where(
        and(
          eq(operatorSessions.tokenHash, sha256Hex(token)),
          isNull(operatorSessions.revokedAt),
          gt(operatorSessions.expiresAt, now),
          isNull(operators.disabledAt),
        ),
      );
    if (!row || !isOperatorRole(row.role)) return null;
    const slid = Math.min(now.getTime() + OPERATOR_SESSION_IDLE_MS, row.absoluteExpiresAt.getTime());
    if (slid - row.expiresAt.getTime() > SLIDE_AFTER_MS) {
      await this.deps.db
        .update(operatorSessions)
        .set({ expiresAt: new Date(slid) })
        .where(eq(operatorSessions.id, row.sessionId));
    }
    return { id: row.id, email: row.email, role: row.role, sessionId: row.sessionId, actor: `operator:${row.email}` };
  };

  /** The operator's live sessions, newest first. */
  async list(operator: OperatorPrincipal): Promise<OperatorSessionView[]> {
    const rows = await this.deps.db
      .select()
      .from(operatorSessions)
      .where(
        and(
          eq(operatorSessions.operatorId, operator.id),
          isNull(operatorSessions.revokedAt),
          gt(operatorSessions.expiresAt, this.deps.clock.now()),
        ),
      )
      .orderBy(desc(operatorSessions.id));
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      ip: row.ip,
      userAgent: row.userAgent,
      current: row.id === operator.sessionId,
    }));
  }

  /** Ends one of the operator's own live sessions; another operator's is as unknown as a missing one. */
  async revokeOwn(operator: OperatorPrincipal, sessionId: number, ip: string | null): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const ended = await tx
        .update(operatorSessions)
        .set({ revokedAt: this.deps.clock.now() })
        .where(
          and(
            eq(operatorSessions.id, sessionId),
            eq(operatorSessions.operatorId, operator.id),
            isNull(operatorSessions.revokedAt),
            gt(operatorSessions.expiresAt, this.deps.clock.now()),
          ),
        )
        .returning({ id: operatorSessions.id });
      if (ended.length === 0) throw notFound('operator_session_not_found');
      await this.deps.audit.record(
        { by: operator, action: 'operator.session_revoke', targetType: 'operator_session', targetId: sessionId, ip },
        tx,
      );
    });
  }

  /** Ends one session (logout), with its audit row in the same transaction. */
  async logout(operator: OperatorPrincipal, ip: string | null): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(operatorSessions)
        .set({ revokedAt: this.deps.clock.now() })
        .where(and(eq(operatorSessions.id, operator.sessionId), isNull(operatorSessions.revokedAt)));
      await this.deps.audit.record(
        { by: operator, action: 'operator.logout', targetType: 'operator', targetId: operator.id, ip },
        tx,
      );
    });
  }

  /** Ends the operator's sessions but the one they act from (their password changed). */
  async revokeOthers(executor: Executor, operator: OperatorPrincipal): Promise<void> {
    await executor
      .update(operatorSessions)
      .set({ revokedAt: this.deps.clock.now() })
      .where(
        and(
          eq(operatorSessions.operatorId, operator.id),
          ne(operatorSessions.id, operator.sessionId),
          isNull(operatorSessions.revokedAt),
        ),
      );
  }

  /** Ends every session of an operator (disabled, password reset). */
  async revokeAll(operatorId: number, executor: Executor = this.deps.db): Promise<void> {
    await executor
      .update(operatorSessions)
      .set({ revokedAt: this.deps.clock.now() })
      .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)));
  }
}
