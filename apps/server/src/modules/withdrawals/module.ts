import type { CoreDeps, Module } from '../../context.js';
import { IdempotencyStore } from '../../db/idempotency.js';
import { deriveKey } from '../../secret.js';
import type { AuditService } from '../audit/service.js';
import type { CheckerRule, ClaimRelease } from '../../review/decisions.js';
import type { ReviewDesk } from '../../review/desk.js';
import type { SettingsService } from '../settings/service.js';
import type { WalletService } from '../wallet/service.js';
import { WithdrawRates, type MarketRates } from './rates.js';
import { withdrawalRoutes } from './routes.js';
import { seedWithdrawCurrencies } from './seed.js';
import type { KycCheck, MarginReader, OwnerNotifier, WithdrawalRestrictions } from './deps.js';
import { WithdrawalsService } from './service.js';

/** The withdrawals context: withdraw currencies, the user's payout methods and requests, the operators' decisions. */
export function createWithdrawalsModule(
  deps: CoreDeps,
  services: {
    wallet: WalletService;
    settings: SettingsService;
    trading: MarginReader;
    market: MarketRates;
    identity: KycCheck;
    notifier: OwnerNotifier;
    restrictions: WithdrawalRestrictions;
    audit: AuditService;
    claims: ClaimRelease;
    fourEyes: CheckerRule;
    desk: ReviewDesk;
  },
) {
  const { db } = deps.database;
  const { market, desk, ...rest } = services;
  const rates = new WithdrawRates({
    market,
    settings: services.settings,
    clock: deps.clock,
    key: deriveKey(deps.config, 'withdraw-rate-quotes'),
  });
  const service = new WithdrawalsService({
    db,
    bus: deps.bus,
    clock: deps.clock,
    idempotency: new IdempotencyStore(db),
    rates,
    ...rest,
  });
  const module: Module & { service: WithdrawalsService } = {
    name: 'withdrawals',
    service,
    routes: withdrawalRoutes(service, desk, deps.config, deps.clock),
    seed: () => seedWithdrawCurrencies(db, deps.clock.now()),
  };
  return { service, rates, module };
}
