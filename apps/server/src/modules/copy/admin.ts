import {
  conflict,
  dec,
  notFound,
  pageOf,
  toJsonNumber,
  ZCopyAdminView,
  ZCopyFeeAdminView,
  ZCopyFeesQuery,
  ZCopyProviderAdminView,
  ZCopyProviderParams,
  ZCopyProvidersAdminQuery,
  ZCopySuspendRequest,
  ZUserCopiesQuery,
  ZUserUidParams,
  type CopyAdminView,
  type CopyFeeAdminView,
  type CopyFeesQuery,
  type CopyProviderAdminView,
  type CopyProvidersAdminQuery,
  type OperatorPageView,
  type UserCopiesQuery,
} from '@pipwise/domain';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { Db, Executor } from '../../db/client.js';
import { countOf, paged } from '../../db/paging.js';
import { rowsOf } from '../../db/rows.js';
import { copies, copyProviders, ledgerEntries, users } from '../../db/schema.js';
import { pathId } from '../../http/admin-input.js';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator, type Operator } from '../../http/operator.js';
import type { AuditService } from '../audit/service.js';
import type { ProviderRow } from './core.js';
import type { CopyService } from './service.js';

const MONEY = 2;
const STOP_REASON = 'provider_suspended';
const NOT_FOUND = 'copy_provider_invalid';

export const COPY_ADMIN_PATHS = {
  providers: '/admin/api/copy/providers',
  hide: '/admin/api/copy/providers/:id/hide',
  unhide: '/admin/api/copy/providers/:id/unhide',
  suspend: '/admin/api/copy/providers/:id/suspend',
  unsuspend: '/admin/api/copy/providers/:id/unsuspend',
  fees: '/admin/api/copy/fees',
  userCopies: '/admin/api/users/:uid/copies',
} as const;

const paging = (query: { page: number; page_size: number }) => ({ page: query.page, pageSize: query.page_size });
const money = (value: string | number) => toJsonNumber(dec(value), MONEY);
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The audited fields of a provider: what the operators' changes move. */
const stateOf = (row: ProviderRow) => ({ status: row.status, hidden: row.hidden, suspended_reason: row.suspendedReason });

/**
 * The operators' side of copy trading (docs/architecture.md, "Back office"): providers with their
 * figures, hiding one from the public list, suspending one (its copies stop, the followers keep their
 * positions), a user's copies either way, and the fee settlements. Every change is audited in its
 * transaction; no money moves here (a stopped copy's fee is settled by the copier as at any stop).
 */
export class CopyAdmin {
  constructor(private readonly deps: { db: Db; copy: CopyService; audit: AuditService }) {}

  async providers(query: CopyProvidersAdminQuery): Promise<OperatorPageView<CopyProviderAdminView>> {
    const { db } = this.deps;
    const search = query.q?.toLowerCase();
    const where = and(
      query.status === undefined ? undefined : eq(copyProviders.status, query.status),
      search === undefined
        ? undefined
        : sql`(position(${search} in lower(${copyProviders.nickname})) > 0 OR ${users.uid}::text = ${search})`,
    );
    return paged(
      paging(query),
      async (limit, offset) => {
        const rows = await db
          .select({ provider: copyProviders, uid: users.uid })
          .from(copyProviders)
          .innerJoin(users, eq(users.id, copyProviders.userId))
          .where(where)
          .orderBy(desc(copyProviders.id))
          .limit(limit)
          .offset(offset);
        return this.providerViews(rows);
      },
      () =>
        countOf(db.select({ n: count() }).from(copyProviders).innerJoin(users, eq(users.id, copyProviders.userId)).where(where)),
    );
  }

  /** Hides a provider from the public list and its profile from others (existing copies go on), or shows it again. */
  async setHidden(providerId: number, hidden: boolean, by: Operator, ip: string): Promise<CopyProviderAdminView> {
    await this.deps.db.transaction(async (tx) => {
      const before = await this.locked(tx, providerId);
      if (before.hidden === hidden) throw conflict(hidden ? 'copy_admin_already_hidden' : 'copy_admin_not_hidden');
      await tx.update(copyProviders).set({ hidden }).where(eq(copyProviders.id, providerId));
      await this.audit(tx, by, ip, hidden ? 'copy_provider.hide' : 'copy_provider.unhide', before, { hidden });
    });
    this.deps.copy.providers.forget();
    return this.provider(providerId);
  }

  /**
   * Suspends a provider: nobody may follow it, it is not listed, and every copy stops with reason
   * `provider_suspended`, its positions staying with the follower. The status changes and the copies
   * stop in one transaction under the provider row's lock, which a follow shares: no copy slips past.
   */
  async suspend(providerId: number, reason: string, by: Operator, ip: string): Promise<CopyProviderAdminView> {
    const { copy, db } = this.deps;
    const stopping = await db.transaction(async (tx) => {
      const before = await this.locked(tx, providerId);
      if (before.status === 'suspended') throw conflict('copy_admin_already_suspended');
      await tx
        .update(copyProviders)
        .set({ status: 'suspended', suspendedReason: reason })
        .where(eq(copyProviders.id, providerId));
      const stopped = await copy.copier.markStopped(tx, eq(copies.providerId, providerId), STOP_REASON, true);
      await this.audit(tx, by, ip, 'copy_provider.suspend', before, {
        status: 'suspended',
        suspended_reason: reason,
        copies_stopped: stopped.stopped.length,
      });
      return stopped;
    });
    await copy.copier.afterStop(stopping);
    copy.providers.forget();
    return this.provider(providerId);
  }

