import type { CoreDeps, Module } from './context.js';
import type { TokenResolver } from './http/auth.js';
import type { OperatorResolver } from './http/operator.js';
import type { AuditService } from './modules/audit/service.js';
import type { IdentityService } from './modules/identity/service.js';
import type { MarketService } from './modules/market/api.js';
import type { MarketDataSource } from './modules/market/feed.js';
import type { OperatorsService } from './modules/operators/service.js';
import type { SettingsService } from './modules/settings/service.js';
import type { UploadsService } from './modules/uploads/service.js';
import { createAdminSocketModule } from './backup/admin-socket.js';
import { SoleLeadership, type Leadership } from './leadership/leadership.js';
import { createAuditModule } from './modules/audit/module.js';
import { createBackofficeUsersModule } from './modules/backoffice-users/module.js';
import { RestrictionsService } from './modules/backoffice-users/restrictions.js';
import { createRiskModule } from './modules/risk/module.js';
import { createAccountsModule, type AccountsOptions } from './modules/accounts/module.js';
import { createCompaniesModule } from './modules/companies/module.js';
import { createContentModule } from './modules/content/module.js';
import { createCopyModule } from './modules/copy/module.js';
import { createStrategiesModule } from './modules/strategies/module.js';
import { createDepositsModule } from './modules/deposits/module.js';
import { createDepositChannelsModule } from './modules/deposits/channels.js';
import { createFeedbackModule } from './modules/feedback/module.js';
import { createIdentityModule } from './modules/identity/module.js';
import { createMarketModule } from './modules/market/module.js';
import { createOperatorsModule } from './modules/operators/module.js';
import { createReviewsModule } from './modules/reviews/module.js';
import { createNoticesModule } from './modules/notices/module.js';
import { createSettingsModule } from './modules/settings/module.js';
import { createSocialModule } from './modules/social/module.js';
import { createTradingModule } from './modules/trading/module.js';
import { createUploadsModule } from './modules/uploads/module.js';
import { WalletService } from './modules/wallet/service.js';
import { createWithdrawalsModule } from './modules/withdrawals/module.js';
import { createWithdrawCurrenciesModule } from './modules/withdrawals/currencies.js';
import { createObservabilityModule } from './observability/module.js';
import { createRealtimeModule, type Hub } from './realtime/hub.js';
import { SharedLimits } from './security/shared-limits.js';
import { ReviewClaims } from './review/claims.js';
import { ReviewDesk } from './review/desk.js';
import { UserSummaries } from './review/summary.js';

/** The running application: every module, and the services the HTTP layer, the command line and tests reach. */
export interface AppContext extends CoreDeps {
  resolveToken: TokenResolver;
  /** Back-office sessions: a different kind of token from users'. */
  resolveOperator: OperatorResolver;
  modules: Module[];
  /** The per-address abuse budgets (HTTP and socket logins): in memory, or shared through Redis. */
  limits: SharedLimits;
  /** The operator audit log (append-only, hash-chained). */
  audit: AuditService;
  operators: OperatorsService;
  market: MarketService;
  /** The running price source (a `ManualFeed` when tests chose it). */
  marketSource: MarketDataSource;
  /** Operator settings (the back office writes them through it). */
  settings: SettingsService;
  /** Users' images; the back office and tests read them through it. */
  uploads: UploadsService;
  /** Real-name verification; withdrawals ask it whether a user is verified. */
  identity: IdentityService;
  hub: Hub;
  /** Which engine process leads; main.ts starts and stops it around the modules. */
  leadership: Leadership;
}

/** Test seams: replaceable edges of modules (e.g. a captcha generator whose answers a test can read). */
export interface ContextOverrides {
  accounts?: Partial<Omit<AccountsOptions, 'wallet' | 'settings'>>;
}

/**
 * Builds every bounded context in dependency order. Modules reach each other only through the
 * services handed over here and the event bus; what several of them share lies below them (`review/`,
 * `cashier/`, `positions/`, `security/`, `i18n/`, `http/`, `db/`). test/architecture.test.ts fails on
 * any module importing another's code.
 */
