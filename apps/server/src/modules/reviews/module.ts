import type { CoreDeps, Module } from '../../context.js';
import type { CheckerRule, UserNotifier } from '../../review/decisions.js';
import type { AuditService } from '../audit/service.js';
import type { WalletService } from '../wallet/service.js';
import { AdjustmentsService, type AdjustmentMargin } from './adjustments.js';
import { reviewRoutes, type ReviewServices } from './routes.js';

/**
 * The reviews context: who is looking at which queue item (claims, whose store lies below the modules
 * because the queues' owners end a claim in their decisions), and balance adjustments.
 */
export function createReviewsModule(
  deps: CoreDeps,
  services: Omit<ReviewServices, 'adjustments'> & {
    trading: AdjustmentMargin;
    wallet: WalletService;
    audit: AuditService;
    notifier: UserNotifier;
    fourEyes: CheckerRule;
  },
) {
  const adjustments = new AdjustmentsService({
    db: deps.database.db,
    bus: deps.bus,
    clock: deps.clock,
    wallet: services.wallet,
    audit: services.audit,
    notifier: services.notifier,
    fourEyes: services.fourEyes,
    trading: services.trading,
  });
  const module: Module = { name: 'reviews', routes: reviewRoutes({ ...services, adjustments }) };
  return { module, adjustments };
}