  /**
   * Lifts a suspension. A person's provider comes back stopped: their copiers were stopped, and being
   * copied again is theirs to choose (becoming a provider again). The broker's automated strategies come
   * back listed, since they never ask again.
   */
  async unsuspend(providerId: number, by: Operator, ip: string): Promise<CopyProviderAdminView> {
    await this.deps.db.transaction(async (tx) => {
      const before = await this.locked(tx, providerId);
      if (before.status !== 'suspended') throw conflict('copy_admin_not_suspended');
      const status = before.automated ? 'active' : 'stopped';
      await tx.update(copyProviders).set({ status, suspendedReason: null }).where(eq(copyProviders.id, providerId));
      await this.audit(tx, by, ip, 'copy_provider.unsuspend', before, { status, suspended_reason: null });
    });
    this.deps.copy.providers.forget();
    return this.provider(providerId);
  }

  /** The user's copies as follower, or those of the user's provider profile; newest first. */
  async userCopies(uid: number, query: UserCopiesQuery): Promise<OperatorPageView<CopyAdminView>> {
    const { db } = this.deps;
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.uid, uid)).limit(1);
    if (!user) throw notFound('admin_user_not_found');
    let where: SQL;
    if (query.side === 'follower') where = eq(copies.followerId, user.id);
    else {
      const provider = await this.deps.copy.core.providerOfUser(user.id);
      if (!provider) return { data: [], total: 0, page: query.page, page_size: query.page_size };
      where = eq(copies.providerId, provider.id);
    }
    const follower = alias(users, 'follower');
    const providerUser = alias(users, 'provider_user');
    return paged(
      paging(query),
      async (limit, offset) =>
        (
          await db
            .select({ copy: copies, nickname: copyProviders.nickname, followerUid: follower.uid, providerUid: providerUser.uid })
            .from(copies)
            .innerJoin(copyProviders, eq(copyProviders.id, copies.providerId))
            .innerJoin(follower, eq(follower.id, copies.followerId))
            .innerJoin(providerUser, eq(providerUser.id, copyProviders.userId))
            .where(where)
            .orderBy(desc(copies.id))
            .limit(limit)
            .offset(offset)
        ).map(({ copy, nickname, followerUid, providerUid }) => ({
          id: copy.id,
          follower_uid: followerUid,
          provider_id: copy.providerId,
          provider_uid: providerUid,
          nickname,
          amount: money(copy.amount),
          stop_loss_pct: copy.stopLossPct,
          status: copy.status,
          stop_reason: copy.stopReason as CopyAdminView['stop_reason'],
          keep_positions: copy.keepPositions,
          realised: toJsonNumber(dec(copy.realised), 6),
          fees_paid: money(copy.feesPaid),
          created_at: copy.createdAt.toISOString(),
          stopped_at: iso(copy.stoppedAt),
        })),
      () => countOf(db.select({ n: count() }).from(copies).where(where)),
    );
  }

  /** Fee settlements: the followers' `copy_fee` ledger rows, newest first, with their copy and provider. */
  async fees(query: CopyFeesQuery): Promise<OperatorPageView<CopyFeeAdminView>> {
    const { db } = this.deps;
    const filters = sql.join(
      [
        sql`l.type = 'copy_fee' AND l.ref_type = 'copy'`,
        ...(query.provider_id === undefined ? [] : [sql`c.provider_id = ${query.provider_id}`]),
        ...(query.uid === undefined ? [] : [sql`fu.uid = ${query.uid}`]),
      ],
      sql` AND `,
    );
    const from = sql`
      FROM ${ledgerEntries} l
      JOIN ${copies} c ON c.id = l.ref_id
      JOIN ${copyProviders} p ON p.id = c.provider_id
      JOIN ${users} fu ON fu.id = l.user_id
      JOIN ${users} pu ON pu.id = p.user_id
      WHERE ${filters}`;
    return paged(
      paging(query),
      async (limit, offset) =>
        rowsOf(
          await db.execute(sql`
            SELECT l.id, l.ref_id AS copy_id, l.amount, l.created_at, fu.uid AS follower_uid, p.id AS provider_id,
                   pu.uid AS provider_uid, p.nickname
            ${from} ORDER BY l.id DESC LIMIT ${limit} OFFSET ${offset}`),
        ).map((row) => ({
          id: Number(row.id),
          copy_id: Number(row.copy_id),
          follower_uid: Number(row.follower_uid),
          provider_id: Number(row.provider_id),
          provider_uid: Number(row.provider_uid),
          nickname: String(row.nickname),
          amount: money(
            dec(row.amount as string)
              .negated()
              .toFixed(),
          ),
          created_at: iso(row.created_at as string)!,
        })),
      async () => Number(rowsOf(await db.execute(sql`SELECT count(*) AS n ${from}`))[0]?.n ?? 0),
    );
  }

  private async provider(providerId: number): Promise<CopyProviderAdminView> {
    const rows = await this.deps.db
      .select({ provider: copyProviders, uid: users.uid })
      .from(copyProviders)
      .innerJoin(users, eq(users.id, copyProviders.userId))
      .where(eq(copyProviders.id, providerId));
    const [view] = await this.providerViews(rows);
    if (!view) throw notFound(NOT_FOUND);
    return view;
  }

  /** Rows as operators see them, with the public figures (live record only) and the fees each earned. */
  private async providerViews(rows: { provider: ProviderRow; uid: number }[]): Promise<CopyProviderAdminView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.provider.id);
    const [data, earned] = await Promise.all([
      this.deps.copy.providers.data(rows.map((row) => row.provider)),
      this.deps.db
        .select({ providerId: copies.providerId, earned: sql<string>`sum(${copies.feesPaid})` })
        .from(copies)
        .where(sql`${copies.providerId} IN ${ids}`)
        .groupBy(copies.providerId),
    ]);
    const earnedBy = new Map(earned.map((row) => [row.providerId, row.earned]));
    return rows.map(({ provider, uid }, index) => {
      const { entry } = data[index]!;
      return {
        id: provider.id,
        nickname: provider.nickname,
        uid,
        user: entry.user,
        demo: entry.demo,
        status: provider.status,
        suspended_reason: provider.suspendedReason,
        hidden: provider.hidden,
        automated: provider.automated,
        fee_pct: provider.feePct,
        copiers: entry.copiers,
        copied_amount: entry.copied_amount,
        fees_earned: money(earnedBy.get(provider.id) ?? '0'),
        return_12m: entry.return_12m,
        max_drawdown: entry.max_drawdown,
        risk_score: entry.risk_score,
        created_at: provider.createdAt.toISOString(),
      };
    });
  }

  private async locked(tx: Executor, providerId: number): Promise<ProviderRow> {
    const [row] = await tx.select().from(copyProviders).where(eq(copyProviders.id, providerId)).for('update');
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  private audit(tx: Executor, by: Operator, ip: string, action: string, before: ProviderRow, after: Record<string, unknown>) {
    return this.deps.audit.record(
      {
        by,
        action,
        targetType: 'copy_provider',
        targetId: before.id,
        before: stateOf(before),
        after: { ...stateOf(before), ...after },
        ip,
      },
      tx,
    );
  }
}

