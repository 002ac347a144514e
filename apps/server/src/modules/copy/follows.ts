import {
  conflict,
  copyAllowed,
  CopySkipReason,
  copyLots,
  copyStopLossLevel,
  dec,
  entryPrice,
  followAmountError,
  forbidden,
  invalid,
  orderCharges,
  OrderStatus,
  PROFIT_DECIMALS,
  rejected,
  toJsonNumber,
  type CopyActivityView,
  type CopyPreviewView,
  type CopyView,
  type Dec,
  type OrderSideValue,
  type TCopyEditRequest,
  type TCopyFollowRequest,
  type TCopyPauseRequest,
  type TCopyUnfollowRequest,
} from '@pipwise/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/idempotency.js';
import { idArray } from '../../db/rows.js';
import { copies, copyActivity, copyOrders, copyProviders } from '../../db/schema.js';
import type { Copier } from './copier.js';
import type { CopyCore, CopyRow } from './core.js';
import { activityView } from './present.js';

/**
 * A new copy takes the provider's open positions too, at the follower's price now (the preview shows
 * them as what the copy opens), then every later one; a resumed copy only those opened from then on.
 */
const EVERY_OPEN_POSITION = new Date(0);

export const ACTIVITY_PAGE_SIZE = 20;
const MONEY = 2;

/** Whether a provider takes new followers: neither stopped, suspended nor hidden. */
const followable = (provider: { status: string; hidden: boolean }) => provider.status === 'active' && !provider.hidden;

/** What a follower does: follow with an amount and a stop-loss, edit, pause, unfollow, and read their copies. */
export class Follows {
  constructor(
    private readonly core: CopyCore,
    private readonly copier: Copier,
    /** Tells the copier's leader that this provider now has a copy to serve. */
    private readonly served: (providerUserId: number, providerId: number) => void,
  ) {}

  async follow(userId: number, body: TCopyFollowRequest): Promise<CopyView> {
    const provider = await this.core.provider(body.provider_id);
    if (!followable(provider)) throw rejected('copy_provider_unavailable');
    if (provider.userId === userId) throw rejected('copy_self');
    const [followerDemo, providerDemo] = await Promise.all([this.core.isDemo(userId), this.core.isDemo(provider.userId)]);
    if (!copyAllowed({ followerDemo, providerDemo })) throw forbidden('copy_not_allowed');
    await this.checkAmount(userId, body.amount);
    try {
      const copy = await this.core.db.transaction(async (tx) => {
        // Shared lock on the provider row: a suspension or a stop (which update that row) commits either
        // before this check, and the follow is refused, or after this copy, and then stops it too.
        const [current] = await tx
          .select({ status: copyProviders.status, hidden: copyProviders.hidden })
          .from(copyProviders)
          .where(eq(copyProviders.id, provider.id))
          .for('share');
        if (!followable(current!)) throw rejected('copy_provider_unavailable');
        const [row] = await tx
          .insert(copies)
          .values({
            followerId: userId,
            providerId: provider.id,
            amount: body.amount,
            stopLossPct: body.stop_loss_pct,
            copyFrom: EVERY_OPEN_POSITION,
            lastSettledAt: this.core.now(),
          })
          .returning();
        return row!;
      });
      this.served(provider.userId, provider.id);
      return (await this.views(userId, [copy]))[0]!;
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('copy_already_following');
      throw error;
    }
  }

  async edit(userId: number, body: TCopyEditRequest): Promise<CopyView> {
    const copy = await this.live(userId, body.copy_id);
    if (body.amount !== undefined) await this.checkAmount(userId, body.amount);
    const [edited] = await this.core.db
      .update(copies)
      .set({
        ...(body.amount !== undefined && { amount: body.amount }),
        ...(body.stop_loss_pct !== undefined && { stopLossPct: body.stop_loss_pct }),
      })
      .where(eq(copies.id, copy.id))
      .returning();
    return (await this.views(userId, [edited!]))[0]!;
  }

  /** Paused, no new positions are copied; resumed, positions opened from now on are (not those opened meanwhile). */
  async pause(userId: number, body: TCopyPauseRequest): Promise<CopyView> {
    const copy = await this.live(userId, body.copy_id);
    const [changed] = await this.core.db
      .update(copies)
      .set(
        body.paused === 1
          ? { status: 'paused' }
          : { status: 'active', ...(copy.status === 'paused' && { copyFrom: this.core.now() }) },
      )
      .where(eq(copies.id, copy.id))
      .returning();
    return (await this.views(userId, [changed!]))[0]!;
  }

  async unfollow(userId: number, body: TCopyUnfollowRequest): Promise<CopyView> {
    const copy = await this.live(userId, body.copy_id);
    await this.copier.stop([copy], 'unfollowed', body.mode === 'keep');
    return (await this.views(userId, [await this.core.ownCopy(userId, copy.id)]))[0]!;
  }

  /** The follower's copies, live ones first, newest first. */
  async list(userId: number): Promise<CopyView[]> {
    const rows = await this.core.db
      .select()
      .from(copies)
      .where(eq(copies.followerId, userId))
      .orderBy(sql`${copies.status} = 'stopped'`, desc(copies.id));
    return this.views(userId, rows);
  }

  async activity(userId: number, copyId: number, page: number): Promise<CopyActivityView[]> {
    await this.core.ownCopy(userId, copyId);
    const rows = await this.core.db
      .select()
      .from(copyActivity)
      .where(eq(copyActivity.copyId, copyId))
      .orderBy(desc(copyActivity.id))
      .limit(ACTIVITY_PAGE_SIZE)
      .offset((page - 1) * ACTIVITY_PAGE_SIZE);
    return rows.map(activityView);
  }

