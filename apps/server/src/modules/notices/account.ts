import {
  AccountNoticeKind,
  BALANCE_DECIMALS,
  CloseReason,
  PROFIT_DECIMALS,
  SocketTopic,
  toJsonNumber,
  type AccountNoticeListView,
  type AccountNoticeView,
  type Language,
} from '@pipwise/domain';
import { and, count, desc, eq, inArray, isNull, max, notInArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { accountNotices, marginCalls } from '../../db/schema.js';
import { translate } from '../../i18n/catalog.js';
import type { EventBus } from '../../realtime/bus.js';
import type { EngineOrderOutcome, MarginCallFigures } from '../trading/outcomes.js';

export const ACCOUNT_NOTICE_PAGE_SIZE = 20;

type NoticeRow = typeof accountNotices.$inferSelect;
type Params = Record<string, string | number | null>;

/** What it needs of the accounts context: a message to the user in their language (e-mail, else SMS). */
export interface UserNotifier {
  notifyUser(userId: number, compose: (lang: Language) => { subject: string; text: string }): Promise<void>;
}

export interface AccountNoticesDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  notifier: UserNotifier;
  /** What the engine did to orders since a time, read from the orders it wrote (the trading context). */
  engineOutcomesSince: (since: Date) => Promise<EngineOrderOutcome[]>;
}

/**
 * How far before the newest order notice a start looks for outcomes that have none: notices are stored
 * after the engine's commit, so a crash can lose those of the last batches, which may lag the commit.
 */
const RECOVERY_OVERLAP_MS = 10 * 60_000;
/** Where a start looks back from when no order notice was ever stored. */
const RECOVERY_WINDOW_MS = 60 * 60_000;

const text = (params: Params, key: string) => {
  const value = params[key];
  return value === null || value === undefined ? null : String(value);
};
const number = (params: Params, key: string, decimals: number) => {
  const value = text(params, key);
  return value === null ? null : toJsonNumber(value, decimals);
};