export function registerCopyAdminRoutes(instance: FastifyInstance, admin: CopyAdmin) {
  const app = instance.withTypeProvider<DocumentedTypeProvider>();
  const provider = answers(ZCopyProviderAdminView);
  const params = ZCopyProviderParams;

  app.get(
    COPY_ADMIN_PATHS.providers,
    { schema: { querystring: ZCopyProvidersAdminQuery, response: answers(pageOf(ZCopyProviderAdminView)) } },
    async (request) => {
      requireOperator(request);
      return ok(request, await admin.providers(parse(ZCopyProvidersAdminQuery, request.query)));
    },
  );

  for (const [path, hidden] of [
    [COPY_ADMIN_PATHS.hide, true],
    [COPY_ADMIN_PATHS.unhide, false],
  ] as const) {
    app.post(path, { schema: { params, response: provider } }, async (request) => {
      const operator = requireOperator(request);
      return ok(request, await admin.setHidden(pathId(request.params, NOT_FOUND), hidden, operator, request.ip));
    });
  }

  app.post(COPY_ADMIN_PATHS.suspend, { schema: { params, body: ZCopySuspendRequest, response: provider } }, async (request) => {
    const operator = requireOperator(request);
    const id = pathId(request.params, NOT_FOUND);
    const { reason } = parse(ZCopySuspendRequest, request.body);
    return ok(request, await admin.suspend(id, reason, operator, request.ip));
  });

  app.post(COPY_ADMIN_PATHS.unsuspend, { schema: { params, response: provider } }, async (request) => {
    const operator = requireOperator(request);
    return ok(request, await admin.unsuspend(pathId(request.params, NOT_FOUND), operator, request.ip));
  });

  app.get(
    COPY_ADMIN_PATHS.userCopies,
    { schema: { params: ZUserUidParams, querystring: ZUserCopiesQuery, response: answers(pageOf(ZCopyAdminView)) } },
    async (request) => {
      requireOperator(request);
      const { uid } = parse(ZUserUidParams, request.params);
      return ok(request, await admin.userCopies(uid, parse(ZUserCopiesQuery, request.query)));
    },
  );

  app.get(
    COPY_ADMIN_PATHS.fees,
    { schema: { querystring: ZCopyFeesQuery, response: answers(pageOf(ZCopyFeeAdminView)) } },
    async (request) => {
      requireOperator(request);
      return ok(request, await admin.fees(parse(ZCopyFeesQuery, request.query)));
    },
  );
}
