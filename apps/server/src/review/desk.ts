import type { ReviewClaimView, ReviewUserView } from '@pipwise/domain';
import type { ReviewClaims } from './claims.js';
import type { ReviewQueue } from './decisions.js';
import type { UserSummaries } from './summary.js';

/** What a queue item carries besides its own record: who is looking at it, and whose it is. */
export interface QueueItemContext {
  claim: ReviewClaimView | null;
  user: ReviewUserView | null;
}

/** A queue item as claims and summaries know it: its id in the queue, and its user. */
interface QueueItem {
  id: number;
  userId: number;
}

/** One page of a review queue, as every queue answers it. */
export const queuePage = <T>(data: T[], total: number, page: number, pageSize: number) => ({
  data,
  total,
  page,
  page_size: pageSize,
});

/**
 * What the review queues (deposits, withdrawals, real-name) share when they list their items: the uid
 * filter, and each item's live claim and user summary. Each queue's own module serves its list and its
 * decisions.
 */
export class ReviewDesk {
  constructor(
    private readonly claims: Pick<ReviewClaims, 'live'>,
    private readonly summaries: UserSummaries,
  ) {}

  /** The user a queue's `uid` filter names: undefined when none is given, null when nobody has that uid. */
  async userOfUid(uid: number | undefined): Promise<number | null | undefined> {
    return uid === undefined ? undefined : await this.summaries.userIdOfUid(uid);
  }

  /** Reads the live claims and user summaries of these items at once; answers each item's. */
  async contextOf(queue: ReviewQueue, items: QueueItem[]): Promise<(item: QueueItem) => QueueItemContext> {
    const [claimed, users] = await Promise.all([
      this.claims.live(
        queue,
        items.map((item) => item.id),
      ),
      this.summaries.of(items.map((item) => item.userId)),
    ]);
    return (item) => ({ claim: claimed.get(String(item.id)) ?? null, user: users.get(item.userId) ?? null });
  }
}
