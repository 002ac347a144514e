import {
  CashierType,
  conflict,
  dec,
  DepositStatus,
  invalid,
  notFound,
  rejected,
  roundBalance,
  type CashierTypeValue,
  type TCoinDepositRequest,
  type TWireDepositRequest,
} from '@pipwise/domain';
import { and, asc, count, desc, eq, inArray, sql, sum, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { IdempotencyStore, type IdempotentRequest } from '../../db/idempotency.js';
import { rowsOf } from '../../db/rows.js';
import { cashierTimelines, recordCashierEvent, type CashierEventRow } from '../../db/cashier-events.js';
import { cashierEvents, depositChannels, deposits, users } from '../../db/schema.js';
import type { EventBus } from '../../realtime/bus.js';
import { translate } from '../../i18n/catalog.js';
import type { AuditService } from '../audit/service.js';
import type { ClaimRelease, Decider, UserNotifier } from '../../review/decisions.js';
import type { SettingsService } from '../settings/service.js';
import type { WalletService } from '../wallet/service.js';
import { announceWalletChange } from '../../cashier/notices.js';

/** What deposits need of the uploads module: a proof must be the depositor's own image. */
export interface ProofUploads {
  /** Throws (the same answer for another user's upload as for an unknown one) unless `id` is `userId`'s. */
  requireOwned(executor: Executor, userId: number, id: string): Promise<unknown>;
  /** A short-lived URL that shows the image (operators look at proofs through it). */
  signedUrl(id: string, now: Date): string;
}

export interface DepositsDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  wallet: WalletService;
  settings: SettingsService;
  uploads: ProofUploads;
  audit: AuditService;
  claims: ClaimRelease;
  notifier: UserNotifier;
}

export type DepositChannel = typeof depositChannels.$inferSelect;
export type DepositRow = typeof deposits.$inferSelect;
export interface DepositRecord extends DepositRow {
  timeline: CashierEventRow[];
}
export interface DepositOutcome {
  deposit: DepositRecord;
  msgKey: string;
}

/** An operator's words on a decision: `reason` is written for the user, `internalNote` for the back office only. */
export interface OperatorReason {
  reason: string;
  internalNote: string | null;
}

export const DEPOSIT_PAGE_SIZE = 20;
const DAY_MS = 86_400_000;
const REF_TYPE = 'deposit';
/** The actor of changes nobody clicked (expiry). */
export const SYSTEM_ACTOR = 'system';

interface Declared {
  type: CashierTypeValue;
  channelId: number;
  amount: string;
  proofId: string;
  fromAddress: string | null;
}

/**
 * Deposits: the user declares a payment made outside the app (status 0 unchecked), an operator
 * finishes it (1, credited once), rejects it (2) or voids it (3), or it expires unchecked (3). Every
 * transition is a conditional update from 0 plus its timeline event in one transaction, so whoever
 * comes second finds the record decided and changes nothing.
 */
export class DepositsService {
  private readonly idempotency: IdempotencyStore;

  constructor(private readonly deps: DepositsDeps) {
    this.idempotency = new IdempotencyStore(deps.db);
  }

  /** Enabled coin channels, in the back office's order. */
  coinOptions(): Promise<DepositChannel[]> {
    return this.enabledChannels(eq(depositChannels.type, CashierType.coin));
  }

  /** The coins that can be deposited, each with its protocols. */
  async symbols(): Promise<{ currencyCode: string; protocols: string[] }[]> {
    const byCurrency = new Map<string, string[]>();
    for (const channel of await this.coinOptions()) {
      const protocols = byCurrency.get(channel.currencyCode) ?? [];
      if (!protocols.includes(channel.protocolCode)) protocols.push(channel.protocolCode);
      byCurrency.set(channel.currencyCode, protocols);
    }
    return [...byCurrency].map(([currencyCode, protocols]) => ({ currencyCode, protocols }));
  }

  /** Enabled bank accounts, optionally of one currency. */
  wireOptions(currency?: string): Promise<DepositChannel[]> {
    const type = eq(depositChannels.type, CashierType.bank);
    return this.enabledChannels(currency ? and(type, eq(depositChannels.currencyCode, currency.toUpperCase()))! : type);
  }

