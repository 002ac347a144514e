import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AppError,
  CopySkipReason,
  copyLots,
  copyStopLossReached,
  dec,
  OrderStatus,
  SocketTopic,
  type CopySkipReasonValue,
  type Dec,
  type OrderSideValue,
} from '@pipwise/domain';
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { idArray, rowsOf } from '../../db/rows.js';
import { copies, copyActivity, copyOrders } from '../../db/schema.js';
import type { OrderRow } from '../trading/service.js';
import type { CopyCore, CopyRow, ProviderRow } from './core.js';
import type { Fees } from './fees.js';
import { writeWave, type WaveEntry } from './links.js';
import { activityView, type ActivityRow } from './present.js';

/** Follower orders placed at once for one provider fill; placement groups them into shared statements. */
const SUBMIT_WAVE = 2_000;

/** A refusal of a follower's copy order, by its message key: the skip reason the follower reads. */
const SKIP_BY_REFUSAL = new Map<string, CopySkipReasonValue>([
  ['insufficient_margin', CopySkipReason.noMargin],
  ['insufficient_balance', CopySkipReason.noMargin],
  ['market_closed', CopySkipReason.closed],
  ['quote_unavailable', CopySkipReason.closed],
  ['trading_frozen', CopySkipReason.closed],
  ['risk_disclosure_due', CopySkipReason.closed],
  ['instrument_not_found', CopySkipReason.closed],
  ['leverage_not_offered', CopySkipReason.closed],
]);
/** The provider's stops may sit on the wrong side of the follower's own quote: the copy then opens without them. */
const STOP_REFUSALS = new Set(['take_profit_wrong_side', 'stop_loss_wrong_side']);

type LinkStatus = 'open' | 'closed' | 'detached' | 'skipped';
interface Link {
  copyId: number;
  providerOrderId: number;
  followerOrderId: number | null;
  status: LinkStatus;
}
type NewActivity = Omit<typeof copyActivity.$inferInsert, 'id'>;
export interface StoppedCopies {
  stopped: CopyRow[];
  lines: (ActivityRow & { followerId: number })[];
}

const key = (copyId: number, providerOrderId: number) => `${copyId}:${providerOrderId}`;
/** The follower order's Idempotency-Key: one order per (provider order, copy), whatever reruns. */
const copyKey = (position: OrderRow, copy: CopyRow) => `copy:${position.id}:${copy.id}`;

/**
 * Copies providers' positions to their followers, exactly once (docs/architecture.md, "Copy trading").
 *
 * The provider's committed order row is the outbox entry: nothing about a fill, a close or a stop edit
 * exists before the provider's transaction commits, and everything the copier needs is in that row. The
 * copier reconciles a provider's open positions with its copies' links (`copy_orders`, keyed by copy and
 * provider order) on every change of the provider and every new copy, at every take-over of the lead
 * and every 30 s, so a crash anywhere loses nothing; each follower order carries the Idempotency-Key
 * (provider order, copy), so a copy placed before a crash and not yet linked is found again, not placed
 * twice.
 */
export class Copier {
  /** Providers being reconciled, and whether a change arrived meanwhile (then once more after). */
  private readonly running = new Map<number, { done: Promise<void>; again: boolean }>();
  private copiesPlaced = 0;
  private crashAt: number | null = null;

  constructor(
    private readonly core: CopyCore,
    private readonly fees: Fees,
    private readonly crash: { afterCopies: number | undefined; dataDir: string },
  ) {}