  /** What copying with this amount would open now: one line per position the copier would copy, sized and charged as it would be. */
  async preview(userId: number, providerId: number, amount: string, stopLossPct: number): Promise<CopyPreviewView> {
    const provider = await this.core.provider(providerId);
    if (!followable(provider)) throw rejected('copy_provider_unavailable');
    const { trading, market } = this.core.deps;
    const [settings, providerFigures, mine, positions, terms] = await Promise.all([
      this.core.settings(),
      trading.figures(provider.userId),
      trading.figures(userId),
      trading.holdingOrders(provider.userId).then((holding) => this.copier.original(holding)),
      trading.settings(),
    ]);
    const lines = positions.map((position) => {
      const instrument = market.getInstrument(position.instrumentId);
      const quote = market.getQuote(position.instrumentId);
      const base = { code: instrument?.showCode ?? '', side: position.side, provider_lots: Number(position.lots) };
      const none = { ...base, lots: null, margin: 0, fee: 0 };
      if (!instrument || !quote?.marketOpen || !market.isOpen(position.instrumentId)) {
        return { ...none, skip_reason: CopySkipReason.closed };
      }
      const sizing = copyLots({
        providerLots: position.lots,
        providerEquity: providerFigures.equity,
        copyAmount: amount,
        lots: instrument,
      });
      if (sizing.kind === 'skip') return { ...none, skip_reason: sizing.reason };
      const charges = orderCharges({
        contractSize: instrument.contractSize,
        marginMode: instrument.marginMode,
        usdRate: trading.usdRate(instrument),
        feeType: terms.feeType,
        feeRate: instrument.feeRate,
        lots: sizing.lots,
        price: entryPrice(position.side as OrderSideValue, quote),
        leverage: position.leverage,
      });
      return {
        ...base,
        lots: sizing.lots.toNumber(),
        skip_reason: null,
        // As the order will be charged and shown: a margin to 6 decimals, not rounded to the cent.
        margin: toJsonNumber(charges.margin, PROFIT_DECIMALS),
        fee: toJsonNumber(charges.fee, MONEY),
      };
    });
    return {
      lines,
      fee_pct: provider.feePct,
      min_amount: toJsonNumber(settings.minAmount, MONEY),
      free_margin: toJsonNumber(mine.freeMargin, MONEY),
      stop_loss_at: toJsonNumber(copyStopLossLevel(amount, stopLossPct), MONEY),
    };
  }

  private async live(userId: number, copyId: number): Promise<CopyRow> {
    const copy = await this.core.ownCopy(userId, copyId);
    if (copy.status === 'stopped') throw rejected('copy_stopped');
    return copy;
  }

  private async checkAmount(userId: number, amount: string) {
    const [{ minAmount }, figures] = await Promise.all([this.core.settings(), this.core.deps.trading.figures(userId)]);
    const problem = followAmountError({ amount, minAmount, freeMargin: figures.freeMargin });
    if (problem) {
      throw invalid(problem, { min: minAmount.toFixed(2), free: figures.freeMargin.toDecimalPlaces(2, 1).toFixed(2) });
    }
  }

  /** Copies as their follower sees them: the provider's name, the result so far (realised + floating) and what is open. */
  async views(userId: number, rows: CopyRow[]): Promise<CopyView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [providers, links] = await Promise.all([
      this.core.db
        .select({ id: copyProviders.id, nickname: copyProviders.nickname, automated: copyProviders.automated })
        .from(copyProviders)
        .where(sql`${copyProviders.id} IN ${[...new Set(rows.map((row) => row.providerId))]}`),
      this.core.db
        .select({ copyId: copyOrders.copyId, orderId: copyOrders.followerOrderId })
        .from(copyOrders)
        .where(and(eq(copyOrders.status, 'open'), sql`${copyOrders.copyId} = ANY(${idArray(ids)})`)),
    ]);
    const orders = await this.core.deps.trading.ordersByIds(links.map((link) => link.orderId!));
    const floating = new Map<number, { value: Dec; open: number }>();
    for (const link of links) {
      const order = orders.get(link.orderId!);
      if (!order || order.status !== OrderStatus.holding || order.userId !== userId) continue;
      const sum = floating.get(link.copyId) ?? { value: dec(0), open: 0 };
      floating.set(link.copyId, {
        value: sum.value.plus(this.core.deps.trading.floatingOf(order)).minus(order.fee),
        open: sum.open + 1,
      });
    }
    const byId = new Map(providers.map((provider) => [provider.id, provider]));
    return rows.map((row) => {
      const open = floating.get(row.id) ?? { value: dec(0), open: 0 };
      const realised = dec(row.realised);
      return {
        id: row.id,
        provider_id: row.providerId,
        nickname: byId.get(row.providerId)?.nickname ?? '',
        automated: byId.get(row.providerId)?.automated ?? false,
        amount: toJsonNumber(row.amount, MONEY),
        stop_loss_pct: row.stopLossPct,
        status: row.status,
        stop_reason: row.stopReason as CopyView['stop_reason'],
        realised: toJsonNumber(realised, MONEY),
        floating: toJsonNumber(open.value, MONEY),
        pnl: toJsonNumber(realised.plus(open.value), MONEY),
        open_positions: open.open,
        fees_paid: toJsonNumber(row.feesPaid, MONEY),
        created_at: row.createdAt.getTime(),
      };
    });
  }
}
