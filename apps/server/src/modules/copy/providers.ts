import {
  conflict,
  dec,
  forbidden,
  invalid,
  notFound,
  providerFeeError,
  providerFigures,
  providerListable,
  providerNicknameKey,
  toJsonNumber,
  type Dec,
  type MyProviderView,
  type ProviderEntryView,
  type ProviderProfileView,
  type TCopyProviderRequest,
  type TCopyProviderUpdate,
  type TProviderListQuery,
} from '@pipwise/domain';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/idempotency.js';
import { rowsOf } from '../../db/rows.js';
import { copies, copyProviders, equitySnapshots } from '../../db/schema.js';
import type { OrderRow } from '../trading/service.js';
import type { LedgerType } from '../wallet/service.js';
import type { Copier } from './copier.js';
import type { CopyCore, ProviderRow } from './core.js';

/** Money that came in or went out from outside trading: not a gain or a loss of the provider's. */
const FLOW_TYPES: readonly LedgerType[] = [
  'deposit',
  'withdrawal',
  'withdrawal_fee',
  'adjustment',
  'demo_grant',
  'demo_reset',
  'copy_fee_income',
];
const DAY_MS = 86_400_000;
const THREE_WEEKS_MS = 21 * DAY_MS;
const MONTH_MS = 30.44 * DAY_MS;
const PCT = 2;
const MONEY = 2;
export const PROVIDERS_PAGE_SIZE = 20;
/** The list is public and costs a figure pass over every provider: computed at most once a minute. */
const LIST_TTL_MS = 60_000;

const pct = (value: Dec | null | undefined) => (value === null || value === undefined ? null : toJsonNumber(value, PCT));
const share = (part: Dec, whole: Dec) => (whole.isZero() ? 0 : toJsonNumber(part.div(whole).times(100), PCT));

function mostCommon<T>(values: T[]): T | undefined {
  const counts = new Map<T, number>();
  let best: T | undefined;
  for (const value of values) {
    const count = (counts.get(value) ?? 0) + 1;
    counts.set(value, count);
    if (best === undefined || count > counts.get(best)!) best = value;
  }
  return best;
}

interface ProviderData {
  entry: ProviderEntryView;
  figures: ReturnType<typeof providerFigures>;
  closed: OrderRow[];
  listable: boolean;
}

/** Providers: becoming one, their public figures, the list and the profile. */
export class Providers {
  private cached: { at: number; list: Promise<ProviderData[]> } | null = null;

  constructor(
    private readonly core: CopyCore,
    private readonly copier: Copier,
  ) {}

  /** Drops the computed list: an operator's hide or suspension shows at once. */
  forget() {
    this.cached = null;
  }

  async become(userId: number, body: TCopyProviderRequest, options: { automated?: boolean } = {}): Promise<MyProviderView> {
    await this.checkFee(body.fee_pct);
    const existing = await this.core.providerOfUser(userId);
    if (existing?.status === 'suspended') throw forbidden('copy_provider_suspended');
    const values = {
      nickname: body.nickname,
      nicknameKey: providerNicknameKey(body.nickname),
      bio: body.bio,
      feePct: body.fee_pct,
      status: 'active' as const,
    };
    try {
      if (existing) {
        // Not over a suspension that committed since the look above.
        const [back] = await this.core.db
          .update(copyProviders)
          .set(values)
          .where(and(eq(copyProviders.id, existing.id), ne(copyProviders.status, 'suspended')))
          .returning({ id: copyProviders.id });
        if (!back) throw forbidden('copy_provider_suspended');
      } else await this.core.db.insert(copyProviders).values({ userId, automated: options.automated ?? false, ...values });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('copy_nickname_taken');
      throw error;
    }
    this.cached = null;
    return (await this.mine(userId))!;
  }

