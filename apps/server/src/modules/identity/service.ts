import {
  conflict,
  invalid,
  maskCardId,
  notFound,
  RealNameStatus,
  type IdentityCardIdView,
  type IdentityReviewListView,
  type IdentityReviewView,
  type RealNameStatusValue,
  type RealNameView,
  type TRealNameRequest,
} from '@pipwise/domain';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { realNameRecords } from '../../db/schema.js';
import { translate } from '../../i18n/catalog.js';
import type { AuditService } from '../audit/service.js';
import type { ClaimRelease, Decider, UserNotifier } from '../../review/decisions.js';
import { openCardId, sealCardId } from './seal.js';

export const IDENTITY_PAGE_SIZE = 20;

/** What identity needs of the uploads module: ownership of a document, and a link that shows it. */
export interface IdentityUploads {
  /** Throws the same not-found error for another user's upload as for an unknown id. */
  requireOwned(executor: Executor, userId: number, id: string): Promise<unknown>;
  signedUrl(id: string): string;
}

type RecordRow = typeof realNameRecords.$inferSelect;

const statusOf = (row: RecordRow) => row.reviewStatus as RealNameStatusValue;

/**
 * Real-name verification (docs/product.md, "States"): 0 → 1 on submit, 1 → 2 or back to 0 with a reason by an
 * operator. The ID number is sealed at rest; users see it masked, operators in full through an
 * audited reveal.
 */
export interface IdentityDeps {
  db: Db;
  uploads: IdentityUploads;
  /** The 'identity-documents' key (secret.ts deriveKey). */
  key: Buffer;
  clock: Clock;
  log: FastifyBaseLogger;
  audit: AuditService;
  claims: ClaimRelease;
  notifier: UserNotifier;
}

export class IdentityService {
  private readonly db: Db;
  private readonly uploads: IdentityUploads;
  private readonly key: Buffer;
  private readonly clock: Clock;

  constructor(private readonly deps: IdentityDeps) {
    this.db = deps.db;
    this.uploads = deps.uploads;
    this.key = deps.key;
    this.clock = deps.clock;
  }

  private async record(userId: number, executor: Executor = this.db): Promise<RecordRow | undefined> {
    const [row] = await executor.select().from(realNameRecords).where(eq(realNameRecords.userId, userId)).limit(1);
    return row;
  }