  /** What the user writes in a wire's payment reference so operators match the payment to them: their UID. */
  async paymentReference(userId: number): Promise<string> {
    const [user] = await this.deps.db.select({ uid: users.uid }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw notFound('deposit_not_found');
    return String(user.uid);
  }

  submitCoin(userId: number, body: TCoinDepositRequest, idempotency?: IdempotentRequest): Promise<DepositOutcome> {
    const declared = { channelId: body.charge_id, amount: body.number, proofId: body.proofImg };
    return this.submit(userId, { type: CashierType.coin, ...declared, fromAddress: body.address ?? null }, idempotency);
  }

  submitWire(userId: number, body: TWireDepositRequest, idempotency?: IdempotentRequest): Promise<DepositOutcome> {
    const declared = { channelId: body.wire_id, amount: body.number, proofId: body.proofImg };
    return this.submit(userId, { type: CashierType.bank, ...declared, fromAddress: null }, idempotency);
  }

  /** The user's records, newest first, each with its timeline. */
  async list(userId: number, type: CashierTypeValue | undefined, page: number) {
    const where = type === undefined ? eq(deposits.userId, userId) : and(eq(deposits.userId, userId), eq(deposits.type, type));
    const [rows, [totals]] = await Promise.all([
      this.deps.db
        .select()
        .from(deposits)
        .where(where)
        .orderBy(desc(deposits.id))
        .limit(DEPOSIT_PAGE_SIZE)
        .offset((page - 1) * DEPOSIT_PAGE_SIZE),
      this.deps.db.select({ total: count() }).from(deposits).where(where),
    ]);
    return { rows: await this.withTimelines(this.deps.db, rows), total: Number(totals?.total ?? 0) };
  }

  /** One of the user's records; another user's id answers like an unknown one. */
  async owned(userId: number, id: number, executor: Executor = this.deps.db): Promise<DepositRecord> {
    const [row] = await executor
      .select()
      .from(deposits)
      .where(and(eq(deposits.id, id), eq(deposits.userId, userId)))
      .limit(1);
    if (!row) throw notFound('deposit_not_found');
    const [record] = await this.withTimelines(executor, [row]);
    return record!;
  }

  /** The operators' queue: records of every user (or of one) in one status, oldest first. */
  async queue(status: number, page: number, userId?: number) {
    const where = and(eq(deposits.status, status), userId === undefined ? undefined : eq(deposits.userId, userId));
    const [rows, [totals]] = await Promise.all([
      this.deps.db
        .select()
        .from(deposits)
        .where(where)
        .orderBy(asc(deposits.createdAt), asc(deposits.id))
        .limit(DEPOSIT_PAGE_SIZE)
        .offset((page - 1) * DEPOSIT_PAGE_SIZE),
      this.deps.db.select({ total: count() }).from(deposits).where(where),
    ]);
    return { rows: await this.withTimelines(this.deps.db, rows), total: Number(totals?.total ?? 0) };
  }

  /** Whether a deposit exists (the claims of the review queue are on real records only). */
  async exists(id: number): Promise<boolean> {
    const [row] = await this.deps.db.select({ id: deposits.id }).from(deposits).where(eq(deposits.id, id)).limit(1);
    return row !== undefined;
  }

  /** What each user has had credited by finished deposits (users without any are absent). */
  async finishedTotals(userIds: number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.deps.db
      .select({ userId: deposits.userId, total: sum(deposits.creditedAmount) })
      .from(deposits)
      .where(and(inArray(deposits.userId, userIds), eq(deposits.status, DepositStatus.finished)))
      .groupBy(deposits.userId);
    return new Map(rows.map((row) => [row.userId, row.total ?? '0']));
  }

  /** A link to the proof image that works for a few minutes. */
  proofUrl(uploadId: string): string {
    return this.deps.uploads.signedUrl(uploadId, this.deps.clock.now());
  }

  /**
   * Finishes a deposit and credits `creditedAmount` (what actually arrived; the declared amount by
   * default) in one transaction. Exactly once: the update only matches a record still unchecked, and
   * a concurrent decision waits on the row, then matches nothing and is told it was already decided.
   * The audit row and the end of the item's claim commit with the decision.
   */
  async approve(id: number, operator: Decider, creditedAmount?: string): Promise<DepositOutcome> {
    const record = await this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const credited = creditedAmount === undefined ? sql`${deposits.amount}` : roundBalance(creditedAmount).toFixed(2);
      const row = await this.decide(tx, id, {
        status: DepositStatus.finished,
        creditedAmount: credited,
        decidedBy: operator.actor,
        decidedAt: now,
      });
      await this.deps.wallet.post(tx, {
        userId: row.userId,
        amount: row.creditedAmount!,
        type: 'deposit',
        memoParams: { id: row.id },
        refType: REF_TYPE,
        refId: row.id,
      });
      await this.event(tx, row.id, DepositStatus.finished, operator.actor, null, now);
      await this.audit(tx, operator, 'deposit.approve', row, null);
      return this.owned(row.userId, row.id, tx);
    });
    announceWalletChange(this.deps.bus, record.userId, { cause: 'deposit', id, status: DepositStatus.finished });
    const credited = roundBalance(record.creditedAmount!).toFixed(2);
    await this.deps.notifier.notifyUser(record.userId, (lang) => ({
      subject: translate(lang, 'mail_deposit_subject', { id }),
      text: translate(lang, 'mail_deposit_credited_body', { id, amount: credited }),
    }));
    return { deposit: record, msgKey: 'deposit_approved' };
  }

  /** 0 → 2: the reason is shown to the user as the record's remark; the internal note only to operators. */
  reject(id: number, operator: Decider, reason: OperatorReason): Promise<DepositOutcome> {
    return this.close(id, operator, DepositStatus.rejected, reason, 'deposit_rejected');
  }

  /** 0 → 3 by an operator (a duplicate, a payment that will never arrive…), with the reason shown. */
  void(id: number, operator: Decider, reason: OperatorReason): Promise<DepositOutcome> {
    return this.close(id, operator, DepositStatus.invalid, reason, 'deposit_voided');
  }

  /**
   * 0 → 3 for records left unchecked longer than `deposit_expiry_days`, by the system. One statement:
   * a record an operator decides meanwhile is no longer 0 and is left alone. Returns the expired ids.
   */
  async expireStale(now: Date): Promise<number[]> {
    const days = Number(await this.deps.settings.get('deposit_expiry_days'));
    if (!Number.isFinite(days) || days <= 0) return [];
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    const rows = rowsOf(
      await this.deps.db.execute(sql`
        WITH expired AS (
          UPDATE ${deposits} SET status = ${DepositStatus.invalid}, decided_by = ${SYSTEM_ACTOR}, decided_at = ${now.toISOString()}::timestamptz
          WHERE status = ${DepositStatus.unchecked} AND created_at < ${cutoff.toISOString()}::timestamptz
          RETURNING id
        )
        INSERT INTO ${cashierEvents} (ref_type, ref_id, status, actor, created_at)
        SELECT ${REF_TYPE}, id, ${DepositStatus.invalid}, ${SYSTEM_ACTOR}, ${now.toISOString()}::timestamptz FROM expired
        RETURNING ref_id`),
    );
    return rows.map((row) => Number(row.ref_id));
  }

  private async submit(userId: number, declared: Declared, idempotency: IdempotentRequest | undefined): Promise<DepositOutcome> {
    const route = declared.type === CashierType.coin ? 'deposit.coin' : 'deposit.wire';
    const outcome = await this.idempotency.once(
      userId,
      idempotency,
      route,
      async (tx) => {
        const channel = await this.usableChannel(tx, declared.type, declared.channelId);
        const amount = dec(declared.amount);
        if (amount.lt(channel.minAmount) || amount.gt(channel.maxAmount)) {
          throw rejected('deposit_amount_range', {
            min: roundBalance(channel.minAmount).toFixed(2),
            max: roundBalance(channel.maxAmount).toFixed(2),
          });
        }
        await this.deps.uploads.requireOwned(tx, userId, declared.proofId);
        const now = this.deps.clock.now();
        const [row] = await tx
          .insert(deposits)
          .values({
            userId,
            channelId: channel.id,
            type: declared.type,
            currencyCode: channel.currencyCode,
            protocolCode: declared.type === CashierType.coin ? channel.protocolCode : null,
            payTo: declared.type === CashierType.coin ? channel.address : channel.payeeAccount,
            fromAddress: declared.fromAddress,
            amount: amount.toFixed(2),
            proofUploadId: declared.proofId,
            status: DepositStatus.unchecked,
            createdAt: now,
          })
          .onConflictDoNothing({ target: deposits.proofUploadId })
          .returning();
        if (!row) throw invalid('proof_already_used');
        const event = await this.event(tx, row.id, DepositStatus.unchecked, 'user', null, now);
        return { refId: row.id, msgKey: 'deposit_submitted', deposit: { ...row, timeline: [event] } };
      },
      (refId) => this.owned(userId, refId),
    );
    if (outcome.replayed) return { deposit: outcome.replayed.record, msgKey: outcome.replayed.msgKey };
    return { deposit: outcome.first.deposit, msgKey: outcome.first.msgKey };
  }

  /** An unknown, disabled or other-type channel gets one answer: the channel is not available. */
  private async usableChannel(executor: Executor, type: CashierTypeValue, id: number): Promise<DepositChannel> {
    const [channel] = await executor.select().from(depositChannels).where(eq(depositChannels.id, id)).limit(1);
    if (!channel || !channel.enabled || channel.type !== type) throw invalid('channel_invalid');
    return channel;
  }

  private enabledChannels(where: SQL): Promise<DepositChannel[]> {
    return this.deps.db
      .select()
      .from(depositChannels)
      .where(and(where, eq(depositChannels.enabled, true)))
      .orderBy(asc(depositChannels.sort), asc(depositChannels.id));
  }

  private async close(
    id: number,
    operator: Decider,
    status: number,
    { reason, internalNote }: OperatorReason,
    msgKey: string,
  ): Promise<DepositOutcome> {
    const action = status === DepositStatus.rejected ? 'deposit.reject' : 'deposit.void';
    const deposit = await this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const row = await this.decide(tx, id, { status, remark: reason, internalNote, decidedBy: operator.actor, decidedAt: now });
      await this.event(tx, row.id, status, operator.actor, reason, now);
      await this.audit(tx, operator, action, row, reason);
      return this.owned(row.userId, row.id, tx);
    });
    announceWalletChange(this.deps.bus, deposit.userId, { cause: 'deposit', id, status });
    const amount = roundBalance(deposit.amount).toFixed(2);
    await this.deps.notifier.notifyUser(deposit.userId, (lang) => ({
      subject: translate(lang, 'mail_deposit_subject', { id }),
      text: translate(lang, 'mail_deposit_not_credited_body', { id, amount, reason }),
    }));
    return { deposit, msgKey };
  }

  /** The decision's audit row (it left status 0 — the update's condition says so) and the claim's end. */
  private async audit(tx: Executor, operator: Decider, action: string, row: DepositRow, reason: string | null) {
    await this.deps.audit.record(
      {
        by: operator,
        action,
        targetType: 'deposit',
        targetId: row.id,
        before: { status: DepositStatus.unchecked, amount: row.amount, user_id: row.userId },
        after: {
          status: row.status,
          amount: row.amount,
          credited_amount: row.creditedAmount,
          reason,
          internal_note: row.internalNote,
        },
        ip: operator.ip,
      },
      tx,
    );
    await this.deps.claims.releaseAll(tx, 'deposits', row.id);
  }

  /** The one transition out of 0; a record already decided (or unknown) changes nothing. */
  private async decide(tx: Executor, id: number, changes: PgUpdateSetSource<typeof deposits>): Promise<DepositRow> {
    const [row] = await tx
      .update(deposits)
      .set(changes)
      .where(and(eq(deposits.id, id), eq(deposits.status, DepositStatus.unchecked)))
      .returning();
    if (row) return row;
    const [existing] = await tx.select({ id: deposits.id }).from(deposits).where(eq(deposits.id, id)).limit(1);
    throw existing ? conflict('deposit_already_decided') : notFound('deposit_not_found');
  }

  private event(tx: Executor, refId: number, status: number, actor: string, note: string | null, at: Date) {
    return recordCashierEvent(tx, REF_TYPE, refId, { status, actor, note, at });
  }

  private async withTimelines(executor: Executor, rows: DepositRow[]): Promise<DepositRecord[]> {
    const timelines = await cashierTimelines(
      executor,
      REF_TYPE,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({ ...row, timeline: timelines.get(row.id) ?? [] }));
  }
}