export async function createContext(deps: CoreDeps, overrides: ContextOverrides = {}): Promise<AppContext> {
  const wallet = new WalletService(deps.database.db);
  const audit = createAuditModule(deps);
  // The operators' login steps up with the accounts' captcha, which exists once accounts does (below).
  const operators = createOperatorsModule(deps, {
    audit: audit.service,
    captcha: { issue: () => accounts.captcha.issue(), verify: (id, answer) => accounts.captcha.verify(id, answer) },
  });
  const settings = createSettingsModule(deps, { audit: audit.service, approvals: operators.approvals });
  const accounts = createAccountsModule(deps, { wallet, settings: settings.service, ...overrides.accounts });
  // Without one handed in (one process, tests), this process leads from the start.
  const leadership = deps.leadership ?? new SoleLeadership();
  const market = createMarketModule(deps, { audit: audit.service, leadership });
  const restrictions = new RestrictionsService({ db: deps.database.db, bus: deps.bus, clock: deps.clock });
  const trading = createTradingModule(deps, {
    wallet,
    market: market.service,
    settings: settings.service,
    restrictions,
    disclosure: {
      refuseUntilAccepted: accounts.service.refuseUntilDisclosureAccepted,
      remember: accounts.service.rememberDisclosures,
    },
    leadership,
  });
  const content = createContentModule(deps, { audit: audit.service });
  const notices = createNoticesModule(deps, { audit: audit.service, notifier: accounts.service, trading: trading.service });
  const companies = createCompaniesModule(deps, { audit: audit.service });
  const social = createSocialModule(deps, { trading: trading.service, accounts: accounts.service });
  const copy = createCopyModule(deps, {
    settings: settings.service,
    wallet,
    market: market.service,
    trading: trading.service,
    accounts: accounts.service,
    leadership,
    audit: audit.service,
    backtests: {
      backtestOf: (userId) => strategies.service.backtestOf(userId),
      bioOf: (userId, lang) => strategies.service.bioOf(userId, lang),
    },
  });
  const strategies = createStrategiesModule(deps, {
    accounts: accounts.service,
    trading: trading.service,
    market: market.engine,
    settings: settings.service,
    providers: copy.service,
    leadership,
  });
  const uploads = createUploadsModule(deps, { resolveToken: accounts.service.resolveToken });
  const claims = new ReviewClaims({ db: deps.database.db, clock: deps.clock, settings: settings.service, audit: audit.service });
  // Each queue item carries its user's summary, read from the modules built below: it is first asked for by a request.
  const summaries = new UserSummaries(deps.database.db, {
    trading: trading.service,
    identity: { statuses: (userIds) => identity.service.statuses(userIds) },
    deposits: { finishedTotals: (userIds) => deposits.service.finishedTotals(userIds) },
    withdrawals: { completedTotals: (userIds) => withdrawals.service.completedTotals(userIds) },
  });
  const desk = new ReviewDesk(claims, summaries);
  const decisions = { audit: audit.service, claims, desk, notifier: accounts.service, fourEyes: operators.fourEyes };
  const identity = createIdentityModule(deps, { uploads: uploads.service, ...decisions });
  const deposits = createDepositsModule(deps, {
    wallet,
    settings: settings.service,
    uploads: uploads.service,
    leadership,
    ...decisions,
  });
  const feedback = createFeedbackModule(deps, { uploads: uploads.service, audit: audit.service });
  const withdrawals = createWithdrawalsModule(deps, {
    wallet,
    settings: settings.service,
    trading: trading.service,
    market: market.service,
    identity: identity.service,
    restrictions,
    ...decisions,
  });
  const reviews = createReviewsModule(deps, {
    queues: { deposits: deposits.service, withdrawals: withdrawals.service, kyc: identity.service },
    trading: trading.service,
    wallet,
    ...decisions,
  });
  const backofficeUsers = createBackofficeUsersModule(deps, {
    wallet,
    accounts: accounts.service,
    trading: trading.service,
    payouts: withdrawals.service,
    restrictions,
    audit: audit.service,
  });
  const risk = createRiskModule(deps, {
    engine: trading.engine,
    market: market.service,
    trading: trading.service,
    leadership,
  });
  const limits = new SharedLimits(deps.config.redisUrl, deps.log);
  const realtime = createRealtimeModule({
    ...deps,
    limits,
    resolveToken: accounts.service.resolveToken,
    revokeToken: accounts.service.revokeToken,
  });
  // Last: it starts once everything else runs (then this process's engine is up) and stops first.
  const observability = createObservabilityModule(deps, {
    market: market.service,
    sockets: () => realtime.hub.stats(),
    leadership: deps.leadership,
  });
  return {
    ...deps,
    resolveToken: accounts.service.resolveToken,
    resolveOperator: operators.service.resolve,
    limits,
    modules: [
      // First, so it stops last: the HTTP limits count through it until the server has closed.
      { name: 'limits', stop: () => limits.close() },
      audit.module,
      operators.module,
      settings.module,
      accounts.module,
      market.module,
      trading.module,
      content.module,
      notices.module,
      companies.module,
      social.module,
      copy.module,
      // After copy: copy leads first, so the strategies' first orders are copied.
      strategies.module,
      uploads.module,
      identity.module,
      deposits.module,
      createDepositChannelsModule(deps, { audit: audit.service }),
      withdrawals.module,
      createWithdrawCurrenciesModule(deps, { audit: audit.service, rates: withdrawals.rates }),
      reviews.module,
      feedback.module,
      backofficeUsers.module,
      risk.module,
      realtime.module,
      createAdminSocketModule(deps),
      observability.module,
    ],
    market: market.service,
    marketSource: market.source,
    settings: settings.service,
    uploads: uploads.service,
    identity: identity.service,
    hub: realtime.hub,
    leadership,
    audit: audit.service,
    operators: operators.service,
  };
}
