import type { CoreDeps, Module } from '../../context.js';
import type { AuditService } from '../audit/service.js';
import type { SettingsService } from '../settings/service.js';
import type { WalletService } from '../wallet/service.js';
import type { CheckerRule, UserNotifier } from './types.js';
import { AdjustmentsService, type AdjustmentMargin } from './adjustments.js';
import { ReviewClaims } from './claims.js';
import { reviewRoutes, type ReviewServices } from './routes.js';
import { UserSummaries, type SummarySources } from './summary.js';

/**
 * The claims come first: deposits, withdrawals and identity end an item's claim in their decisions.
 * The queues' views (with user summaries) and adjustments come after those services exist.
 */
export function createReviewClaims(deps: CoreDeps, services: { settings: SettingsService; audit: AuditService }) {
  return new ReviewClaims({ db: deps.database.db, clock: deps.clock, ...services });
}

/** The reviews context: the back office's review queues, who is looking at what, and balance adjustments. */
export function createReviewsModule(
  deps: CoreDeps,
  services: Omit<ReviewServices, 'summaries' | 'adjustments'> & { trading: SummarySources['trading'] & AdjustmentMargin } & {
    wallet: WalletService;
    audit: AuditService;
    notifier: UserNotifier;
    fourEyes: CheckerRule;
  },
) {
  const db = deps.database.db;
  const summaries = new UserSummaries(db, services);
  const adjustments = new AdjustmentsService({
    db,
    bus: deps.bus,
    clock: deps.clock,
    wallet: services.wallet,
    audit: services.audit,
    notifier: services.notifier,
    fourEyes: services.fourEyes,
    trading: services.trading,
  });
  const module: Module = { name: 'reviews', routes: reviewRoutes({ ...services, summaries, adjustments }) };
  return { module, adjustments };
}
