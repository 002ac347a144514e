import { CloseReason, dec, exitPrice, OrderStatus, rejected, type Dec, type OrderSideValue } from '@pipwise/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { orders } from '../../db/schema.js';
import { groupCommitBatchSize } from '../../observability/metrics.js';
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
 * Batches written at once: while one waits on the database the next is worked out and sent, so the
 * process and the database each keep a core busy. On PGlite (one connection) they simply queue.
 */
const BATCHES_IN_FLIGHT = 2;

/** The classes of action in their order under stress: stop-outs, then stop-losses, then take-profits and fills. */
const RANK: Record<EngineAction['kind'], number> = { stop_out: 0, stop_loss: 1, take_profit: 2, fill: 2 };

interface Asked {
  action: EngineAction;
  resolve: (result: ActionResult) => void;
  reject: (error: unknown) => void;
}

/** A batch being written: the one class of its actions (null for several) and its accounts. */
export interface Writing {
  rank: number | null;
  userIds: Set<number>;
}

/** What a batch of these actions holds, for the batches that may start beside it. */
export function writingOf(actions: readonly EngineAction[]): Writing {
  const ranks = new Set(actions.map((action) => RANK[action.kind]));
  return { rank: ranks.size === 1 ? [...ranks][0]! : null, userIds: new Set(actions.map((action) => action.userId)) };
}

/**
 * How many of the queue's first actions the next batch takes: up to `max` when none is in flight;
 * beside those in flight, the front run of actions of the one class they all hold, on none of their
 * accounts (nothing when they hold several classes or different ones).
 */
export function nextBatchSize(queue: readonly EngineAction[], writing: readonly Writing[], max: number): number {
  if (writing.length === 0) return Math.min(max, queue.length);
  const ranks = new Set(writing.map((batch) => batch.rank));
  const rank = ranks.size === 1 ? [...ranks][0]! : null;
  if (rank === null) return 0;
  let count = 0;
  while (count < queue.length && count < max) {
    const action = queue[count]!;
    if (RANK[action.kind] !== rank || writing.some((batch) => batch.userIds.has(action.userId))) break;
    count += 1;
  }
  return count;
}

/**
 * What the risk engine asks for, each at most once, in the order asked: the actions that arrive
 * together (a tick's, and those queued behind the batches being written) are worked out and written
 * in batches (`ActionBatch`), one transaction and a few statements each. A batch starts beside those
 * in flight only when it is the queue's next actions, all of the one class those batches hold and on
 * none of their accounts: an account's actions never overtake one another, nor does a later class
 * overtake an earlier one (a stop-loss is never written before a stop-out asked for ahead of it).
 */
export class EngineActions {
  private readonly queue: Asked[] = [];
  private readonly writing = new Set<Writing>();
  private startScheduled = false;

  constructor(
    private readonly core: TradingCore,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  act(action: EngineAction): Promise<ActionResult> {
    return new Promise<ActionResult>((resolve, reject) => {
      this.queue.push({ action, resolve, reject });
      // Started once the asking code yields: the actions of one tick share a batch.
      if (this.startScheduled) return;
      this.startScheduled = true;
      queueMicrotask(() => {
        this.startScheduled = false;
        this.startBatches();
      });
    });
  }

  private startBatches() {
    while (this.writing.size < BATCHES_IN_FLIGHT) {
      const queued = this.queue.slice(0, MAX_ACTIONS_PER_TRANSACTION).map((asked) => asked.action);
      const taken = this.queue.splice(0, nextBatchSize(queued, [...this.writing], MAX_ACTIONS_PER_TRANSACTION));
      if (taken.length === 0) return;
      groupCommitBatchSize.observe(taken.length);
      const writing = writingOf(taken.map((asked) => asked.action));
      this.writing.add(writing);
      void this.write(writing, taken);
    }
  }

  private async write(writing: Writing, taken: Asked[]) {
    let answer: () => void;
    try {
      const { results, notify } = await this.runBatch(taken.map((asked) => asked.action));
      answer = () => {
        notify();
        taken.forEach((asked, index) => asked.resolve(results[index]!));
      };
    } catch (error) {
      answer = () => {
        for (const asked of taken) asked.reject(error);
      };
    }
    this.writing.delete(writing);
    this.startBatches();
    // Told after the next batch is on its way, so that its round trips overlap this work; in the order
    // the batches committed, which for one account is the order they were asked in.
    setImmediate(answer);
  }

  /**
   * The owners' wallets are locked (in user order, as every batch takes them) and their open orders
   * read under those locks (an order changes only under its owner's); each action is worked out in
   * turn and the whole written at once. The notices (`notify`) follow the commit. A batch that fails
   * fails every action in it; the engine then reads those accounts again.
   */
  private async runBatch(actions: EngineAction[]): Promise<{ results: ActionResult[]; notify: () => void }> {
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
    const notify = () => {
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
    };
    return { results, notify };
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
