import type { TCopyProviderRequest } from '@pipwise/domain';
import { Copier } from './copier.js';
import { servedProviders } from './links.js';
import { CopyCore, type CopyDeps } from './core.js';
import { Fees } from './fees.js';
import { Follows } from './follows.js';
import { Providers } from './providers.js';
import { EquitySnapshots } from './snapshots.js';

export type { Backtests, CopyDeps } from './core.js';

declare module '../../realtime/bus.js' {
  interface BusEvents {
    /** A provider got a copy: the copier (on the engine leader) acts on that user's order changes from now on. */
    'copy.served': { userId: number; providerId: number };
  }
}

/** How often the leader checks the copies' stop-losses, and settles anything a lost event left behind. */
export const STOP_LOSS_CHECK_MS = 1_000;
export const RECONCILE_ALL_MS = 30_000;
export const DAILY_JOBS_CHECK_MS = 60_000;

/**
 * Copy trading (docs/architecture.md, "Copy trading"): providers and their figures, followers' copies,
 * and the leader's copier, stop-loss checks, fee settlements and daily equity snapshots.
 */
export class CopyService {
  readonly core: CopyCore;
  readonly fees: Fees;
  readonly copier: Copier;
  readonly providers: Providers;
  readonly follows: Follows;
  readonly snapshots: EquitySnapshots;
  /** Provider users whose order changes the copier acts on, with their provider ids (kept while leading). */
  private served = new Map<number, number>();
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;
  private work: Promise<unknown> = Promise.resolve();

  constructor(deps: CopyDeps, crash: { afterCopies: number | undefined; dataDir: string }) {
    this.core = new CopyCore(deps);
    this.fees = new Fees(this.core);
    this.copier = new Copier(this.core, this.fees, crash);
    this.providers = new Providers(this.core, this.copier);
    // The leader may be another process: a new copy is announced on the bus.
    this.follows = new Follows(this.core, this.copier, (userId, providerId) =>
      deps.bus.publish('copy.served', { userId, providerId }),
    );
    this.snapshots = new EquitySnapshots(this.core);
  }

  /** For the broker's automated strategies: a provider listed from the first day, labelled automated. */
  becomeProvider(userId: number, profile: TCopyProviderRequest, options: { automated: true }) {
    return this.providers.become(userId, profile, options);
  }

  /** As the engine leader: copy on every change of a served provider, and run the periodic checks. */
  async lead() {
    const { bus, log } = this.core.deps;
    this.served = await servedProviders(this.core.db);
    const copyNow = (providerId: number) =>
      void this.copier.schedule(providerId).catch((error: unknown) => log.error({ err: error }, 'copy failed'));
    const unsubscribers = [
      bus.subscribe('copy.served', ({ userId, providerId }) => {
        this.served.set(userId, providerId);
        // A new copy opens what the provider holds now, not at the next sweep up to 30 s later.
        copyNow(providerId);
      }),
      bus.subscribe('trading.changed', ({ userId }) => {
        const providerId = this.served.get(userId);
        if (providerId !== undefined) copyNow(providerId);
      }),
    ];
    this.unsubscribe = () => unsubscribers.forEach((unsubscribe) => unsubscribe());
    const every = (ms: number, name: string, job: () => Promise<unknown>) => {
      const timer = setInterval(() => {
        this.work = this.work.then(job).catch((error: unknown) => log.error({ err: error }, `${name} failed`));
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(STOP_LOSS_CHECK_MS, 'copy stop-loss check', () => this.copier.checkStopLosses());
    every(RECONCILE_ALL_MS, 'copy reconcile', async () => {
      this.served = await servedProviders(this.core.db);
      await this.copier.reconcileAll();
    });
    every(DAILY_JOBS_CHECK_MS, 'copy daily jobs', () => this.dailyJobs());
    // What happened while no process led: fills not yet copied, closes not yet followed, a missed midnight.
    // Caught up behind the lead, not before it: the day's snapshot alone reads every account, and
    // the process serves meanwhile (at a million positions its start waited over a minute for it).
    this.work = this.copier
      .reconcileAll()
      .then(() => this.dailyJobs())
      .catch((error: unknown) => log.error({ err: error }, 'copy catch-up failed'));
  }

  async resign() {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    // Reconciles the bus set going finish on this process before another leads or the database closes.
    await Promise.all([this.work.catch(() => undefined), this.copier.idle()]);
  }

  async dailyJobs() {
    await this.snapshots.takeIfDue();
    await this.fees.settleDue();
  }
}
