import type { AccountFigures, Dec, TSetStopPriceRequest, TSubmitOrderRequest } from '@pipwise/domain';
import type { Executor } from '../../db/client.js';
import type { InstrumentInfo } from '../market/api.js';
import { bookOf, exposureOf } from '../../positions/books.js';
import { TradingCore, type OrderOutcome, type OrderRow, type TradingDeps, type WatchedFields } from './core.js';
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

  constructor(deps: TradingDeps) {
    this.core = new TradingCore(deps);
    const keys = new IdempotencyKeys(this.core);
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

  /** Opens a market position or places a pending order. */
  submit(userId: number, body: TSubmitOrderRequest, idempotencyKey?: string): Promise<OrderOutcome> {
    return this.placement.submit(userId, body, idempotencyKey);
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

  openOrderOwners(): Promise<number[]> {
    return this.queries.openOrderOwners();
  }

  openOrders(userIds: number[]): Promise<WatchedFields[]> {
    return this.queries.openOrders(userIds);
  }

  /** A take-profit, stop-loss, pending fill or stop-out the risk engine asks for (see `EngineActions`). */
  act(action: EngineAction): Promise<ActionResult> {
    return this.actions.act(action);
  }

  resetDemo(userId: number, isDemo: boolean) {
    return this.actions.resetDemo(userId, isDemo);
  }
}
