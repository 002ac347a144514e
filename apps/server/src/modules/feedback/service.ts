import {
  FeedbackStatus,
  invalid,
  notFound,
  type FeedbackAdminView,
  type FeedbackCategory,
  type FeedbackSubmittedView,
  type Language,
  type TFeedbackRequest,
} from '@pipwise/domain';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { countOf, paged, type Page } from '../../db/paging.js';
import { feedback, users } from '../../db/schema.js';
import type { Principal } from '../../http/auth.js';
import type { Operator } from '../../http/operator.js';
import type { AuditService } from '../audit/service.js';

export const FEEDBACK_PAGE_SIZE = 20;

/** What feedback needs of the uploads context: that an image a user names is theirs. */
export interface FeedbackUploads {
  requireOwned(executor: Executor, userId: number, id: string): Promise<unknown>;
}

type FeedbackRow = typeof feedback.$inferSelect;

const present = (row: FeedbackRow, uid: number | null): FeedbackAdminView => ({
  id: row.id,
  uid,
  category: row.category as FeedbackCategory,
  text: row.text,
  contact: row.contact,
  upload_id: row.uploadId,
  lang: row.lang,
  status: row.status,
  handled_by: row.handledBy,
  handled_at: row.handledAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

/** Feedback from visitors and users (/feedback), kept for operators to read and mark handled. */
export class FeedbackService {
  constructor(private readonly deps: { db: Db; clock: Clock; uploads: FeedbackUploads; audit: AuditService }) {}

  /**
   * Stores one feedback. An image only comes from a signed-in user's own uploads (uploading needs a real
   * account); a visitor naming one gets the same answer as an unknown id.
   */
  async submit(principal: Principal | null, input: TFeedbackRequest, lang: Language): Promise<FeedbackSubmittedView> {
    return this.deps.db.transaction(async (tx) => {
      if (input.upload_id !== undefined) {
        if (!principal) throw invalid('upload_invalid');
        await this.deps.uploads.requireOwned(tx, principal.userId, input.upload_id);
      }
      const [row] = await tx
        .insert(feedback)
        .values({
          userId: principal?.userId ?? null,
          category: input.category,
          text: input.text,
          uploadId: input.upload_id ?? null,
          contact: input.contact ?? null,
          lang,
          createdAt: this.deps.clock.now(),
        })
        .returning({ id: feedback.id });
      if (!row) throw new Error('feedback not stored');
      return { id: row.id };
    });
  }

  /** One page of one status, newest first, with how many there are. */
  async list(status: number, page: number): Promise<Page<FeedbackAdminView>> {
    const where = eq(feedback.status, status);
    return paged(
      { page, pageSize: FEEDBACK_PAGE_SIZE },
      async (limit, offset) =>
        (
          await this.deps.db
            .select({ row: feedback, uid: users.uid })
            .from(feedback)
            .leftJoin(users, eq(users.id, feedback.userId))
            .where(where)
            .orderBy(desc(feedback.createdAt), desc(feedback.id))
            .limit(limit)
            .offset(offset)
        ).map(({ row, uid }) => present(row, uid)),
      () => countOf(this.deps.db.select({ n: count() }).from(feedback).where(where)),
    );
  }

  /**
   * Marks a feedback handled, by whom and when, with its audit row in the same transaction; marking it
   * again answers it as it is (the first operator stays recorded).
   */
  async markHandled(id: number, operator: Operator, ip: string): Promise<FeedbackAdminView> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(feedback)
        .set({ status: FeedbackStatus.handled, handledBy: operator.actor, handledAt: this.deps.clock.now() })
        .where(and(eq(feedback.id, id), eq(feedback.status, FeedbackStatus.new)))
        .returning();
      if (row) {
        await this.deps.audit.record(
          {
            by: operator,
            action: 'feedback.handled',
            targetType: 'feedback',
            targetId: id,
            before: { status: FeedbackStatus.new },
            after: { status: FeedbackStatus.handled },
            ip,
          },
          tx,
        );
      }
    });
    const [found] = await this.deps.db
      .select({ row: feedback, uid: users.uid })
      .from(feedback)
      .leftJoin(users, eq(users.id, feedback.userId))
      .where(eq(feedback.id, id));
    if (!found) throw notFound('feedback_not_found');
    return present(found.row, found.uid);
  }
}
