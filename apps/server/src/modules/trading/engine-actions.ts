import { CloseReason, dec, exitPrice, OrderStatus, rejected, type Dec, type OrderSideValue } from '@pipwise/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { GroupCommit, type ItemOutcome } from '../../db/group-commit.js';
import { orders } from '../../db/schema.js';
import { ActionBatch, type ActionResult, type EngineAction } from './action-batch.js';
import type { TradingCore } from './core.js';
import type { OrderLifecycle } from './lifecycle.js';

/**
 * Engine actions written in one transaction at most; more wait for the next. Large enough that a
 * flash move's thousands of actions take a handful of round trips, small enough that one batch holds
 * its accounts' locks for milliseconds.
 */
const MAX_ACTIONS_PER_TRANSACTION = 500;

/**
 * What the risk engine asks for, each at most once, in the order asked: the actions that arrive
 * together (a tick's, and those queued behind a batch being written) are worked out and written in
 * batches (`ActionBatch`), one transaction and a few statements each, one batch at a time so that an
 * action never overtakes one asked for before it.
 */
export class EngineActions {
  private readonly batches = new GroupCommit<EngineAction, ActionResult>((actions) => this.runBatch(actions), {
    maxBatch: MAX_ACTIONS_PER_TRANSACTION,
    concurrency: 1,
    gatherSynchronous: true,
  });

  constructor(
    private readonly core: TradingCore,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  act(action: EngineAction): Promise<ActionResult> {
    return this.batches.submit(action);
  }

  /**
   * The owners' wallets are locked (in user order, as every batch takes them) and their open orders
   * read under those locks (an order changes only under its owner's); each action is worked out in
   * turn and the whole written at once. Notices follow the commit. A batch that fails fails every
   * action in it; the engine then reads those accounts again.
   */
  private async runBatch(actions: EngineAction[]): Promise<ItemOutcome<ActionResult>[]> {
    // Read before the transaction: after a settings change this reads the database, and a read outside
    // an open transaction waits for it on a single connection (PGlite), so inside it would never return.
    const settings = await this.core.settings();
    const { results, walletsAfter, outcomes } = await this.core.db.transaction(async (tx) => {
      // First: a process that lost the engine's lead (paused while another took over) writes nothing.
      await this.core.deps.fence?.(tx);
      const batch = await ActionBatch.read(this.core, tx, actions, settings);
      const worked = actions.map((action) => batch.apply(action));
      await batch.write(tx);
      return { results: worked, walletsAfter: await batch.walletsAfter(tx), outcomes: batch.outcomes };
    });
    // The owners' notices (closes, fills, retirements) with the figures just written.
    if (outcomes.length > 0) this.core.deps.bus.publish('trading.order_outcomes', { outcomes });
    const byUser = new Map<number, ActionResult>();
    results.forEach((result, index) => {
      const userId = actions[index]!.userId;
      const sum = byUser.get(userId) ?? { closed: [], filled: [] };
      sum.closed.push(...result.closed);
      sum.filled.push(...result.filled);
      byUser.set(userId, sum);
    });
    for (const [userId, { closed, filled }] of byUser) {
      const wallet = walletsAfter.get(userId);
      // Closes alone the engine applies from the notice; a fill changes a position, which it reads again.
      if (filled.length > 0 || !wallet) {
        if (filled.length > 0) this.core.filledNotice(userId, filled);
        if (closed.length > 0) this.core.closedNotice(userId, closed);
      } else if (closed.length > 0) this.core.closedByEngineNotice(userId, { ...wallet, orderIds: closed });
    }
    return results.map((value) => ({ ok: true, value }));
  }

  /** Demo reset: closes every position, cancels every pending order and restores the starting balance. */
  async resetDemo(userId: number, isDemo: boolean): Promise<{ balance: Dec; closed: number[] }> {
    if (!isDemo) throw rejected('demo_reset_only_demo');
    const { demoStartBalance } = await this.core.settings();
    const result = await this.core.db.transaction(async (tx) => {
      await this.core.deps.wallet.lock(tx, userId);
      const open = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.userId, userId), inArray(orders.status, [OrderStatus.holding, OrderStatus.pending])));
      const closed: number[] = [];
      for (const order of open) {
        if (order.status === OrderStatus.pending) {
          if (await this.lifecycle.retirePending(tx, order, CloseReason.demoReset)) closed.push(order.id);
          continue;
        }
        const instrument = this.core.instrument(order.instrumentId);
        const quote = this.core.deps.market.getQuote(order.instrumentId);
        // Without a quote the position closes flat: the balance is restored below either way.
        const exit = quote ? exitPrice(order.side as OrderSideValue, quote) : dec(order.openPrice ?? '0');
        if (await this.lifecycle.closeLocked(tx, order, instrument, exit, CloseReason.demoReset)) closed.push(order.id);
      }
      const { balance } = await this.core.deps.wallet.get(userId, tx);
      const topUp = demoStartBalance.minus(balance);
      let after = balance;
      if (!topUp.isZero()) {
        after = await this.core.deps.wallet.post(tx, { userId, amount: topUp, type: 'demo_reset' });
      }
      return { balance: after, closed };
    });
    if (result.closed.length > 0) this.core.closedNotice(userId, result.closed);
    else this.core.changed(userId);
    return result;
  }
}
