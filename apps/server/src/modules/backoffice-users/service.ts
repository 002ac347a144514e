import {
  BALANCE_DECIMALS,
  DepositStatus,
  dec,
  notFound,
  OrderStatus,
  PROFIT_DECIMALS,
  toJsonNumber,
  WithdrawalStatus,
  type AccountFigures,
  type Language,
  type OutboxPageView,
  type PayoutWarningView,
} from '@pipwise/domain';
import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { countOf, paged, type Paging } from '../../db/paging.js';
import {
  areaCodes,
  deposits,
  instruments,
  orders,
  outboxMessages,
  realNameRecords,
  sessions,
  users,
  wallets,
  withdrawals,
} from '../../db/schema.js';
import type { Operator } from '../../http/operator.js';
import { translate } from '../../i18n/catalog.js';
import type { AuditService } from '../audit/service.js';
import type { WalletService } from '../wallet/service.js';
import { freezesOf, type Freezes, type RestrictionsService } from './restrictions.js';

/** What the back office needs of the accounts context: ending a user's sessions everywhere. */
export interface SessionRevoker {
  revokeSessions(executor: Executor, userId: number): Promise<number[]>;
  publishRevoked(userId: number, sessionIds: number[]): void;
}

/** What it needs of withdrawals: the warnings on the user's payout methods (shared addresses, payee names). */
export interface PayoutWarningsReader {
  userWarnings(userId: number): Promise<PayoutWarningView[]>;
}

/** What it needs of trading: the figures the app shows (forexDetail), and a position's floating P&L. */
export interface FiguresReader {
  figures(userId: number, tx?: Executor): Promise<AccountFigures>;
  floatingOf(
    order: Pick<typeof orders.$inferSelect, 'instrumentId' | 'side' | 'lots' | 'openPrice' | 'margin'>,
  ): ReturnType<typeof dec>;
}

const money = (value: string | null) => (value === null ? null : toJsonNumber(value, BALANCE_DECIMALS));
const iso = (value: Date | null) => value?.toISOString() ?? null;
/** LIKE pattern of a prefix typed by an operator: their % and _ are literal. */
const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Users as the back office sees them: search, one user's profile, figures, freezes and records, and
 * the operator actions on them (freezes, ending sessions), each audited in its own transaction.
 */
