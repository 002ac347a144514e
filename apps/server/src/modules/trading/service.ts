import type { AccountFigures, Dec, TSetStopPriceRequest, TSubmitOrderRequest } from '@pipwise/domain';
import type { Executor } from '../../db/client.js';
import type { InstrumentInfo } from '../market/api.js';
import type { WalletAt } from '../wallet/service.js';
import { sql } from 'drizzle-orm';
import { addRowToBooks, bookOf, booksOf, exposureOf, type Book } from '../../positions/books.js';
import { TradingCore, type OrderOutcome, type OrderRow, type TradingDeps } from './core.js';
import type { ActionResult, EngineAction } from './action-batch.js';
import { EngineActions } from './engine-actions.js';
import { IdempotencyKeys } from './idempotency.js';
import { OrderLifecycle } from './lifecycle.js';
import { OrderPlacement } from './placement.js';
import { OrderQueries } from './queries.js';

export type { ClosedNotice, OrderRow, PlacedNotice, TradingDeps, WatchedFields } from './core.js';
export type { ActionResult, EngineAction } from './action-batch.js';
export type { TraderResults, WindowResults } from './queries.js';

/**
 * Orders and positions, composed of one part per concern: placement (`placement.ts`: optimistic and
 * grouped), what a trader does to open orders (`lifecycle.ts`), the engine's actions
 * (`engine-actions.ts`), Idempotency-Keys (`idempotency.ts`), the lists and the leaderboard's results
 * (`queries.ts`), on what they share (`core.ts`: settings, look-ups, exposure, notices). Every money path
 * but placement is one transaction that first locks the owner's wallet row, so those changes of one
 * account serialise, and every one of them moves the wallet's version, which is what placement checks.
 */
export class TradingService {
  private readonly core: TradingCore;
  private readonly placement: OrderPlacement;
  private readonly lifecycle: OrderLifecycle;
  private readonly actions: EngineActions;
  private readonly queries: OrderQueries;
  private readonly keys: IdempotencyKeys;

  constructor(deps: TradingDeps) {
    this.core = new TradingCore(deps);
    const keys = (this.keys = new IdempotencyKeys(this.core));
    this.placement = new OrderPlacement(this.core, keys);
    this.lifecycle = new OrderLifecycle(this.core, keys);
    this.actions = new EngineActions(this.core, this.lifecycle);
    this.queries = new OrderQueries(this.core);
  }

  /** Order batches being written, and orders waiting for the next. */
  get placingState() {
    return this.placement.placingState;
  }

  settings() {
    return this.core.settings();
  }

  instrument(id: number): InstrumentInfo {
    return this.core.instrument(id);
  }

  usdRate(instrument: InstrumentInfo): Dec {
    return this.core.usdRate(instrument);
  }

  /** Live floating P&L (USD, unrounded) of a holding order at the current quote; 0 without a quote. */
  floatingOf(order: Pick<OrderRow, 'instrumentId' | 'side' | 'lots' | 'openPrice' | 'margin'>): Dec {
    return exposureOf(this.core.deps.market, [bookOf(order)]).floating;
  }

  /** Account figures (docs/api.md) at the current quotes. */
  async figures(userId: number, tx: Executor = this.core.db): Promise<AccountFigures> {
    const wallet = await this.core.deps.wallet.get(userId, tx);
    return this.core.figuresFrom(wallet.balance, wallet.lockBalance, await this.core.exposure(tx, userId));
  }