export function presentAccountNotice(row: NoticeRow): AccountNoticeView {
  const params = row.params;
  const precision = params.precision === null || params.precision === undefined ? null : Number(params.precision);
  return {
    id: row.id,
    kind: row.kind === AccountNoticeKind.marginCall ? AccountNoticeKind.marginCall : AccountNoticeKind.order,
    reason: text(params, 'reason'),
    order_id: params.order_id === null || params.order_id === undefined ? null : Number(params.order_id),
    code: text(params, 'code'),
    side: params.side === null || params.side === undefined ? null : Number(params.side),
    lots: number(params, 'lots', 4),
    price: precision === null ? null : number(params, 'price', precision),
    precision,
    profit: number(params, 'profit', PROFIT_DECIMALS),
    margin_level: number(params, 'margin_level', BALANCE_DECIMALS),
    margin_call_level: number(params, 'margin_call_level', BALANCE_DECIMALS),
    stop_out_level: number(params, 'stop_out_level', BALANCE_DECIMALS),
    created_at: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

/** Money in an e-mail: two decimals, the sign kept. */
const money = (value: string) => toJsonNumber(value, BALANCE_DECIMALS).toFixed(BALANCE_DECIMALS);

/**
 * A user's notices about their own account, stored from the risk engine's events: each order the
 * engine closed, filled or retired, and each crossing of the margin-call level. Every process hears the
 * bus, so the rows are written "once" (a unique key per event, a row per account in margin call) and
 * only the process whose write made the row pushes it to the user's devices (NOTICE) and sends the
 * e-mail (a stop-out's, a margin call's).
 */
export class AccountNotices {
  private readonly unsubscribe: (() => void)[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Margin-call changes are stored one after another, in the order the engine published them. */
  private marginCallChain: Promise<void> = Promise.resolve();

  constructor(private readonly deps: AccountNoticesDeps) {}

  start() {
    this.track(this.recoverOutcomes());
    this.unsubscribe.push(
      this.deps.bus.subscribe('trading.order_outcomes', ({ outcomes }) => this.track(this.recordOutcomes(outcomes))),
      this.deps.bus.subscribe('trading.margin_calls', (change) => {
        const work = this.marginCallChain.then(() => this.recordMarginCalls(change));
        this.marginCallChain = work.catch(() => undefined);
        this.track(work);
      }),
    );
  }

  async stop() {
    for (const off of this.unsubscribe.splice(0)) off();
    await this.settled();
  }

  /** Resolves when every event heard so far is stored and told (tests wait on this). */
  async settled() {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private track(work: Promise<void>) {
    const done = work
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'account notices: storing an engine event failed'))
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }

  private push(row: NoticeRow) {
    this.deps.bus.publish('realtime.user', { userId: row.userId, topic: SocketTopic.notice, data: presentAccountNotice(row) });
  }

  /**
   * Stores the notices of engine outcomes committed while no process was left to hear them (a crash
   * between the engine's commit and the notice): the once key keeps the ones already stored.
   */
  async recoverOutcomes() {
    const [newest] = await this.deps.db
      .select({ at: max(accountNotices.createdAt) })
      .from(accountNotices)
      .where(eq(accountNotices.kind, AccountNoticeKind.order));
    const since = newest?.at
      ? new Date(newest.at.getTime() - RECOVERY_OVERLAP_MS)
      : new Date(this.deps.clock.now().getTime() - RECOVERY_WINDOW_MS);
    await this.recordOutcomes(await this.deps.engineOutcomesSince(since));
  }

  async recordOutcomes(outcomes: EngineOrderOutcome[]) {
    if (outcomes.length === 0) return;
    const createdAt = this.deps.clock.now();
    const rows = outcomes.map((outcome) => ({
      user_id: outcome.userId,
      once: `${outcome.orderId}:${outcome.reason}`,
      params: {
        reason: outcome.reason,
        order_id: outcome.orderId,
        code: outcome.code,
        side: outcome.side,
        lots: outcome.lots,
        price: outcome.price,
        precision: outcome.precision,
        profit: outcome.profit,
      },
    }));
    // One JSON parameter for the whole batch: a flash move's thousands of notices built as placeholders
    // cost the process more than the engine's own transactions. Only the rows this insert made come back.
    const made = rowsOf(
      await this.deps.db.execute(sql`
        INSERT INTO ${accountNotices} (user_id, kind, once, params, created_at)
        SELECT v.user_id, ${AccountNoticeKind.order}, v.once, v.params, ${createdAt.toISOString()}::timestamptz
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(user_id bigint, once text, params jsonb)
        ON CONFLICT (user_id, once) DO NOTHING
        RETURNING id, user_id, once`),
    );
    const asked = new Map(rows.map((row) => [`${row.user_id}/${row.once}`, row]));
    const stored: NoticeRow[] = made.map((back) => {
      const row = asked.get(`${Number(back.user_id)}/${String(back.once)}`)!;
      return {
        id: Number(back.id),
        userId: row.user_id,
        kind: AccountNoticeKind.order,
        once: row.once,
        params: row.params,
        readAt: null,
        createdAt,
      };
    });
    stored.sort((a, b) => a.id - b.id);
    for (const row of stored) this.push(row);
    const stopOuts = new Map<number, NoticeRow[]>();
    for (const row of stored) {
      if (row.params.reason !== CloseReason.stopOut) continue;
      stopOuts.set(row.userId, [...(stopOuts.get(row.userId) ?? []), row]);
    }
    for (const [userId, rows] of stopOuts) {
      await this.deps.notifier.notifyUser(userId, (lang) => ({
        subject: translate(lang, 'mail_stop_out_subject'),
        text: translate(lang, 'mail_stop_out_body', {
          lines: rows
            .map(({ params }) =>
              translate(lang, 'mail_stop_out_line', {
                code: String(params.code),
                lots: String(Number(params.lots)),
                price: toJsonNumber(String(params.price), Number(params.precision)).toFixed(Number(params.precision)),
                profit: money(String(params.profit)),
                id: String(params.order_id),
              }),
            )
            .join('\n'),
        }),
      }));
    }
  }

  /**
   * Accounts that reached the margin-call level get a row in margin_calls; those whose row is new are
   * told (notice and e-mail). Leaving the level removes the row, so the next crossing is told again.
   */
  async recordMarginCalls({ entered, left, all }: { entered: MarginCallFigures[]; left: number[]; all: boolean }) {
    const inCall = entered.map((figures) => figures.userId);
    if (all) {
      await this.deps.db.delete(marginCalls).where(inCall.length > 0 ? notInArray(marginCalls.userId, inCall) : undefined);
    } else if (left.length > 0) {
      await this.deps.db.delete(marginCalls).where(inArray(marginCalls.userId, left));
    }
    if (entered.length === 0) return;
    const since = this.deps.clock.now();
    const fresh = await this.deps.db
      .insert(marginCalls)
      .values(entered.map(({ userId }) => ({ userId, since })))
      .onConflictDoNothing()
      .returning({ userId: marginCalls.userId });
    const told = new Set(fresh.map((row) => row.userId));
    const calls = entered.filter((figures) => told.has(figures.userId));
    if (calls.length === 0) return;
    const stored = await this.deps.db
      .insert(accountNotices)
      .values(
        calls.map((figures) => ({
          userId: figures.userId,
          kind: AccountNoticeKind.marginCall,
          params: {
            margin_level: figures.marginLevel,
            margin_call_level: figures.marginCallLevel,
            stop_out_level: figures.stopOutLevel,
          },
          createdAt: since,
        })),
      )
      .returning();
    for (const row of stored) this.push(row);
    for (const figures of calls) {
      await this.deps.notifier.notifyUser(figures.userId, (lang) => ({
        subject: translate(lang, 'mail_margin_call_subject'),
        text: translate(lang, 'mail_margin_call_body', {
          level: money(figures.marginLevel),
          call: String(Number(figures.marginCallLevel)),
          stop_out: String(Number(figures.stopOutLevel)),
        }),
      }));
    }
  }

  /** A page of the user's notices, newest first. */
  async list(userId: number, page: number): Promise<AccountNoticeListView> {
    const [rows, [totals]] = await Promise.all([
      this.deps.db
        .select()
        .from(accountNotices)
        .where(eq(accountNotices.userId, userId))
        .orderBy(desc(accountNotices.createdAt), desc(accountNotices.id))
        .limit(ACCOUNT_NOTICE_PAGE_SIZE)
        .offset((page - 1) * ACCOUNT_NOTICE_PAGE_SIZE),
      this.deps.db.select({ total: count() }).from(accountNotices).where(eq(accountNotices.userId, userId)),
    ]);
    return {
      data: rows.map(presentAccountNotice),
      total: Number(totals?.total ?? 0),
      page,
      page_size: ACCOUNT_NOTICE_PAGE_SIZE,
    };
  }

  async unreadCount(userId: number): Promise<number> {
    const [row] = await this.deps.db
      .select({ unread: count() })
      .from(accountNotices)
      .where(and(eq(accountNotices.userId, userId), isNull(accountNotices.readAt)));
    return Number(row?.unread ?? 0);
  }

  /** Marks every notice of the user read (the list under the bell was opened); answers how many were unread. */
  async markAllRead(userId: number): Promise<number> {
    const marked = await this.deps.db
      .update(accountNotices)
      .set({ readAt: this.deps.clock.now() })
      .where(and(eq(accountNotices.userId, userId), isNull(accountNotices.readAt)))
      .returning({ id: accountNotices.id });
    return marked.length;
  }
}
