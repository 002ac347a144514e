import type { AppContext, CoreDeps } from './context.js';
import { createAccountsModule, type AccountsOptions } from './modules/accounts/module.js';
import { createCompaniesModule } from './modules/companies/module.js';
import { createContentModule } from './modules/content/module.js';
import { createDepositsModule } from './modules/deposits/module.js';
import { createFeedbackModule } from './modules/feedback/module.js';
import { createIdentityModule } from './modules/identity/module.js';
import { createMarketModule } from './modules/market/module.js';
import { createNoticesModule } from './modules/notices/module.js';
import { createSettingsModule } from './modules/settings/module.js';
import { createSocialModule } from './modules/social/module.js';
import { createTradingModule } from './modules/trading/module.js';
import { createUploadsModule } from './modules/uploads/module.js';
import { WalletService } from './modules/wallet/service.js';
import { createWithdrawalsModule } from './modules/withdrawals/module.js';
import { createRealtimeModule } from './realtime/hub.js';

/** Test seams: replaceable edges of modules (e.g. a captcha generator whose answers a test can read). */
export interface ContextOverrides {
  accounts?: Partial<Omit<AccountsOptions, 'wallet' | 'settings'>>;
}

/**
 * Builds every bounded context in dependency order. Modules reach each other only through the
 * services handed over here and the event bus.
 */
export async function createContext(deps: CoreDeps, overrides: ContextOverrides = {}): Promise<AppContext> {
  const wallet = new WalletService(deps.database.db);
  const settings = createSettingsModule(deps);
  const accounts = createAccountsModule(deps, { wallet, settings: settings.service, ...overrides.accounts });
  const market = createMarketModule(deps);
  const trading = createTradingModule(deps, { wallet, market: market.service, settings: settings.service });
  const content = createContentModule(deps);
  const notices = createNoticesModule(deps);
  const companies = createCompaniesModule(deps);
  const social = createSocialModule(deps, { trading: trading.service, accounts: accounts.service });
  const uploads = createUploadsModule(deps, { resolveToken: accounts.service.resolveToken });
  const identity = createIdentityModule(deps, { uploads: uploads.service });
  const deposits = createDepositsModule(deps, { wallet, settings: settings.service, uploads: uploads.service });
  const feedback = createFeedbackModule(deps, { uploads: uploads.service });
  const withdrawals = createWithdrawalsModule(deps, {
    wallet,
    settings: settings.service,
    trading: trading.service,
    identity: identity.service,
    notifier: accounts.service,
  });
  const realtime = createRealtimeModule({
    ...deps,
    resolveToken: accounts.service.resolveToken,
    revokeToken: accounts.service.revokeToken,
  });
  return {
    ...deps,
    resolveToken: accounts.service.resolveToken,
    modules: [
      settings.module,
      accounts.module,
      market.module,
      trading.module,
      content.module,
      notices.module,
      companies.module,
      social.module,
      uploads.module,
      identity.module,
      deposits.module,
      withdrawals.module,
      feedback.module,
      realtime.module,
    ],
    market: market.service,
    marketSource: market.source,
    settings: settings.service,
    uploads: uploads.service,
    identity: identity.service,
    hub: realtime.hub,
  };
}