  /** Runs `reconcile` for the provider now, or once more after the run in progress. */
  schedule(providerId: number): Promise<void> {
    const current = this.running.get(providerId);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { done: Promise.resolve(), again: false };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await this.reconcile(providerId);
        } while (entry.again);
      } finally {
        this.running.delete(providerId);
      }
    })();
    this.running.set(providerId, entry);
    return entry.done;
  }

  /** Resolves once no provider's reconcile is running or due again (what an event set going has ended). */
  async idle() {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()].map((entry) => entry.done));
  }

  /** Every provider with copies that are not stopped, and every stopped copy still holding links. */
  async reconcileAll() {
    const rows = rowsOf(
      await this.core.db.execute(sql`
        SELECT DISTINCT c.provider_id FROM ${copies} c
        WHERE c.status <> 'stopped'
           OR EXISTS (SELECT 1 FROM ${copyOrders} o WHERE o.copy_id = c.id AND o.status = 'open')`),
    );
    // One provider's failure (logged) leaves the others to be settled.
    for (const row of rows) {
      await this.schedule(Number(row.provider_id)).catch((error: unknown) =>
        this.core.deps.log.error({ err: error, providerId: row.provider_id }, 'copy reconcile failed'),
      );
    }
  }

  /** Settles the copies of one provider with its positions as they are now. */
  private async reconcile(providerId: number) {
    const provider = await this.core.provider(providerId);
    // A provider who stopped or was suspended still holds its positions: only new copies stop.
    const positions = await this.original(await this.core.deps.trading.holdingOrders(provider.userId));
    const copying = provider.status === 'active';
    const live = await this.core.db.select().from(copies).where(eq(copies.providerId, providerId));
    const liveCopies = live.filter((copy) => copy.status !== 'stopped');
    const positionIds = positions.map((position) => position.id);
    const links = await this.linksOf(providerId, positionIds);
    const linked = new Set(links.map((link) => key(link.copyId, link.providerOrderId)));
    for (const position of positions) {
      const due = liveCopies.filter(
        (copy) =>
          copying &&
          copy.status === 'active' &&
          position.openedAt !== null &&
          +copy.copyFrom <= +position.openedAt &&
          !linked.has(key(copy.id, position.id)),
      );
      if (due.length > 0) await this.copyPosition(provider, position, due);
    }
    const open = links.filter((link) => link.status === 'open');
    if (open.length === 0) return;
    const copyById = new Map(live.map((copy) => [copy.id, copy]));
    const byPosition = new Map(positions.map((position) => [position.id, position]));
    const followerOrders = await this.core.deps.trading.ordersByIds(open.map((link) => link.followerOrderId!));
    for (const link of open) {
      const copy = copyById.get(link.copyId)!;
      const followerOrder = followerOrders.get(link.followerOrderId!)!;
      const position = byPosition.get(link.providerOrderId);
      if (followerOrder.status !== OrderStatus.holding) await this.settleClosed(copy, link, followerOrder);
      else if (copy.status === 'stopped') await this.endWithCopy(copy, link, followerOrder);
      else if (!position) await this.closeLink(copy, link, followerOrder);
      else await this.mirrorStops(copy, position, followerOrder);
    }
  }

  /** Positions that are not themselves copies: a copied position is not copied on, so two providers copying each other never loop. */
  async original(positions: OrderRow[]): Promise<OrderRow[]> {
    if (positions.length === 0) return positions;
    const rows = rowsOf(
      await this.core.db.execute(
        sql`SELECT follower_order_id FROM ${copyOrders} WHERE follower_order_id = ANY(${idArray(positions.map((p) => p.id))})`,
      ),
    );
    const copied = new Set(rows.map((row) => Number(row.follower_order_id)));
    return positions.filter((position) => !copied.has(position.id));
  }

  /** Links of this provider's copies that are open, or that concern its open positions. */
  private async linksOf(providerId: number, positionIds: number[]): Promise<Link[]> {
    const rows = rowsOf(
      await this.core.db.execute(sql`
        SELECT o.copy_id, o.provider_order_id, o.follower_order_id, o.status
        FROM ${copyOrders} o JOIN ${copies} c ON c.id = o.copy_id
        WHERE c.provider_id = ${providerId}
          AND (o.status = 'open' OR o.provider_order_id = ANY(${idArray(positionIds)}))`),
    );
    return rows.map((row) => ({
      copyId: Number(row.copy_id),
      providerOrderId: Number(row.provider_order_id),
      followerOrderId: row.follower_order_id === null ? null : Number(row.follower_order_id),
      status: row.status as LinkStatus,
    }));
  }

  /** Opens each due copy of one provider position, or records why not. */
  private async copyPosition(provider: ProviderRow, position: OrderRow, due: CopyRow[]) {
    this.crashIfAsked();
    const { trading, market } = this.core.deps;
    const instrument = market.getInstrument(position.instrumentId);
    const quote = market.getQuote(position.instrumentId);
    // No price heard yet (a process that just took the lead): decided at the next reconcile, not skipped.
    if (instrument && !quote) return;
    const tradable = !!instrument?.enabled && !!quote?.marketOpen && market.isOpen(position.instrumentId);
    const equity = (await trading.figures(provider.userId)).equity;
    // A wave's links are written while the next wave's orders are placed.
    const recordings: Promise<void>[] = [];
    for (let start = 0; start < due.length; start += SUBMIT_WAVE) {
      const wave = due.slice(start, start + SUBMIT_WAVE);
      // Keys placed before a crash replay their order; the others skip the look-up, one query for the wave.
      const [used] = await Promise.all([
        trading.usedIdempotencyKeys(wave.map((copy) => ({ userId: copy.followerId, key: copyKey(position, copy) }))),
        trading.prepareAccounts(wave.map((copy) => copy.followerId)),
      ]);
      const results = await Promise.all(
        wave.map(async (copy) => {
          if (!instrument || !tradable) return { copy, skip: CopySkipReason.closed } as const;
          const sizing = copyLots({
            providerLots: position.lots,
            providerEquity: equity,
            copyAmount: copy.amount,
            lots: instrument,
          });
          if (sizing.kind === 'skip') return { copy, skip: sizing.reason } as const;
          return this.placeCopy(copy, position, sizing.lots, !used.has(`${copy.followerId}:${copyKey(position, copy)}`));
        }),
      );
      const recording = this.record(position, instrument?.showCode ?? null, results);
      // Awaited below; this only keeps a failure before then from counting as unhandled.
      recording.catch(() => undefined);
      recordings.push(recording);
    }
    await Promise.all(recordings);
  }

  /** The follower's market order for one copy; a refusal is a skip with its reason, anything else is retried later. */
  private async placeCopy(
    copy: CopyRow,
    position: OrderRow,
    lots: Dec,
    keyUnused: boolean,
  ): Promise<
    { copy: CopyRow; order: OrderRow } | { copy: CopyRow; skip: CopySkipReasonValue } | { copy: CopyRow; error: unknown }
  > {
    const body = {
      type: position.side as OrderSideValue,
      cont: lots.toFixed(),
      forex_id: position.instrumentId,
      status: OrderStatus.holding,
      multiple: position.leverage,
      target_price: undefined,
      target_profit_price: position.takeProfit ?? undefined,
      stop_loss_price: position.stopLoss ?? undefined,
    };
    const idempotencyKey = copyKey(position, copy);
    try {
      try {
        const { order } = await this.core.deps.trading.submit(copy.followerId, body, idempotencyKey, { keyUnused, bulk: true });
        return { copy, order };
      } catch (error) {
        if (!(error instanceof AppError && STOP_REFUSALS.has(error.key))) throw error;
        const bare = { ...body, target_profit_price: undefined, stop_loss_price: undefined };
        const { order } = await this.core.deps.trading.submit(copy.followerId, bare, `${idempotencyKey}:bare`);
        return { copy, order };
      }
    } catch (error) {
      const skip = error instanceof AppError ? SKIP_BY_REFUSAL.get(error.key) : undefined;
      if (skip) return { copy, skip };
      return { copy, error };
    } finally {
      this.copiesPlaced++;
      this.crashWhenDue();
    }
  }

  /** Links and activity of one wave, in one transaction; a link already there (a second run) adds nothing. */
  private async record(
    position: OrderRow,
    code: string | null,
    results: (
      { copy: CopyRow; order: OrderRow } | { copy: CopyRow; skip: CopySkipReasonValue } | { copy: CopyRow; error: unknown }
    )[],
  ) {
    const entries: WaveEntry[] = [];
    const followers = new Map<number, number>();
    for (const result of results) {
      if ('error' in result) {
        this.core.deps.log.error(
          { err: result.error, copyId: result.copy.id },
          'copy order failed; retried at the next reconcile',
        );
        continue;
      }
      followers.set(result.copy.id, result.copy.followerId);
      const base = { copy_id: result.copy.id, provider_order_id: position.id, code, side: position.side };
      entries.push(
        'order' in result
          ? {
              ...base,
              follower_order_id: result.order.id,
              status: 'open',
              skip_reason: null,
              kind: 'copied',
              lots: result.order.lots,
              price: result.order.openPrice,
            }
          : {
              ...base,
              follower_order_id: null,
              status: 'skipped',
              skip_reason: result.skip,
              kind: 'skipped',
              lots: null,
              price: null,
            },
      );
    }
    if (entries.length === 0) return;
    const rows = await writeWave(this.core.db, entries);
    this.publish(rows.map((row) => ({ ...row, followerId: followers.get(row.copyId)! })));
  }

  /** The follower's copy of a position the provider closed: closed at once, exactly once. */
  private async closeLink(copy: CopyRow, link: Link, followerOrder: OrderRow) {
    try {
      const { order } = await this.core.deps.trading.close(
        copy.followerId,
        followerOrder.id,
        `copy-close:${link.providerOrderId}:${copy.id}`,
      );
      await this.finishLink(copy, link, order, 'closed');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Closed meanwhile by its own stops, a stop-out or the follower: settled from the stored row.
      const now = (await this.core.deps.trading.ordersByIds([followerOrder.id])).get(followerOrder.id)!;
      if (now.status === OrderStatus.holding) {
        this.core.deps.log.warn(
          { err: error, copyId: copy.id, orderId: now.id },
          'copy close refused; retried at the next reconcile',
        );
        return;
      }
      await this.settleClosed(copy, link, now);
    }
  }

  /** A copied position that left the book without the copier: by hand it is detached, by the engine closed. */
  private async settleClosed(copy: CopyRow, link: Link, order: OrderRow) {
    await this.finishLink(copy, link, order, order.closeReason === 'manual' ? 'detached' : 'closed');
  }

  /** A stopped copy's open position: closed with it, or left with the follower (detached). */
  private async endWithCopy(copy: CopyRow, link: Link, followerOrder: OrderRow) {
    if (copy.keepPositions) await this.finishLink(copy, link, followerOrder, 'detached');
    else await this.closeLink(copy, link, followerOrder);
  }

  /**
   * Ends a link once: its status, the copy's realised result (a closed position's profit net of its fee)
   * and the activity line, in one transaction guarded by the link still being open.
   */
  private async finishLink(copy: CopyRow, link: Link, order: OrderRow, status: 'closed' | 'detached') {
    const result = status === 'closed' && order.profit !== null ? dec(order.profit).minus(order.fee) : null;
    const instrument = this.core.deps.market.getInstrument(order.instrumentId);
    const written = await this.core.db.transaction(async (tx) => {
      const [ended] = await tx
        .update(copyOrders)
        .set({ status })
        .where(
          and(
            eq(copyOrders.copyId, link.copyId),
            eq(copyOrders.providerOrderId, link.providerOrderId),
            eq(copyOrders.status, 'open'),
          ),
        )
        .returning({ copyId: copyOrders.copyId });
      if (!ended) return [];
      if (result) {
        await tx
          .update(copies)
          .set({ realised: sql`${copies.realised} + ${result.toFixed(6)}::numeric` })
          .where(eq(copies.id, copy.id));
      }
      return this.addActivity(tx, [
        {
          followerId: copy.followerId,
          copyId: copy.id,
          kind: status,
          providerOrderId: link.providerOrderId,
          orderId: order.id,
          code: instrument?.showCode ?? null,
          side: order.side,
          lots: order.lots,
          price: order.closePrice,
          amount: result?.toFixed(6) ?? null,
        },
      ]);
    });
    this.publish(written);
  }

  /** The provider's later take-profit and stop-loss edits, on the follower's copy. */
  private async mirrorStops(copy: CopyRow, position: OrderRow, followerOrder: OrderRow) {
    if (position.takeProfit === followerOrder.takeProfit && position.stopLoss === followerOrder.stopLoss) return;
    const same = (a: string | null, b: string | null) => (a === null ? b === null : b !== null && dec(a).eq(b));
    if (same(position.takeProfit, followerOrder.takeProfit) && same(position.stopLoss, followerOrder.stopLoss)) return;
    try {
      await this.core.deps.trading.setStops(copy.followerId, {
        id: followerOrder.id,
        target_profit_price: position.takeProfit ?? undefined,
        stop_loss_price: position.stopLoss ?? undefined,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Already past the level at the follower's quote, say: the copy keeps its stops and closes with the provider.
      this.core.deps.log.info({ copyId: copy.id, orderId: followerOrder.id, key: error.key }, 'copy stops not mirrored');
    }
  }

  /**
   * Copies whose realised + floating result reached their stop-loss: every position closes and the copy
   * stops. Checked by the leader every second; positions that left the book meanwhile are settled too.
   */
  async checkStopLosses() {
    const rows = rowsOf(
      await this.core.db.execute(sql`
        SELECT o.copy_id, o.provider_order_id, o.follower_order_id
        FROM ${copyOrders} o JOIN ${copies} c ON c.id = o.copy_id
        WHERE o.status = 'open' AND c.status <> 'stopped'`),
    );
    if (rows.length === 0) return;
    const orders = await this.core.deps.trading.ordersByIds(rows.map((row) => Number(row.follower_order_id)));
    const floating = new Map<number, Dec>();
    for (const row of rows) {
      const order = orders.get(Number(row.follower_order_id));
      if (!order || order.status !== OrderStatus.holding) continue;
      const copyId = Number(row.copy_id);
      const result = this.core.deps.trading.floatingOf(order).minus(order.fee);
      floating.set(copyId, (floating.get(copyId) ?? dec(0)).plus(result));
    }
    const ids = [...new Set(rows.map((row) => Number(row.copy_id)))];
    const copyRows = await this.core.db
      .select()
      .from(copies)
      .where(sql`${copies.id} = ANY(${idArray(ids)})`);
    const reached = copyRows.filter((copy) => copyStopLossReached({ ...copy, floating: floating.get(copy.id) ?? dec(0) }));
    await this.stop(reached, 'stop_loss', false);
    // Positions closed by their own stops or by hand since the last look.
    const left = rows.filter((row) => orders.get(Number(row.follower_order_id))?.status !== OrderStatus.holding);
    const providers = new Set(
      copyRows.filter((copy) => left.some((row) => Number(row.copy_id) === copy.id)).map((c) => c.providerId),
    );
    for (const providerId of providers) await this.schedule(providerId);
  }

  /**
   * Stops copies once each: no new copies from now on; their open positions close, or stay with the
   * followers when `keep`; the provider's fee is settled on what each earned. One update and one
   * reconcile per provider however many copies stop (a provider with thousands of copiers stopping).
   */
  async stop(list: CopyRow[], reason: string, keep: boolean) {
    if (list.length === 0) return;
    const ids = sql`${copies.id} = ANY(${idArray(list.map((copy) => copy.id))})`;
    await this.afterStop(await this.core.db.transaction((tx) => this.markStopped(tx, ids, reason, keep)));
  }

  /**
   * The copies `which` selects that are not stopped yet, stopped with their activity lines in the
   * caller's transaction (a provider's suspension or stop, with its own status change); `afterStop`
   * once it commits.
   */
  async markStopped(tx: Executor, which: SQL, reason: string, keep: boolean): Promise<StoppedCopies> {
    const stopped = await tx
      .update(copies)
      .set({ status: 'stopped', stopReason: reason, keepPositions: keep, stoppedAt: this.core.now() })
      .where(and(which, ne(copies.status, 'stopped')))
      .returning();
    const lines = stopped.map((copy) => ({ followerId: copy.followerId, copyId: copy.id, kind: 'stopped', stopReason: reason }));
    return { stopped, lines: await this.addActivity(tx, lines) };
  }

  /** What follows stopped copies: their lines pushed, their positions closed or detached, their fees settled. */
  async afterStop({ stopped, lines }: StoppedCopies) {
    this.publish(lines);
    for (const providerId of new Set(stopped.map((copy) => copy.providerId))) await this.schedule(providerId);
    for (const copy of stopped) await this.fees.settle(copy.id);
  }

  async addActivity(
    tx: Executor,
    lines: (NewActivity & { followerId: number })[],
  ): Promise<(ActivityRow & { followerId: number })[]> {
    if (lines.length === 0) return [];
    const rows = await tx
      .insert(copyActivity)
      .values(lines.map(({ followerId: _followerId, ...line }) => line))
      .returning();
    return rows.map((row, index) => ({ ...row, followerId: lines[index]!.followerId }));
  }

  /** Each line to its follower's open apps (`COPY`). */
  publish(lines: (ActivityRow & { followerId: number })[]) {
    for (const line of lines) {
      this.core.deps.bus.publish('realtime.user', { userId: line.followerId, topic: SocketTopic.copy, data: activityView(line) });
    }
  }

  /** The crash test's hook: the process dies after this many copies of a fill are placed, once per data folder. */
  private crashIfAsked() {
    const { afterCopies, dataDir } = this.crash;
    if (afterCopies === undefined || existsSync(path.join(dataDir, 'copy-crash.done'))) return;
    this.crashAt = this.copiesPlaced + afterCopies;
    this.crashWhenDue();
  }

  private crashWhenDue() {
    if (this.crashAt === null || this.copiesPlaced < this.crashAt) return;
    writeFileSync(path.join(this.crash.dataDir, 'copy-crash.done'), String(process.pid));
    process.kill(process.pid, 'SIGKILL');
  }
}
