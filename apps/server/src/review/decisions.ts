import type { Language } from '@pipwise/domain';
import type { Executor } from '../db/client.js';
import type { Operator } from '../http/operator.js';

/** The back office's review queues, as claims and paths name them. */
export const REVIEW_QUEUES = ['deposits', 'withdrawals', 'kyc'] as const;
export type ReviewQueue = (typeof REVIEW_QUEUES)[number];

/** An operator deciding something, and the address they did it from (both go on the audit row). */
export type Decider = Operator & { ip?: string | null };

/**
 * The checker rule of four-eyes decisions (the operators context answers it): whether the second operator
 * is the first, or one of them made or enrolled the other.
 */
export interface CheckerRule {
  related(checkerId: number, makerId: number, executor?: Executor): Promise<boolean>;
  /** The maker as a record names them (`operator:<email>`). */
  relatedToActor(checkerId: number, makerActor: string, executor?: Executor): Promise<boolean>;
}

/** A decided item is nobody's to look at any more: its claim goes in the decision's transaction. */
export interface ClaimRelease {
  releaseAll(tx: Executor, queue: ReviewQueue, itemId: string | number): Promise<void>;
}

/** Tells a user something by e-mail (or SMS without one), in their language (the accounts context delivers). */
export interface UserNotifier {
  notifyUser(userId: number, compose: (lang: Language) => { subject: string; text: string }): Promise<void>;
}