  async update(userId: number, body: TCopyProviderUpdate): Promise<MyProviderView> {
    const provider = await this.own(userId);
    if (body.fee_pct !== undefined) await this.checkFee(body.fee_pct);
    try {
      await this.core.db
        .update(copyProviders)
        .set({
          ...(body.nickname !== undefined && { nickname: body.nickname, nicknameKey: providerNicknameKey(body.nickname) }),
          ...(body.bio !== undefined && { bio: body.bio }),
          ...(body.fee_pct !== undefined && { feePct: body.fee_pct }),
        })
        .where(eq(copyProviders.id, provider.id));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('copy_nickname_taken');
      throw error;
    }
    this.cached = null;
    return (await this.mine(userId))!;
  }

  /**
   * Stops being copied: every copy stops, its positions staying with the followers. One transaction
   * with the status change, whose row lock a follow shares: no copy is made after it.
   */
  async stopBeing(userId: number): Promise<MyProviderView> {
    const provider = await this.own(userId);
    if (provider.status === 'active') {
      const stopping = await this.core.db.transaction(async (tx) => {
        // Only from active: a suspension that committed meanwhile stays (and has stopped the copies).
        await tx
          .update(copyProviders)
          .set({ status: 'stopped' })
          .where(and(eq(copyProviders.id, provider.id), eq(copyProviders.status, 'active')));
        return this.copier.markStopped(tx, eq(copies.providerId, provider.id), 'provider_stopped', true);
      });
      await this.copier.afterStop(stopping);
    }
    this.cached = null;
    return (await this.mine(userId))!;
  }

  async mine(userId: number): Promise<MyProviderView | null> {
    const provider = await this.core.providerOfUser(userId);
    if (!provider) return null;
    const [{ feeMaxPct }, counts, data] = await Promise.all([this.core.settings(), this.copierCounts(), this.data([provider])]);
    const [fees] = rowsOf(
      await this.core.db.execute(
        sql`SELECT COALESCE(sum(fees_paid), 0) AS earned FROM ${copies} WHERE provider_id = ${provider.id}`,
      ),
    );
    const count = counts.get(provider.id);
    return {
      provider_id: provider.id,
      nickname: provider.nickname,
      bio: provider.bio,
      fee_pct: provider.feePct,
      status: provider.status,
      suspended_reason: provider.suspendedReason,
      listed: data[0]!.listable && provider.status === 'active' && !provider.hidden,
      copiers: count?.copiers ?? 0,
      copied_amount: toJsonNumber(count?.amount ?? dec(0), MONEY),
      fees_earned: toJsonNumber(fees!.earned as string, MONEY),
      fee_max_pct: feeMaxPct,
    };
  }

  /** Listed providers, filtered and sorted; automated strategies are listed from the first day. */
  async list(query: TProviderListQuery): Promise<ProviderEntryView[]> {
    const { strategiesEnabled } = await this.core.settings();
    let rows = (await this.listed())
      .filter((data) => data.listable && (strategiesEnabled || !data.entry.automated))
      .map((data) => data.entry);
    if (query.risk_max !== undefined) rows = rows.filter((row) => row.risk_score !== null && row.risk_score <= query.risk_max!);
    if (query.min_months !== undefined) rows = rows.filter((row) => row.months >= query.min_months!);
    const sorted = [...rows].sort((a, b) => {
      if (query.sort === 'copiers') return b.copiers - a.copiers || a.provider_id - b.provider_id;
      if (query.sort === 'drawdown') return a.max_drawdown - b.max_drawdown || a.provider_id - b.provider_id;
      return (b.return_12m ?? -Infinity) - (a.return_12m ?? -Infinity) || a.provider_id - b.provider_id;
    });
    const start = (query.page - 1) * PROVIDERS_PAGE_SIZE;
    return sorted.slice(start, start + PROVIDERS_PAGE_SIZE);
  }