  /**
   * A first submission, or a new one after a rejection. The upsert only overwrites a record in status
   * 0, so two submissions racing (or one racing an operator) leave exactly one under review.
   */
  async submit(userId: number, request: TRealNameRequest): Promise<RealNameView> {
    if (request.front_pic === request.reverse_pic) throw invalid('identity_pics_distinct');
    const submitted = await this.db.transaction(async (tx) => {
      const current = await this.record(userId, tx);
      if (current) this.requireEditable(current);
      await this.uploads.requireOwned(tx, userId, request.front_pic);
      await this.uploads.requireOwned(tx, userId, request.reverse_pic);
      const values = {
        reviewStatus: RealNameStatus.underReview,
        name: request.name,
        cardIdSealed: sealCardId(this.key, userId, request.card_id),
        cardIdLast4: request.card_id.slice(-4),
        frontUploadId: request.front_pic,
        reverseUploadId: request.reverse_pic,
        reason: null,
        internalNote: null,
        submittedAt: this.clock.now(),
        reviewedAt: null,
        reviewedBy: null,
      };
      const [row] = await tx
        .insert(realNameRecords)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: realNameRecords.userId,
          set: values,
          setWhere: eq(realNameRecords.reviewStatus, RealNameStatus.none),
        })
        .returning();
      return row;
    });
    if (!submitted) {
      // Another submission won the race; say why this one cannot follow it.
      const current = await this.record(userId);
      if (current) this.requireEditable(current);
      throw conflict('identity_under_review');
    }
    return this.view(submitted);
  }

  private requireEditable(row: RecordRow) {
    if (statusOf(row) === RealNameStatus.underReview) throw conflict('identity_under_review');
    if (statusOf(row) === RealNameStatus.verified) throw conflict('identity_already_verified');
  }

  /** The user's own status; review_status 0 and nothing else before a first submission. */
  async center(userId: number): Promise<RealNameView> {
    const row = await this.record(userId);
    if (!row)
      return { review_status: RealNameStatus.none, name: null, card_id: null, front_pic: null, reverse_pic: null, reason: null };
    return this.view(row);
  }

  /** Review status of each user's record (users who never submitted are absent: status 0). */
  async statuses(userIds: number[]): Promise<Map<number, RealNameStatusValue>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .select({ userId: realNameRecords.userId, status: realNameRecords.reviewStatus })
      .from(realNameRecords)
      .where(inArray(realNameRecords.userId, userIds));
    return new Map(rows.map((row) => [row.userId, row.status as RealNameStatusValue]));
  }

  async exists(userId: number): Promise<boolean> {
    return (await this.record(userId)) !== undefined;
  }

  async isVerified(userId: number): Promise<boolean> {
    const row = await this.record(userId);
    return row !== undefined && statusOf(row) === RealNameStatus.verified;
  }

  /** The name on the user's verified record, null when not verified: withdrawals compare payee names with it. */
  async verifiedName(userId: number): Promise<string | null> {
    const row = await this.record(userId);
    return row !== undefined && statusOf(row) === RealNameStatus.verified ? row.name : null;
  }

  private view(row: RecordRow): RealNameView {
    return {
      review_status: statusOf(row),
      name: row.name,
      card_id: maskCardId(row.cardIdLast4),
      front_pic: this.uploads.signedUrl(row.frontUploadId),
      reverse_pic: this.uploads.signedUrl(row.reverseUploadId),
      reason: row.reason,
    };
  }

  private reviewView(row: RecordRow): IdentityReviewView {
    return {
      user_id: row.userId,
      review_status: statusOf(row),
      name: row.name,
      card_id: maskCardId(row.cardIdLast4),
      front_pic: this.uploads.signedUrl(row.frontUploadId),
      reverse_pic: this.uploads.signedUrl(row.reverseUploadId),
      reason: row.reason,
      internal_note: row.internalNote,
      submitted_at: row.submittedAt.toISOString(),
      reviewed_at: row.reviewedAt?.toISOString() ?? null,
      reviewed_by: row.reviewedBy,
    };
  }

  /** Operators: submissions in one status (of everyone or one user), oldest first (the queue is worked in order). */
  async list(status: RealNameStatusValue, page: number, userId?: number): Promise<IdentityReviewListView> {
    const where = and(
      eq(realNameRecords.reviewStatus, status),
      userId === undefined ? undefined : eq(realNameRecords.userId, userId),
    );
    const [rows, [totals]] = await Promise.all([
      this.db
        .select()
        .from(realNameRecords)
        .where(where)
        .orderBy(
          status === RealNameStatus.underReview ? realNameRecords.submittedAt : desc(realNameRecords.submittedAt),
          realNameRecords.userId,
        )
        .limit(IDENTITY_PAGE_SIZE)
        .offset((page - 1) * IDENTITY_PAGE_SIZE),
      this.db.select({ total: count() }).from(realNameRecords).where(where),
    ]);
    return { data: rows.map((row) => this.reviewView(row)), total: totals?.total ?? 0, page, page_size: IDENTITY_PAGE_SIZE };
  }

  /**
   * Moves a record under review to `to`. The status test is in the UPDATE itself, so however many
   * operators click at once exactly one decision lands; the others are told it was already decided.
   * Its audit row and the end of the item's claim commit with it; the user is told the outcome.
   */
  private async decide(
    userId: number,
    operator: Decider,
    to: RealNameStatusValue,
    reason: string | null,
    internalNote: string | null,
  ): Promise<IdentityReviewView> {
    const row = await this.db.transaction(async (tx) => {
      const [changed] = await tx
        .update(realNameRecords)
        .set({ reviewStatus: to, reason, internalNote, reviewedAt: this.clock.now(), reviewedBy: operator.actor })
        .where(and(eq(realNameRecords.userId, userId), eq(realNameRecords.reviewStatus, RealNameStatus.underReview)))
        .returning();
      if (!changed) {
        if (!(await this.record(userId, tx))) throw notFound('identity_not_found');
        throw conflict('identity_not_under_review');
      }
      await this.deps.audit.record(
        {
          by: operator,
          action: to === RealNameStatus.verified ? 'kyc.approve' : 'kyc.reject',
          targetType: 'kyc',
          targetId: userId,
          before: { review_status: RealNameStatus.underReview },
          after: { review_status: to, reason, internal_note: internalNote },
          ip: operator.ip,
        },
        tx,
      );
      await this.deps.claims.releaseAll(tx, 'kyc', userId);
      return changed;
    });
    this.deps.log.info({ userId, operator: operator.actor, reviewStatus: to }, 'identity reviewed');
    await this.deps.notifier.notifyUser(userId, (lang) => ({
      subject: translate(lang, 'mail_identity_subject'),
      text:
        to === RealNameStatus.verified
          ? translate(lang, 'mail_identity_verified_body')
          : translate(lang, 'mail_identity_rejected_body', { reason: reason ?? '' }),
    }));
    return this.reviewView(row);
  }

  approve(userId: number, operator: Decider): Promise<IdentityReviewView> {
    return this.decide(userId, operator, RealNameStatus.verified, null, null);
  }

  /** Sends a submission back: the user reads `reason`; `internalNote` stays in the back office and the audit. */
  reject(userId: number, operator: Decider, reason: string, internalNote: string | null = null): Promise<IdentityReviewView> {
    return this.decide(userId, operator, RealNameStatus.none, reason, internalNote);
  }

  /** The full ID number; each reveal is an audit row naming who asked (written before the number is shown) and a log line. */
  async reveal(userId: number, operator: Decider): Promise<IdentityCardIdView> {
    const row = await this.record(userId);
    if (!row) throw notFound('identity_not_found');
    await this.deps.audit.record({
      by: operator,
      action: 'kyc.reveal_card_id',
      targetType: 'kyc',
      targetId: userId,
      ip: operator.ip,
    });
    this.deps.log.info({ userId, operator: operator.actor }, 'identity card id revealed');
    return { user_id: userId, card_id: openCardId(this.key, userId, row.cardIdSealed) };
  }
}
