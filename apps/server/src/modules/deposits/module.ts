import type { CoreDeps, Module } from '../../context.js';
import type { Leadership } from '../../leadership/leadership.js';
import type { AuditService } from '../audit/service.js';
import type { ClaimRelease, UserNotifier } from '../../review/decisions.js';
import type { ReviewDesk } from '../../review/desk.js';
import type { SettingsService } from '../settings/service.js';
import type { WalletService } from '../wallet/service.js';
import { depositRoutes } from './routes.js';
import { seedDepositChannels } from './seed.js';
import { DepositsService, type ProofUploads } from './service.js';

/** How often unchecked deposits past `deposit_expiry_days` are looked for; expiry is by the day, so this is plenty. */
export const DEPOSIT_EXPIRY_INTERVAL_MS = 10 * 60_000;

/**
 * The deposits context: channels, the user's declarations and the operators' decisions. Expiry is
 * work for one process of the cluster: the engine leader sweeps (from the moment it takes the lead),
 * a standby engine and a gateway only serve the endpoints.
 */
export function createDepositsModule(
  deps: CoreDeps,
  services: {
    wallet: WalletService;
    settings: SettingsService;
    uploads: ProofUploads;
    audit: AuditService;
    claims: ClaimRelease;
    notifier: UserNotifier;
    desk: ReviewDesk;
    leadership: Leadership;
  },
) {
  const { desk, leadership, ...rest } = services;
  const service = new DepositsService({ db: deps.database.db, bus: deps.bus, clock: deps.clock, ...rest });
  const mayLead = deps.config.role !== 'gateway';
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = service
      .expireStale(deps.clock.now())
      .catch((error: unknown) => deps.log.error({ err: error }, 'deposit expiry failed'));
  };
  const stopSweeping = async () => {
    clearInterval(timer);
    timer = undefined;
    await sweeping;
  };
  const module: Module & { service: DepositsService } = {
    name: 'deposits',
    service,
    routes: depositRoutes(service, desk),
    seed: () => seedDepositChannels(deps.database.db),
    start: async () => {
      if (!mayLead) return;
      await leadership.serve({
        name: 'deposit expiry',
        lead: async () => {
          // Records that expired while no process led are settled at once, not ten minutes later.
          sweep();
          await sweeping;
          timer = setInterval(sweep, DEPOSIT_EXPIRY_INTERVAL_MS);
          timer.unref();
        },
        resign: stopSweeping,
      });
    },
    stop: stopSweeping,
  };
  return { service, module };
}