  async profile(providerId: number, viewerId: number | null, lang: string): Promise<ProviderProfileView> {
    const provider = await this.core.provider(providerId);
    if (provider.status === 'suspended' || (provider.hidden && provider.userId !== viewerId))
      throw notFound('copy_provider_invalid');
    const [data] = await this.data([provider]);
    const { publicDelayMinutes } = await this.core.settings();
    const shownBefore = +this.core.now() - publicDelayMinutes * 60_000;
    const open = (await this.core.deps.trading.holdingOrders(provider.userId)).filter(
      (order) => order.openedAt !== null && +order.openedAt <= shownBefore,
    );
    const codes = new Map<string, number>();
    for (const order of data!.closed) {
      const code = this.code(order);
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    const [mine] =
      viewerId === null
        ? []
        : await this.core.db
            .select({ id: copies.id })
            .from(copies)
            .where(and(eq(copies.providerId, providerId), eq(copies.followerId, viewerId), ne(copies.status, 'stopped')));
    return {
      ...data!.entry,
      bio: (provider.automated ? this.core.deps.backtests?.bioOf(provider.userId, lang) : null) ?? provider.bio,
      status: provider.status,
      index: data!.figures.index.map((point) => ({ day: point.day, value: toJsonNumber(point.value, 4) })),
      monthly: data!.figures.monthly.map((month) => ({ month: month.month, return: toJsonNumber(month.pct, PCT) })),
      open_positions: open.map((order) => ({
        code: this.code(order),
        side: order.side,
        lots: Number(order.lots),
        multiple: order.leverage,
        open_price: Number(order.openPrice),
        opened_at: order.openedAt!.getTime(),
      })),
      delay_minutes: publicDelayMinutes,
      instruments: [...codes].map(([code, trades]) => ({ code, trades })).sort((a, b) => b.trades - a.trades),
      backtest: provider.automated ? (this.core.deps.backtests?.backtestOf(provider.userId) ?? null) : null,
      my_copy_id: mine?.id ?? null,
    };
  }

  /** Every provider the public may see, with figures: computed at most once a minute, callers share it. */
  private listed(): Promise<ProviderData[]> {
    const now = this.core.now().getTime();
    if (this.cached && now - this.cached.at < LIST_TTL_MS) return this.cached.list;
    const list = (async () => {
      const rows = await this.core.db
        .select()
        .from(copyProviders)
        .where(and(eq(copyProviders.status, 'active'), eq(copyProviders.hidden, false)))
        .orderBy(asc(copyProviders.id));
      return this.data(rows);
    })();
    this.cached = { at: now, list };
    list.catch(() => {
      if (this.cached?.list === list) this.cached = null;
    });
    return list;
  }

  /** The figures of these providers from their snapshots, cash flows and closed positions (live only). */
  async data(providers: ProviderRow[]): Promise<ProviderData[]> {
    if (providers.length === 0) return [];
    const userIds = providers.map((provider) => provider.userId);
    const [snapshots, flows, closed, counts, profiles, settings] = await Promise.all([
      this.core.db
        .select()
        .from(equitySnapshots)
        .where(sql`${equitySnapshots.userId} IN ${userIds}`)
        .orderBy(equitySnapshots.day),
      this.core.deps.wallet.entriesOfTypes(userIds, FLOW_TYPES),
      this.core.deps.trading.closedPositionsOf(userIds),
      this.copierCounts(),
      this.core.deps.accounts.profiles(userIds),
      this.core.settings(),
    ]);
    const now = this.core.now();
    return providers.map((provider) => {
      const own = closed.filter((order) => order.userId === provider.userId);
      const mySnapshots = snapshots.filter((row) => row.userId === provider.userId);
      const figures = providerFigures({
        snapshots: mySnapshots,
        flows: flows.filter((flow) => flow.userId === provider.userId).map((flow) => ({ at: flow.at, amount: flow.amount })),
        closedPositions: own.map((order) => ({
          openedAt: order.openedAt!,
          closedAt: order.closedAt!,
          profit: dec(order.profit ?? 0).minus(order.fee),
        })),
        now,
      });
      const recent = own.filter((order) => +now - +order.closedAt! <= THREE_WEEKS_MS);
      const sum = (orders: OrderRow[], pick: (order: OrderRow) => Dec) =>
        orders.reduce((total, order) => total.plus(pick(order)), dec(0));
      const profitOf = (order: OrderRow) => dec(order.profit ?? 0);
      const marginOf = (order: OrderRow) => dec(order.margin);
      const count = counts.get(provider.id);
      const profile = profiles.get(provider.userId);
      const firstSnapshot = mySnapshots[0];
      const entry: ProviderEntryView = {
        user: profile?.name ?? provider.nickname,
        uid: profile?.uid ?? 0,
        three_week_profit: toJsonNumber(sum(recent, profitOf), MONEY),
        three_week_rate: share(sum(recent, profitOf), sum(recent, marginOf)),
        three_week_win: share(dec(recent.filter((order) => profitOf(order).gt(0)).length), dec(recent.length)),
        total_rate: share(sum(own, profitOf), sum(own, marginOf)),
        total_trade_num: own.length,
        multiple: mostCommon((recent.length > 0 ? recent : own).map((order) => order.leverage)) ?? 0,
        code: mostCommon((recent.length > 0 ? recent : own).map((order) => this.code(order))) ?? '',
        return_1m: pct(figures.returns['1m']?.pct),
        return_3m: pct(figures.returns['3m']?.pct),
        return_12m: pct(figures.returns['12m']?.pct),
        return_all: pct(figures.returns.all?.pct),
        max_drawdown: toJsonNumber(figures.maxDrawdownPct, PCT),
        risk_score: figures.riskScore,
        volatility: pct(figures.volatilityPct),
        win_rate: pct(figures.winRatePct),
        avg_holding_hours: figures.averageHoldingMs === null ? null : toJsonNumber(figures.averageHoldingMs / 3_600_000, 1),
        trades_per_week: toJsonNumber(figures.tradesPerWeek, 1),
        months: firstSnapshot ? Math.floor((+now - Date.parse(firstSnapshot.day)) / MONTH_MS) : 0,
        copiers: count?.copiers ?? 0,
        copied_amount: toJsonNumber(count?.amount ?? dec(0), MONEY),
        provider_id: provider.id,
        nickname: provider.nickname,
        automated: provider.automated,
        demo: profile?.isDemo ?? false,
        fee_pct: provider.feePct,
      };
      const listable =
        provider.automated ||
        providerListable({
          firstClosedAt: own[0]?.closedAt ?? null,
          closedCount: own.length,
          now,
          minDays: settings.minDays,
          minTrades: settings.minTrades,
        });
      return { entry, figures, closed: own, listable };
    });
  }

  private code(order: OrderRow): string {
    return this.core.deps.market.getInstrument(order.instrumentId)?.showCode ?? String(order.instrumentId);
  }

  private async copierCounts(): Promise<Map<number, { copiers: number; amount: Dec }>> {
    const rows = rowsOf(
      await this.core.db.execute(sql`
        SELECT provider_id, count(*) AS copiers, sum(amount) AS amount FROM ${copies}
        WHERE status <> 'stopped' GROUP BY provider_id`),
    );
    return new Map(
      rows.map((row) => [Number(row.provider_id), { copiers: Number(row.copiers), amount: dec(row.amount as string) }]),
    );
  }

  private async own(userId: number): Promise<ProviderRow> {
    const provider = await this.core.providerOfUser(userId);
    if (!provider) throw notFound('copy_not_provider');
    if (provider.status === 'suspended') throw forbidden('copy_provider_suspended');
    return provider;
  }

  private async checkFee(feePct: number) {
    const { feeMaxPct } = await this.core.settings();
    const problem = providerFeeError(feePct, feeMaxPct);
    if (problem) throw invalid(problem, { max: feeMaxPct });
  }
}
