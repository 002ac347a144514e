import { dec, OrderStatus, type Dec } from '@pipwise/domain';
import { and, count, desc, eq, gte, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { idArray, TableRows } from '../../db/rows.js';
import { orders } from '../../db/schema.js';
import type { CashAt } from '../wallet/service.js';
import type { OrderRow, TradingCore, WatchedFields } from './core.js';
import { ENGINE_CLOSE_REASONS, FILLED, outcomeOf, type EngineOrderOutcome } from './outcomes.js';

export const PAGE_SIZE = 10;

export const orderRows = new TableRows(orders);

/** Realised results of a trader's closed positions: summed in NUMERIC, exact. */
export interface TraderResults {
  userId: number;
  profit: Dec;
  margin: Dec;
  trades: number;
}

/** A trader's results over a window, with what the leaderboard shows about how they trade. */
export interface WindowResults extends TraderResults {
  /** Positions closed with a profit above 0. */
  wins: number;
  /** The leverage used most. */
  leverage: number;
  /** ShowCode of the instrument traded most. */
  code: string;
}

/**
 * Positions that were opened and then closed. Pending orders retired without a fill (cancelled,
 * margin_short, a demo reset) are history too but were never trades: they have no `opened_at`.
 */
const closedPositions = () => and(eq(orders.status, OrderStatus.history), isNotNull(orders.openedAt));

/** The order lists, and the leaderboard's results: reads only. */
export class OrderQueries {
  constructor(private readonly core: TradingCore) {}

  /**
   * What the engine did to orders since `since`, rebuilt from the rows its batches wrote: closes and
   * retirements by their engine reason, fills by their opening time (only a pending order has a target).
   */
  async engineOutcomesSince(since: Date): Promise<EngineOrderOutcome[]> {
    const [closed, filled] = await Promise.all([
      this.core.db
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.status, OrderStatus.history),
            inArray(orders.closeReason, [...ENGINE_CLOSE_REASONS]),
            gte(orders.closedAt, since),
          ),
        ),
      this.core.db
        .select()
        .from(orders)
        .where(and(isNotNull(orders.targetPrice), gte(orders.openedAt, since))),
    ]);
    const { market } = this.core.deps;
    return [
      ...filled.map((order) => outcomeOf(order, FILLED, order.openPrice ?? '0', null, market)),
      ...closed.map((order) =>
        order.openedAt === null
          ? outcomeOf(order, order.closeReason!, order.targetPrice ?? '0', null, market)
          : outcomeOf(order, order.closeReason!, order.closePrice ?? '0', order.profit, market),
      ),
    ];
  }

  /**
   * One page of the user's orders of one status, newest first (history by closing time): after the
   * order `cursor` names when given (what rows left or joined since does not shift it), else by `page`.
   */
  async list(userId: number, status: number, at: { page: number; cursor?: number | undefined }) {
    const where = and(eq(orders.userId, userId), eq(orders.status, status));
    const history = status === OrderStatus.history;
    let after: SQL | undefined;
    if (at.cursor !== undefined) {
      // A history row's closing time never changes; an open list is ordered by id alone.
      after = history
        ? sql`(${orders.closedAt}, ${orders.id}) < (SELECT closed_at, id FROM ${orders} WHERE id = ${at.cursor} AND user_id = ${userId})`
        : sql`${orders.id} < ${at.cursor}`;
    }
    const [found, [totals], wallet] = await Promise.all([
      this.core.db
        .select()
        .from(orders)
        .where(and(where, after))
        .orderBy(desc(history ? orders.closedAt : orders.id), desc(orders.id))
        .limit(PAGE_SIZE + 1)
        .offset(at.cursor === undefined ? (at.page - 1) * PAGE_SIZE : 0),
      this.core.db
        .select({ total: count(), realised: sql<string | null>`sum(${orders.profit})` })
        .from(orders)
        .where(where),
      this.core.deps.wallet.get(userId),
    ]);
    let allProfits = dec(0);
    if (status === OrderStatus.holding) {
      allProfits = (await this.core.exposure(this.core.db, userId)).floating;
    } else if (history) {
      allProfits = dec(totals?.realised ?? '0');
    }
    // One row more than a page was read to know whether another page follows.
    const rows = found.slice(0, PAGE_SIZE);
    const nextCursor = found.length > PAGE_SIZE ? rows[rows.length - 1]!.id : null;
    return { rows, nextCursor, total: Number(totals?.total ?? 0), allProfits, balance: wallet.balance };
  }

  /**
   * Per trader, the positions closed since `since`, highest realised profit first (ties by user id,
   * so pages do not overlap). Served by the partial index on `closed_at` of history orders.
   */
  async windowResults(since: Date, limit: number, offset: number): Promise<WindowResults[]> {
    const profitSum = sql<string>`sum(${orders.profit})`;
    const rows = await this.core.db
      .select({
        userId: orders.userId,
        profit: profitSum,
        margin: sql<string>`sum(${orders.margin})`,
        trades: count(),
        wins: sql<number>`count(*) filter (where ${orders.profit} > 0)`.mapWith(Number),
        // Among equally frequent values mode() takes the first in sort order: the lower leverage or instrument id.
        leverage: sql<number>`mode() within group (order by ${orders.leverage})`.mapWith(Number),
        instrumentId: sql<number>`mode() within group (order by ${orders.instrumentId})`.mapWith(Number),
      })
      .from(orders)
      .where(and(closedPositions(), gte(orders.closedAt, since)))
      .groupBy(orders.userId)
      .orderBy(desc(profitSum), orders.userId)
      .limit(limit)
      .offset(offset);
    return rows.map((row) => ({
      userId: row.userId,
      profit: dec(row.profit),
      margin: dec(row.margin),
      trades: row.trades,
      wins: row.wins,
      leverage: row.leverage,
      code: this.core.deps.market.getInstrument(row.instrumentId)?.showCode ?? '',
    }));
  }

  /** Every position these traders ever closed, per trader; traders without one are absent. */
  async lifetimeResults(userIds: number[]): Promise<Map<number, TraderResults>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.core.db
      .select({
        userId: orders.userId,
        profit: sql<string>`sum(${orders.profit})`,
        margin: sql<string>`sum(${orders.margin})`,
        trades: count(),
      })
      .from(orders)
      .where(and(closedPositions(), inArray(orders.userId, userIds)))
      .groupBy(orders.userId);
    return new Map(
      rows.map((row) => [
        row.userId,
        { userId: row.userId, profit: dec(row.profit), margin: dec(row.margin), trades: row.trades },
      ]),
    );
  }

  /** The accounts holding open orders, in id order: the engine loads them a page at a time. */
  async openOrderOwners(): Promise<number[]> {
    const rows = await this.core.db
      .selectDistinct({ userId: orders.userId })
      .from(orders)
      .where(inArray(orders.status, [OrderStatus.holding, OrderStatus.pending]))
      .orderBy(orders.userId);
    return rows.map((row) => row.userId);
  }

  /**
   * These accounts' wallets (balance and version) and what the engine watches of their open orders, in
   * one statement: one snapshot, so the orders are exactly those of the version read, and one round
   * trip (the engine's load reads a million orders in small pages).
   */
  async openAccounts(userIds: number[]): Promise<{ wallets: Map<number, CashAt>; orders: WatchedFields[] }> {
    const wallets = new Map<number, CashAt>();
    const found: WatchedFields[] = [];
    if (userIds.length === 0) return { wallets, orders: found };
    const rows = await this.core.deps.wallet.readWith(
      this.core.db,
      userIds,
      sql`SELECT o.id, o.instrument_id, o.side, o.status, o.lots, o.margin, o.open_price, o.target_price, o.placed_price,
                 o.take_profit, o.stop_loss
          FROM ${orders} o
          WHERE o.user_id = w.user_id AND o.status IN (${OrderStatus.holding}, ${OrderStatus.pending})`,
    );
    // Both drivers answer NUMERIC as its decimal text.
    const text = (value: unknown) => (value === null || value === undefined ? null : (value as string));
    for (const row of rows) {
      const userId = Number(row.user_id);
      if (!wallets.has(userId)) wallets.set(userId, { balance: row.balance as string, version: Number(row.version) });
      // A wallet without open orders comes back once, its order columns null.
      if (row.id === null || row.id === undefined) continue;
      found.push({
        id: Number(row.id),
        userId,
        instrumentId: Number(row.instrument_id),
        side: Number(row.side),
        status: Number(row.status),
        lots: row.lots as string,
        margin: row.margin as string,
        openPrice: text(row.open_price),
        targetPrice: text(row.target_price),
        placedPrice: text(row.placed_price),
        takeProfit: text(row.take_profit),
        stopLoss: text(row.stop_loss),
      });
    }
    return { wallets, orders: found };
  }

  /** Open positions (holding orders) of one account, oldest first. */
  holdingOrders(userId: number): Promise<OrderRow[]> {
    return this.core.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.status, OrderStatus.holding)))
      .orderBy(orders.id);
  }

  /** These orders as they are now, whoever owns them (for services that keep their own links to orders). */
  async ordersByIds(ids: number[]): Promise<Map<number, OrderRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.core.db
      .select()
      .from(orders)
      .where(sql`${orders.id} = ANY(${idArray(ids)})`);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Every closed position of these accounts, oldest close first. */
  closedPositionsOf(userIds: number[]): Promise<OrderRow[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.core.db
      .select()
      .from(orders)
      .where(and(closedPositions(), sql`${orders.userId} = ANY(${idArray(userIds)})`))
      .orderBy(orders.closedAt);
  }
}