export class BackofficeUsersService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      wallet: WalletService;
      accounts: SessionRevoker;
      trading: FiguresReader;
      payouts: PayoutWarningsReader;
      restrictions: RestrictionsService;
      audit: AuditService;
      /** How e-mail leaves: by SMTP (SMTP_URL set), or kept in the outbox only. */
      mail: 'smtp' | 'outbox';
    },
  ) {}

  private get db() {
    return this.deps.db;
  }

  /** A user's id from their uid (the number operators and users see). */
  async idOf(uid: number): Promise<number> {
    const [row] = await this.db.select({ id: users.id }).from(users).where(eq(users.uid, uid)).limit(1);
    if (!row) throw notFound('admin_user_not_found');
    return row.id;
  }

  /**
   * By uid (exact), e-mail (case-insensitive, a prefix is enough) or phone (the national number, or
   * with its dialling code); without a query, every user, newest first.
   */
  async search(q: string | undefined, paging: Paging) {
    const where = q === undefined ? undefined : this.matching(q);
    return paged(
      paging,
      async (limit, offset) => {
        const rows = await this.db
          .select({ user: users, globalCode: areaCodes.globalCode, kyc: realNameRecords.reviewStatus, balance: wallets.balance })
          .from(users)
          .leftJoin(areaCodes, eq(areaCodes.id, users.areaId))
          .leftJoin(realNameRecords, eq(realNameRecords.userId, users.id))
          .leftJoin(wallets, eq(wallets.userId, users.id))
          .where(where)
          .orderBy(desc(users.id))
          .limit(limit)
          .offset(offset);
        return rows.map(({ user, globalCode, kyc, balance }) => ({
          uid: user.uid,
          email: user.email,
          phone: user.phone,
          area_code: user.phone ? globalCode : null,
          is_demo: user.isDemo === 1,
          balance: money(balance ?? '0'),
          kyc_status: kyc ?? 0,
          freezes: freezesOf(user),
          created_at: user.createdAt.toISOString(),
        }));
      },
      () => countOf(this.db.select({ n: count() }).from(users).leftJoin(areaCodes, eq(areaCodes.id, users.areaId)).where(where)),
    );
  }

  private matching(q: string): SQL | undefined {
    const options: (SQL | undefined)[] = [];
    if (/^\d{1,15}$/.test(q)) options.push(eq(users.uid, Number(q)));
    if (q.includes('@') || /[a-z]/i.test(q)) options.push(sql`lower(${users.email}) LIKE ${prefixPattern(q.toLowerCase())}`);
    const digits = q.replace(/[\s()+-]/g, '');
    if (/^\d{4,20}$/.test(digits)) {
      options.push(eq(users.phone, digits), sql`replace(${areaCodes.globalCode}, '+', '') || ${users.phone} = ${digits}`);
    }
    return options.length ? or(...options) : sql`false`;
  }

  /** Profile, the figures the app shows (forexDetail), freezes, real-name status and invitations. */
  async detail(uid: number) {
    const [row] = await this.db
      .select({ user: users, globalCode: areaCodes.globalCode })
      .from(users)
      .leftJoin(areaCodes, eq(areaCodes.id, users.areaId))
      .where(eq(users.uid, uid))
      .limit(1);
    if (!row) throw notFound('admin_user_not_found');
    const { user } = row;
    const [figures, [kyc], [inviter], invited, cashier, payoutWarnings] = await Promise.all([
      this.deps.trading.figures(user.id),
      this.db
        .select({
          status: realNameRecords.reviewStatus,
          name: realNameRecords.name,
          reason: realNameRecords.reason,
          submittedAt: realNameRecords.submittedAt,
          reviewedAt: realNameRecords.reviewedAt,
          reviewedBy: realNameRecords.reviewedBy,
        })
        .from(realNameRecords)
        .where(eq(realNameRecords.userId, user.id)),
      user.invitedBy === null
        ? Promise.resolve([])
        : this.db.select({ uid: users.uid }).from(users).where(eq(users.id, user.invitedBy)),
      countOf(this.db.select({ n: count() }).from(users).where(eq(users.invitedBy, user.id))),
      this.cashierTotals(user.id),
      this.deps.payouts.userWarnings(user.id),
    ]);
    return {
      uid: user.uid,
      email: user.email,
      phone: user.phone,
      area_code: user.phone ? row.globalCode : null,
      is_demo: user.isDemo === 1,
      lang: user.lang,
      created_at: user.createdAt.toISOString(),
      figures: {
        balance: toJsonNumber(figures.balance, BALANCE_DECIMALS),
        locked: toJsonNumber(figures.locked, BALANCE_DECIMALS),
        equity: toJsonNumber(figures.equity, BALANCE_DECIMALS),
        used_margin: toJsonNumber(figures.usedMargin, BALANCE_DECIMALS),
        free_margin: toJsonNumber(figures.freeMargin, BALANCE_DECIMALS),
        floating_pnl: toJsonNumber(figures.floating, BALANCE_DECIMALS),
        margin_level: figures.marginLevel === null ? null : toJsonNumber(figures.marginLevel, 2),
      },
      freezes: freezesOf(user),
      kyc: kyc
        ? {
            status: kyc.status,
            name: kyc.name,
            reason: kyc.reason,
            submitted_at: iso(kyc.submittedAt),
            reviewed_at: iso(kyc.reviewedAt),
            reviewed_by: kyc.reviewedBy,
          }
        : { status: 0, name: null, reason: null, submitted_at: null, reviewed_at: null, reviewed_by: null },
      invite: { code: user.inviteCode, invited_by_uid: inviter?.uid ?? null, invited_count: invited },
      deposits_total: toJsonNumber(cashier.deposits, BALANCE_DECIMALS),
      withdrawals_total: toJsonNumber(cashier.withdrawals, BALANCE_DECIMALS),
      payout_warnings: payoutWarnings,
    };
  }

  private async cashierTotals(userId: number) {
    const [[paidIn], [paidOut]] = await Promise.all([
      this.db
        .select({ sum: sql<string | null>`sum(coalesce(${deposits.creditedAmount}, ${deposits.amount}))` })
        .from(deposits)
        .where(and(eq(deposits.userId, userId), eq(deposits.status, DepositStatus.finished))),
      this.db
        .select({ sum: sql<string | null>`sum(${withdrawals.amount})` })
        .from(withdrawals)
        .where(and(eq(withdrawals.userId, userId), eq(withdrawals.status, WithdrawalStatus.completed))),
    ]);
    return { deposits: dec(paidIn?.sum ?? '0'), withdrawals: dec(paidOut?.sum ?? '0') };
  }

  /** The user's orders of one status (all without), newest first; a position's P&L is floating until closed. */
  async orders(uid: number, status: number | undefined, paging: Paging) {
    const userId = await this.idOf(uid);
    const where = and(eq(orders.userId, userId), status === undefined ? undefined : eq(orders.status, status));
    return paged(
      paging,
      async (limit, offset) => {
        const rows = await this.db
          .select({ order: orders, code: instruments.code })
          .from(orders)
          .innerJoin(instruments, eq(instruments.id, orders.instrumentId))
          .where(where)
          .orderBy(desc(orders.id))
          .limit(limit)
          .offset(offset);
        return rows.map(({ order, code }) => ({
          id: order.id,
          code,
          side: order.side,
          status: order.status,
          lots: Number(order.lots),
          leverage: order.leverage,
          target_price: order.targetPrice,
          open_price: order.openPrice,
          close_price: order.closePrice,
          stop_loss: order.stopLoss,
          take_profit: order.takeProfit,
          margin: toJsonNumber(order.margin, PROFIT_DECIMALS),
          fee: money(order.fee),
          profit:
            order.status === OrderStatus.holding
              ? toJsonNumber(this.deps.trading.floatingOf(order), PROFIT_DECIMALS)
              : order.profit === null
                ? null
                : toJsonNumber(order.profit, PROFIT_DECIMALS),
          close_reason: order.closeReason,
          created_at: order.createdAt.toISOString(),
          opened_at: iso(order.openedAt),
          closed_at: iso(order.closedAt),
        }));
      },
      () => countOf(this.db.select({ n: count() }).from(orders).where(where)),
    );
  }

  /** The ledger, newest first, memos in the operator's language. */
  async ledger(uid: number, paging: Paging, lang: Language) {
    const userId = await this.idOf(uid);
    const history = await this.deps.wallet.history(userId, paging.page, paging.pageSize);
    return {
      data: history.rows.map((row) => ({
        id: row.id,
        type: row.type,
        amount: money(row.amount),
        balance_after: money(row.balanceAfter),
        memo: translate(lang, row.memoKey, row.memoParams),
        ref_type: row.refType,
        ref_id: row.refId,
        created_at: row.createdAt.toISOString(),
      })),
      total: history.total,
      page: paging.page,
      page_size: paging.pageSize,
    };
  }

  async deposits(uid: number, paging: Paging) {
    const userId = await this.idOf(uid);
    const where = eq(deposits.userId, userId);
    return paged(
      paging,
      async (limit, offset) =>
        (await this.db.select().from(deposits).where(where).orderBy(desc(deposits.id)).limit(limit).offset(offset)).map(
          (row) => ({
            id: row.id,
            type: row.type,
            currency_code: row.currencyCode,
            protocol_code: row.protocolCode,
            amount: money(row.amount),
            credited_amount: money(row.creditedAmount),
            status: row.status,
            remark: row.remark,
            decided_by: row.decidedBy,
            decided_at: iso(row.decidedAt),
            created_at: row.createdAt.toISOString(),
          }),
        ),
      () => countOf(this.db.select({ n: count() }).from(deposits).where(where)),
    );
  }

  async withdrawals(uid: number, paging: Paging) {
    const userId = await this.idOf(uid);
    const where = eq(withdrawals.userId, userId);
    return paged(
      paging,
      async (limit, offset) =>
        (await this.db.select().from(withdrawals).where(where).orderBy(desc(withdrawals.id)).limit(limit).offset(offset)).map(
          (row) => ({
            id: row.id,
            type: row.type,
            currency_code: row.currencyCode,
            protocol: row.protocol,
            amount: money(row.amount),
            fee: money(row.fee),
            received: money(row.received),
            address: row.address,
            bank_name: row.bankName,
            payee_account: row.payeeAccount,
            status: row.status,
            remark: row.remark,
            first_approved_by: row.firstApprovedBy,
            decided_by: row.decidedBy,
            decided_at: iso(row.decidedAt),
            created_at: row.createdAt.toISOString(),
          }),
        ),
      () => countOf(this.db.select({ n: count() }).from(withdrawals).where(where)),
    );
  }

  /** Sessions, newest first; `live` ones still sign the user in. */
  async sessions(uid: number, paging: Paging) {
    const userId = await this.idOf(uid);
    const where = eq(sessions.userId, userId);
    const now = this.deps.clock.now();
    return paged(
      paging,
      async (limit, offset) =>
        (await this.db.select().from(sessions).where(where).orderBy(desc(sessions.id)).limit(limit).offset(offset)).map(
          (row) => ({
            id: row.id,
            created_at: row.createdAt.toISOString(),
            expires_at: row.expiresAt.toISOString(),
            revoked_at: iso(row.revokedAt),
            ip: row.ip,
            user_agent: row.userAgent,
            live: row.revokedAt === null && row.expiresAt > now,
          }),
        ),
      () => countOf(this.db.select({ n: count() }).from(sessions).where(where)),
    );
  }

  /**
   * Sets the freezes given. The wallet row is locked first, as a withdrawal request locks it before
   * its freeze check, so a request either committed before the freeze or sees it. A login freeze ends
   * every session in the same transaction; the audit row commits with the change.
   */
  async freeze(uid: number, change: Partial<Freezes>, operator: Operator, ip: string) {
    const userId = await this.idOf(uid);
    const { after, revoked } = await this.db.transaction(async (tx) => {
      await this.deps.wallet.lock(tx, userId);
      const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
      if (!row) throw notFound('admin_user_not_found');
      const before = freezesOf(row);
      const next: Freezes = { ...before, ...change };
      await tx
        .update(users)
        .set({ loginFrozen: next.login, tradingFrozen: next.trading, withdrawalsFrozen: next.withdrawals })
        .where(eq(users.id, userId));
      const ended = next.login ? await this.deps.accounts.revokeSessions(tx, userId) : [];
      await this.deps.audit.record(
        {
          by: operator,
          action: 'user.freeze',
          targetType: 'user',
          targetId: uid,
          before,
          after: { ...next, sessions_ended: ended.length },
          ip,
        },
        tx,
      );
      return { after: next, revoked: ended };
    });
    this.deps.restrictions.changed(userId);
    this.deps.accounts.publishRevoked(userId, revoked);
    return { uid, freezes: after, sessions_ended: revoked.length };
  }

  /** Ends every session of the user (each device must sign in again). */
  async revokeSessions(uid: number, operator: Operator, ip: string) {
    const userId = await this.idOf(uid);
    const revoked = await this.db.transaction(async (tx) => {
      const ended = await this.deps.accounts.revokeSessions(tx, userId);
      await this.deps.audit.record(
        {
          by: operator,
          action: 'user.revoke_sessions',
          targetType: 'user',
          targetId: uid,
          after: { sessions_ended: ended.length },
          ip,
        },
        tx,
      );
      return ended;
    });
    this.deps.accounts.publishRevoked(userId, revoked);
    return { uid, sessions_ended: revoked.length };
  }

  /**
   * Mail and SMS the outbox kept, newest first, each with why it was kept rather than sent: mail sent by
   * SMTP is never copied here, so an e-mail here had no SMTP_URL, and an SMS no gateway (none is built
   * in). `mail` says how e-mail leaves now; no row is waiting for a later delivery.
   */
  async outbox(destination: string | undefined, paging: Paging): Promise<OutboxPageView> {
    const where = destination === undefined ? undefined : eq(outboxMessages.destination, destination);
    const page = await paged(
      paging,
      async (limit, offset) =>
        (
          await this.db
            .select()
            .from(outboxMessages)
            .where(where)
            .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
            .limit(limit)
            .offset(offset)
        ).map((row) => ({
          id: row.id,
          channel: row.channel,
          destination: row.destination,
          subject: row.subject,
          body: row.body,
          delivered: row.delivered,
          kept_reason: row.channel === 'sms' ? ('no_sms_gateway' as const) : ('no_smtp_url' as const),
          created_at: row.createdAt.toISOString(),
        })),
      () => countOf(this.db.select({ n: count() }).from(outboxMessages).where(where)),
    );
    return { ...page, mail: this.deps.mail };
  }
}
