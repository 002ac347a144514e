import type { Dec, Language } from '@pipwise/domain';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import type { IdempotencyStore } from '../../db/idempotency.js';
import type { EventBus } from '../../realtime/bus.js';
import type { CheckerRule, ClaimRelease } from '../../review/decisions.js';
import type { AuditService } from '../audit/service.js';
import type { SettingsService } from '../settings/service.js';
import type { WalletService } from '../wallet/service.js';
import type { WithdrawRates } from './rates.js';

/** Whether a user passed real-name verification, and the name verified (the identity context answers). */
export interface KycCheck {
  isVerified(userId: number): Promise<boolean>;
  verifiedName(userId: number): Promise<string | null>;
}

/** Account free margin, read in the caller's transaction (the trading context answers). */
export interface MarginReader {
  figures(userId: number, tx: Executor): Promise<{ freeMargin: Dec }>;
}

/** Security notices to the account owner (the accounts context delivers them). */
export interface OwnerNotifier {
  notifyUser(userId: number, compose: (lang: Language) => { subject: string; text: string }): Promise<void>;
}

/** The back office's withdrawals freeze, read in the request's transaction after its wallet lock. */
export interface WithdrawalRestrictions {
  refuseFrozenWithdrawals(tx: Executor, userId: number): Promise<void>;
}

/** What the withdrawals context is given; each of its parts takes the few of these it uses. */
export interface WithdrawalsDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  wallet: WalletService;
  settings: SettingsService;
  trading: MarginReader;
  identity: KycCheck;
  notifier: OwnerNotifier;
  restrictions: WithdrawalRestrictions;
  idempotency: IdempotencyStore;
  audit: AuditService;
  claims: ClaimRelease;
  rates: WithdrawRates;
  fourEyes: CheckerRule;
}
