import type { PayoutWarningView } from '@pipwise/domain';
import { WithdrawalDecisions } from './decisions.js';
import type { WithdrawalsDeps } from './deps.js';
import { OfferedCurrencies } from './offered-currencies.js';
import { PayoutMethods } from './payout-methods.js';
import { WithdrawalQueue } from './queue.js';
import { WithdrawalRecords } from './records.js';
import { WithdrawalRequests } from './requests.js';

/**
 * Payout methods and withdrawals (docs/architecture.md), one part per concern: the routes use the parts,
 * other modules only the three methods below, which `modules.ts` hands them.
 */
export class WithdrawalsService {
  readonly currencies: OfferedCurrencies;
  readonly payoutMethods: PayoutMethods;
  readonly requests: WithdrawalRequests;
  readonly decisions: WithdrawalDecisions;
  readonly queue: WithdrawalQueue;

  constructor(deps: WithdrawalsDeps) {
    const records = new WithdrawalRecords(deps);
    this.currencies = new OfferedCurrencies(deps);
    this.payoutMethods = new PayoutMethods(deps);
    this.requests = new WithdrawalRequests(deps, records);
    this.decisions = new WithdrawalDecisions(deps, records);
    this.queue = new WithdrawalQueue(deps, records);
  }

  /** The review desk's user summaries. */
  completedTotals(userIds: number[]): Promise<Map<number, string>> {
    return this.queue.completedTotals(userIds);
  }

  /** Whether a queue item exists, before an operator claims it. */
  exists(id: number): Promise<boolean> {
    return this.queue.exists(id);
  }

  /** The back office's user detail. */
  userWarnings(userId: number): Promise<PayoutWarningView[]> {
    return this.payoutMethods.userWarnings(userId);
  }
}