  /** Figures of many accounts at the current quotes, each wallet with its positions in one statement. */
  async figuresOfMany(userIds: number[]): Promise<Map<number, AccountFigures>> {
    const accounts = new Map<number, { wallet: WalletAt; books: Map<string, Book> }>();
    for (const row of await this.core.deps.wallet.readWith(this.core.db, userIds, booksOf(sql`w.user_id`))) {
      const userId = Number(row.user_id);
      let account = accounts.get(userId);
      if (!account) accounts.set(userId, (account = { wallet: this.core.deps.wallet.walletAt(row), books: new Map() }));
      // A wallet without positions comes back once, its book columns null.
      if (row.instrument_id !== null && row.instrument_id !== undefined) addRowToBooks(account.books, row);
    }
    const figures = new Map<number, AccountFigures>();
    for (const [userId, { wallet, books }] of accounts) {
      figures.set(
        userId,
        this.core.figuresFrom(wallet.balance, wallet.lockBalance, exposureOf(this.core.deps.market, books.values())),
      );
    }
    return figures;
  }

  /**
   * Opens a market position or places a pending order. `keyUnused`: the caller found, in bulk, that the
   * Idempotency-Key was never used (`usedIdempotencyKeys`), so its look-up is skipped; a key used meanwhile
   * still answers with its first order, through the write's unique key. `bulk`: one of many orders
   * for many accounts at once (copies), written in larger statements beside traders' own orders.
   */
  submit(
    userId: number,
    body: TSubmitOrderRequest,
    idempotencyKey?: string,
    options: { keyUnused?: boolean; bulk?: boolean } = {},
  ): Promise<OrderOutcome> {
    return this.placement.submit(userId, body, idempotencyKey, options);
  }

  /** Before placing orders for many accounts at once (copies): their freezes and disclosures read in bulk. */
  async prepareAccounts(userIds: number[]): Promise<void> {
    await Promise.all([this.core.deps.restrictions.remember(userIds), this.core.deps.disclosure.remember(userIds)]);
  }

  /** Which of these order Idempotency-Keys were used already, as `userId:key`. */
  usedIdempotencyKeys(pairs: { userId: number; key: string }[]): Promise<Set<string>> {
    return this.keys.used(pairs);
  }

  /** The order if it belongs to the user; another user's order is "not found". */
  owned(userId: number, orderId: number, tx?: Executor): Promise<OrderRow> {
    return this.core.owned(userId, orderId, tx);
  }

  close(userId: number, orderId: number, idempotencyKey?: string): Promise<OrderOutcome> {
    return this.lifecycle.close(userId, orderId, idempotencyKey);
  }

  cancel(userId: number, orderId: number): Promise<OrderRow> {
    return this.lifecycle.cancel(userId, orderId);
  }

  setStops(userId: number, body: TSetStopPriceRequest): Promise<OrderRow> {
    return this.lifecycle.setStops(userId, body);
  }

  list(userId: number, status: number, at: { page: number; cursor?: number | undefined }) {
    return this.queries.list(userId, status, at);
  }

  windowResults(since: Date, limit: number, offset: number) {
    return this.queries.windowResults(since, limit, offset);
  }

  lifetimeResults(userIds: number[]) {
    return this.queries.lifetimeResults(userIds);
  }

  /** What the engine did to orders since `since` (its closes, retirements and fills), from the stored rows. */
  engineOutcomesSince(since: Date) {
    return this.queries.engineOutcomesSince(since);
  }

  holdingOrders(userId: number): Promise<OrderRow[]> {
    return this.queries.holdingOrders(userId);
  }

  ordersByIds(ids: number[]): Promise<Map<number, OrderRow>> {
    return this.queries.ordersByIds(ids);
  }

  closedPositionsOf(userIds: number[]): Promise<OrderRow[]> {
    return this.queries.closedPositionsOf(userIds);
  }

  openOrderOwners(): Promise<number[]> {
    return this.queries.openOrderOwners();
  }

  /** What the risk engine reads of accounts: wallets and open orders in one snapshot. */
  openAccounts(userIds: number[]) {
    return this.queries.openAccounts(userIds);
  }

  /** A take-profit, stop-loss, pending fill or stop-out the risk engine asks for (see `EngineActions`). */
  act(action: EngineAction): Promise<ActionResult> {
    return this.actions.act(action);
  }

  resetDemo(userId: number, isDemo: boolean) {
    return this.actions.resetDemo(userId, isDemo);
  }
}
