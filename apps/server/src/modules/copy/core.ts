import { dec, notFound, type BacktestView, type Dec } from '@pipwise/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { copies, copyProviders } from '../../db/schema.js';
import type { EventBus } from '../../realtime/bus.js';
import type { AccountsService } from '../accounts/service.js';
import type { MarketService } from '../market/api.js';
import type { SettingsService } from '../settings/service.js';
import type { TradingService } from '../trading/service.js';
import type { WalletService } from '../wallet/service.js';
import { eq } from 'drizzle-orm';

export type ProviderRow = typeof copyProviders.$inferSelect;
export type CopyRow = typeof copies.$inferSelect;

/** What the copy module shows of the broker's automated strategies (the strategies module computes it). */
export interface Backtests {
  backtestOf(userId: number): BacktestView | null;
  /** The strategy's description in the reader's language. */
  bioOf(userId: number, lang: string): string | null;
}

export interface CopyDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  settings: SettingsService;
  wallet: WalletService;
  market: Pick<MarketService, 'getInstrument' | 'getQuote' | 'isOpen'>;
  trading: Pick<
    TradingService,
    | 'submit'
    | 'usedIdempotencyKeys'
    | 'prepareAccounts'
    | 'close'
    | 'setStops'
    | 'figures'
    | 'figuresOfMany'
    | 'floatingOf'
    | 'holdingOrders'
    | 'ordersByIds'
    | 'closedPositionsOf'
    | 'settings'
    | 'usdRate'
  >;
  accounts: Pick<AccountsService, 'profiles'>;
  backtests?: Backtests;
}

/** The operator's copy-trading settings (defaults in db/seed.ts). */
export interface CopySettings {
  minDays: number;
  minTrades: number;
  minAmount: Dec;
  feeMaxPct: number;
  publicDelayMinutes: number;
  /** Operators turn the automated strategies off: they are then not listed either. */
  strategiesEnabled: boolean;
}

/** What the copy module's parts share: dependencies, settings and the look-ups of providers and copies. */
export class CopyCore {
  readonly settings: () => Promise<CopySettings>;

  constructor(readonly deps: CopyDeps) {
    this.settings = deps.settings.derived((values) => ({
      minDays: Number(values.copy_min_days),
      minTrades: Number(values.copy_min_trades),
      minAmount: dec(values.copy_min_amount),
      feeMaxPct: Number(values.copy_fee_max_pct),
      publicDelayMinutes: Number(values.copy_public_delay_minutes),
      strategiesEnabled: values.copy_strategies_enabled === '1',
    }));
  }

  get db() {
    return this.deps.db;
  }

  now() {
    return this.deps.clock.now();
  }

  async provider(providerId: number): Promise<ProviderRow> {
    const [row] = await this.db.select().from(copyProviders).where(eq(copyProviders.id, providerId)).limit(1);
    if (!row) throw notFound('copy_provider_invalid');
    return row;
  }

  async providerOfUser(userId: number): Promise<ProviderRow | null> {
    const [row] = await this.db.select().from(copyProviders).where(eq(copyProviders.userId, userId)).limit(1);
    return row ?? null;
  }

  /** The follower's own copy; another user's copy is "not found". */
  async ownCopy(userId: number, copyId: number): Promise<CopyRow> {
    const [row] = await this.db.select().from(copies).where(eq(copies.id, copyId)).limit(1);
    if (!row || row.followerId !== userId) throw notFound('copy_id_invalid');
    return row;
  }

  async isDemo(userId: number): Promise<boolean> {
    const profile = (await this.deps.accounts.profiles([userId])).get(userId);
    return profile?.isDemo ?? false;
  }
}
