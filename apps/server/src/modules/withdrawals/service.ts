import {
  CashierType,
  conflict,
  dec,
  forbidden,
  invalid,
  notFound,
  rejected,
  withdrawableAmount,
  withdrawalProblem,
  withdrawalQuote,
  WithdrawalStatus,
  type CashierTypeValue,
  type Dec,
  type Language,
  type PayoutWarningView,
  type TBindDrawMethodRequest,
  type TWithdrawRequest,
  type WithdrawalProblem,
  type WithdrawalProblemCode,
  type WithdrawalStatusValue,
} from '@pipwise/domain';
import { and, asc, count, desc, eq, inArray, isNull, sql, sum } from 'drizzle-orm';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import type { IdempotencyStore, IdempotentRequest } from '../../db/idempotency.js';
import { cashierTimelines, recordCashierEvent, type CashierEventRow } from '../../db/cashier-events.js';
import { payoutMethods, users, withdrawals, withdrawCurrencies } from '../../db/schema.js';
import type { AuditService } from '../audit/service.js';
import type { CheckerRule, ClaimRelease, Decider } from '../../review/decisions.js';
import { translate } from '../../i18n/catalog.js';
import type { EventBus } from '../../realtime/bus.js';
import { announceWalletChange } from '../../cashier/notices.js';
import type { SettingsService } from '../settings/service.js';
import { formatDateTime } from '../../i18n/dates.js';
import type { WalletService } from '../wallet/service.js';
import { bankAccount, coinAddress } from '../../cashier/destinations.js';
import type { WithdrawRate, WithdrawRates } from './rates.js';

export type CurrencyRow = typeof withdrawCurrencies.$inferSelect;
export type MethodRow = typeof payoutMethods.$inferSelect;
export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type EventRow = CashierEventRow;

export interface MethodRecord {
  method: MethodRow;
  currency: CurrencyRow;
}

export interface WithdrawalRecord {
  withdrawal: WithdrawalRow;
  timeline: EventRow[];
}

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

/** A currency as the list offers it: its terms, its rate now and the signed quote of that rate. */
export interface QuotedCurrency {
  currency: CurrencyRow;
  rate: WithdrawRate;
  quote: string;
}

export const WITHDRAWAL_PAGE_SIZE = 20;
const HOUR_MS = 3_600_000;
const REF_TYPE = 'withdrawal';
/** The actor of the user's own cancel (an operator is 'operator:<email>'). */
export const USER_ACTOR = 'user';

/** What an operator decides: the status it moves to, and the confirmation it answers with. */
const DECISIONS = {
  approve: { status: WithdrawalStatus.completed, msgKey: 'withdraw_approved' },
  reject: { status: WithdrawalStatus.rejected, msgKey: 'withdraw_rejected' },
  void: { status: WithdrawalStatus.invalid, msgKey: 'withdraw_voided' },
} as const;
export type Decision = keyof typeof DECISIONS;

/** What a decision did: `firstApproval` when it only recorded the first of two approvals (four-eyes). */
export interface DecisionOutcome {
  record: WithdrawalRecord;
  msgKey: string;
  firstApproval: boolean;
}

/** The placeholder of each `withdrawalProblem` refusal's message that names its figure. */
const PROBLEM_FIGURE = {
  withdraw_below_min: 'min',
  withdraw_above_max: 'max',
  withdraw_fee_exceeds: 'fee',
  withdraw_exceeds_available: 'available',
} as const satisfies Record<WithdrawalProblemCode, string>;

/** A `withdrawalProblem` as the envelope says it (1002), its figure in USD with cents. */
const refusalOf = (problem: WithdrawalProblem) =>
  rejected(problem.code, { [PROBLEM_FIGURE[problem.code]]: problem.limit.toFixed(2) });

/**
 * Payout methods and withdrawals (docs/architecture.md). The requested amount moves into lock_balance in the same
 * transaction as the record, under the wallet's row lock, so concurrent requests cannot together take
 * more than may leave. Every later transition is one conditional UPDATE from status 0: of any number of
 * concurrent approvals, rejections and cancels exactly one changes the record, and only it moves money.
 */
export class WithdrawalsService {
  private readonly db: Db;

  constructor(private readonly deps: WithdrawalsDeps) {
    this.db = deps.db;
  }

  async currencies(type: CashierTypeValue): Promise<CurrencyRow[]> {
    return this.db
      .select()
      .from(withdrawCurrencies)
      .where(and(eq(withdrawCurrencies.type, type), eq(withdrawCurrencies.enabled, true)))
      .orderBy(asc(withdrawCurrencies.sort), asc(withdrawCurrencies.id));
  }

  /** The enabled currencies of a type, each with its rate now and a quote the withdrawal can be charged at. */
  async quotedCurrencies(type: CashierTypeValue): Promise<QuotedCurrency[]> {
    const rows = await this.currencies(type);
    return Promise.all(
      rows.map(async (currency) => {
        const rate = await this.deps.rates.current(currency);
        return { currency, rate, quote: this.deps.rates.quote(currency.id, rate) };
      }),
    );
  }

  /** What the withdraw screen states before anything is typed: whether real-name verification stands in the way. */
  async rules(userId: number): Promise<{ kycRequired: boolean }> {
    return { kycRequired: await this.kycMissing(userId) };
  }

  private async kycMissing(userId: number): Promise<boolean> {
    return (await this.deps.settings.get('withdraw_requires_kyc')) === '1' && !(await this.deps.identity.isVerified(userId));
  }

  private async currency(id: number, type: CashierTypeValue): Promise<CurrencyRow> {
    const [row] = await this.db
      .select()
      .from(withdrawCurrencies)
      .where(and(eq(withdrawCurrencies.id, id), eq(withdrawCurrencies.type, type), eq(withdrawCurrencies.enabled, true)))
      .limit(1);
    if (!row) throw invalid('currency_invalid', { field: 'draw_id' });
    return row;
  }

  /** The user's methods of a type (optionally of one currency) that are not deleted, newest first. */
  methods(userId: number, type: CashierTypeValue, currencyId?: number): Promise<MethodRecord[]> {
    return this.db
      .select({ method: payoutMethods, currency: withdrawCurrencies })
      .from(payoutMethods)
      .innerJoin(withdrawCurrencies, eq(withdrawCurrencies.id, payoutMethods.currencyId))
      .where(
        and(
          eq(payoutMethods.userId, userId),
          eq(payoutMethods.type, type),
          isNull(payoutMethods.deletedAt),
          currencyId === undefined ? undefined : eq(payoutMethods.currencyId, currencyId),
        ),
      )
      .orderBy(desc(payoutMethods.id));
  }

  /**
   * Binds a coin address or bank account, checked for its protocol or country, usable after the
   * cool-down; the owner is told by e-mail, so a stolen session cannot add an address unnoticed.
   */
  async bind(userId: number, body: TBindDrawMethodRequest): Promise<MethodRecord> {
    const currency = await this.currency(body.draw_id, body.type);
    const destination = destinationOf(currency, body);
    const cooldownHours = Math.max(0, Number(await this.deps.settings.get('payout_method_cooldown_hours')) || 0);
    const now = this.deps.clock.now();
    const usableAt = new Date(now.getTime() + cooldownHours * HOUR_MS);
    const method = await this.db.transaction(async (tx) => {
      // The user's row lock makes the duplicate check and the insert one step for concurrent binds.
      await tx.execute(sql`SELECT 1 FROM ${users} WHERE id = ${userId} FOR UPDATE`);
      const [duplicate] = await tx
        .select({ id: payoutMethods.id })
        .from(payoutMethods)
        .where(
          and(
            eq(payoutMethods.userId, userId),
            eq(payoutMethods.currencyId, currency.id),
            isNull(payoutMethods.deletedAt),
            destination.sameAs,
          ),
        )
        .limit(1);
      if (duplicate) throw conflict('method_duplicate');
      const [inserted] = await tx
        .insert(payoutMethods)
        .values({ ...destination.values, userId, type: currency.type, currencyId: currency.id, usableAt, createdAt: now })
        .returning();
      return inserted!;
    });
    await this.deps.notifier.notifyUser(userId, (lang) => ({
      subject: translate(lang, 'mail_payout_method_bound_subject'),
      text: translate(lang, 'mail_payout_method_bound_body', {
        method: describeMethod(method, currency),
        usable_at: formatDateTime(usableAt, lang),
      }),
    }));
    return { method, currency };
  }

  /** Soft-deletes one of the user's methods: requests already made with it keep their destination. */
  async remove(userId: number, id: number): Promise<void> {
    const [deleted] = await this.db
      .update(payoutMethods)
      .set({ deletedAt: this.deps.clock.now() })
      .where(and(eq(payoutMethods.id, id), eq(payoutMethods.userId, userId), isNull(payoutMethods.deletedAt)))
      .returning({ id: payoutMethods.id });
    if (!deleted) throw notFound('method_invalid');
  }

  /**
   * A withdrawal request: to one of the user's own usable methods of that currency, within the
   * currency's limits, never more than may leave the account. The fee and what is received are
   * `withdrawalQuote`'s, the formula the withdraw screen shows.
   */
  async withdraw(
    userId: number,
    body: TWithdrawRequest,
    idempotency: IdempotentRequest | undefined,
    lang: Language,
  ): Promise<{ record: WithdrawalRecord; msgKey: string }> {
    if (await this.kycMissing(userId)) throw forbidden('withdraw_kyc_required');
    const outcome = await this.deps.idempotency.once(
      userId,
      idempotency,
      'draw',
      (tx) => this.request(tx, userId, body, lang),
      (id) => this.record(userId, id),
    );
    if (outcome.replayed) return outcome.replayed;
    const { refId, msgKey } = outcome.first;
    announceWalletChange(this.deps.bus, userId, { cause: 'withdrawal', id: refId, status: WithdrawalStatus.unreviewed });
    return { record: await this.record(userId, refId), msgKey };
  }

  private async request(tx: Executor, userId: number, body: TWithdrawRequest, lang: Language) {
    const [found] = await tx
      .select({ method: payoutMethods, currency: withdrawCurrencies })
      .from(payoutMethods)
      .innerJoin(withdrawCurrencies, eq(withdrawCurrencies.id, body.draw_currency_id))
      .where(and(eq(payoutMethods.id, body.draw_method_id), eq(payoutMethods.userId, userId), isNull(payoutMethods.deletedAt)))
      .limit(1);
    if (!found) {
      const [currency] = await tx
        .select({ id: withdrawCurrencies.id })
        .from(withdrawCurrencies)
        .where(eq(withdrawCurrencies.id, body.draw_currency_id))
        .limit(1);
      throw currency ? notFound('method_invalid') : invalid('currency_invalid', { field: 'draw_currency_id' });
    }
    const { method, currency } = found;
    if (!currency.enabled) throw invalid('currency_invalid', { field: 'draw_currency_id' });
    if (method.currencyId !== currency.id) throw rejected('method_currency_mismatch');
    if (method.usableAt > this.deps.clock.now())
      throw rejected('method_cooling_down', { time: formatDateTime(method.usableAt, lang) });
    const amount = dec(body.number);
    // The domain's rule, the withdraw screen's: the limits and the fee now, what may leave under the lock below.
    const terms = {
      fee_type: currency.feeType,
      draw_rate: currency.drawRate,
      min_amount: currency.minAmount,
      max_amount: currency.maxAmount,
    };
    const problem = withdrawalProblem(amount, terms);
    if (problem) throw refusalOf(problem);
    // The rate the screen showed (its signed quote), else the rate now; either is locked into the record.
    const rate = body.rate_quote ? this.deps.rates.redeem(body.rate_quote, currency.id) : await this.deps.rates.current(currency);
    this.deps.rates.requireValid(rate, currency.code, lang);
    const quote = withdrawalQuote(amount, {
      fee_type: currency.feeType,
      draw_rate: currency.drawRate,
      usd_price: rate.usdPrice,
    });

    // After the wallet lock nothing else moves this account's money until commit; free margin is read
    // in the same transaction, so it counts the positions and reservations as they are now.
    const wallet = await this.deps.wallet.lock(tx, userId);
    await this.deps.restrictions.refuseFrozenWithdrawals(tx, userId);
    const figures = await this.deps.trading.figures(userId, tx);
    const over = withdrawalProblem(amount, terms, withdrawableAmount(wallet.balance, wallet.lockBalance, figures.freeMargin));
    if (over) throw refusalOf(over);

    const now = this.deps.clock.now();
    const [created] = await tx
      .insert(withdrawals)
      .values({
        userId,
        type: currency.type,
        currencyId: currency.id,
        methodId: method.id,
        amount: quote.amount.toFixed(2),
        fee: quote.fee.toFixed(2),
        usdPrice: rate.usdPrice,
        rateSource: rate.source,
        ratePair: rate.pair,
        rateAt: rate.at,
        received: quote.received.toFixed(2),
        currencyCode: currency.code,
        protocol: currency.protocol,
        address: method.address,
        bankName: method.bankName,
        payeeAccount: method.payeeAccount,
        memo: body.memo ?? null,
        status: WithdrawalStatus.unreviewed,
        createdAt: now,
      })
      .returning({ id: withdrawals.id });
    const id = created!.id;
    await this.deps.wallet.adjustLock(tx, userId, quote.amount);
    await recordCashierEvent(tx, REF_TYPE, id, { status: WithdrawalStatus.unreviewed, actor: 'user', at: now });
    return { refId: id, msgKey: 'withdraw_submitted' };
  }

  /** The user's cancel of their own request while it is unreviewed: the locked amount is free again. */
  async cancel(userId: number, id: number): Promise<WithdrawalRecord> {
    await this.db.transaction(async (tx) => {
      await this.transition(tx, id, WithdrawalStatus.invalid, USER_ACTOR, null, userId);
      // Nothing is left to review: an operator's claim on it ends with it.
      await this.deps.claims.releaseAll(tx, 'withdrawals', id);
    });
    announceWalletChange(this.deps.bus, userId, { cause: 'withdrawal', id, status: WithdrawalStatus.invalid });
    return this.record(userId, id);
  }

  /**
   * An operator's decision; approval debits the amount (what is sent, and the fee) exactly once. Above
   * `withdraw_four_eyes_above` (the amount is in USD, the balance's currency) the first approval is only
   * recorded and a different operator's approval completes it; rejecting or voiding needs one operator
   * at any point. The audit row and the end of the item's claim commit with the decision; the user is
   * told of the outcome once it is final. `reason` is written for the user; `internalNote` stays in the
   * back office and the audit.
   */
  async decide(
    id: number,
    decision: Decision,
    operator: Decider,
    reason: string | null,
    internalNote: string | null = null,
  ): Promise<DecisionOutcome> {
    const { status, msgKey } = DECISIONS[decision];
    const threshold = await this.fourEyesThreshold();
    const outcome = await this.db.transaction(async (tx) => {
      // The row lock orders concurrent decisions on one record; each still changes it only through a
      // conditional UPDATE from status 0, so whoever comes second finds it decided.
      const [current] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1).for('update');
      if (!current) throw notFound('withdrawal_not_found');
      if (current.status !== WithdrawalStatus.unreviewed) throw conflict('withdraw_already_decided');
      if (status === WithdrawalStatus.completed && current.firstApprovedBy === operator.actor) {
        throw rejected('four_eyes_same_operator');
      }
      if (
        status === WithdrawalStatus.completed &&
        current.firstApprovedBy !== null &&
        operator.id != null &&
        (await this.deps.fourEyes.relatedToActor(operator.id, current.firstApprovedBy, tx))
      ) {
        throw rejected('four_eyes_related_operator');
      }
      if (status === WithdrawalStatus.completed && current.firstApprovedBy === null && dec(current.amount).gt(threshold)) {
        const row = await this.firstApproval(tx, id, operator);
        await this.audit(tx, operator, 'withdrawal.first_approve', current, row, null);
        return { row, firstApproval: true };
      }
      const row = await this.transition(tx, id, status, operator.actor, reason, undefined, internalNote);
      if (status === WithdrawalStatus.completed) {
        const sent = dec(row.amount).minus(row.fee);
        const posting = { userId: row.userId, refType: REF_TYPE, refId: row.id, memoParams: { id: row.id } } as const;
        await this.deps.wallet.post(tx, { ...posting, amount: sent.negated(), type: 'withdrawal' });
        if (dec(row.fee).gt(0))
          await this.deps.wallet.post(tx, { ...posting, amount: dec(row.fee).negated(), type: 'withdrawal_fee' });
      }
      await this.audit(tx, operator, `withdrawal.${decision}`, current, row, reason);
      return { row, firstApproval: false };
    });
    const { row } = outcome;
    const record = await this.record(row.userId, id);
    if (outcome.firstApproval) return { record, msgKey: 'withdraw_first_approved', firstApproval: true };
    announceWalletChange(this.deps.bus, row.userId, { cause: 'withdrawal', id, status });
    const amount = dec(row.amount).toFixed(2);
    await this.deps.notifier.notifyUser(row.userId, (lang) => ({
      subject: translate(lang, 'mail_withdrawal_subject', { id }),
      text:
        status === WithdrawalStatus.completed
          ? translate(lang, 'mail_withdrawal_completed_body', { id, amount })
          : translate(lang, 'mail_withdrawal_not_paid_body', { id, amount, reason: reason ?? '' }),
    }));
    return { record, msgKey, firstApproval: false };
  }

  /** The USD amount above which a withdrawal needs two approvals; an unreadable setting asks for two always. */
  async fourEyesThreshold(): Promise<Dec> {
    const value = await this.deps.settings.get('withdraw_four_eyes_above');
    return /^\d{1,13}(\.\d+)?$/.test(value ?? '') ? dec(value) : dec(0);
  }

  /** Records the first of two approvals; the record stays unreviewed and its amount locked. */
  private async firstApproval(tx: Executor, id: number, operator: Decider): Promise<WithdrawalRow> {
    const [row] = await tx
      .update(withdrawals)
      .set({ firstApprovedBy: operator.actor, firstApprovedAt: this.deps.clock.now() })
      .where(
        and(eq(withdrawals.id, id), eq(withdrawals.status, WithdrawalStatus.unreviewed), isNull(withdrawals.firstApprovedBy)),
      )
      .returning();
    if (!row) throw conflict('withdraw_already_decided');
    return row;
  }

  /** The decision's audit row (state before and after, the reason) and the end of the item's claim. */
  private async audit(
    tx: Executor,
    operator: Decider,
    action: string,
    before: WithdrawalRow,
    after: WithdrawalRow,
    reason: string | null,
  ) {
    const state = (row: WithdrawalRow) => ({
      status: row.status,
      amount: row.amount,
      fee: row.fee,
      first_approved_by: row.firstApprovedBy,
      decided_by: row.decidedBy,
      internal_note: row.internalNote,
    });
    await this.deps.audit.record(
      {
        by: operator,
        action,
        targetType: 'withdrawal',
        targetId: before.id,
        before: { ...state(before), user_id: before.userId },
        after: { ...state(after), reason },
        ip: operator.ip,
      },
      tx,
    );
    await this.deps.claims.releaseAll(tx, 'withdrawals', before.id);
  }

  /** Whether the record waits for a second operator's approval (four-eyes) before it can complete. */
  needsSecondApproval(row: WithdrawalRow, threshold: Dec): boolean {
    return row.status === WithdrawalStatus.unreviewed && (row.firstApprovedBy !== null || dec(row.amount).gt(threshold));
  }

  /** What each user has had paid out by completed withdrawals, fee included (users without any are absent). */
  async completedTotals(userIds: number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .select({ userId: withdrawals.userId, total: sum(withdrawals.amount) })
      .from(withdrawals)
      .where(and(inArray(withdrawals.userId, userIds), eq(withdrawals.status, WithdrawalStatus.completed)))
      .groupBy(withdrawals.userId);
    return new Map(rows.map((row) => [row.userId, row.total ?? '0']));
  }

  /** Each record's warnings (by record id), judged on the payout method it was made to. */
  async warnings(rows: WithdrawalRow[]): Promise<Map<number, PayoutWarningView[]>> {
    const ids = [...new Set(rows.map((row) => row.methodId))];
    const methods = ids.length === 0 ? [] : await this.db.select().from(payoutMethods).where(inArray(payoutMethods.id, ids));
    const byId = new Map(methods.map((method) => [method.id, method]));
    const names = new Map<number, Promise<string | null>>();
    const result = new Map<number, PayoutWarningView[]>();
    for (const row of rows) {
      const method = byId.get(row.methodId);
      result.set(row.id, method ? await this.methodWarnings(method, names) : []);
    }
    return result;
  }

  /** The warnings of a user's payout methods that are not deleted (the back office's user detail). */
  async userWarnings(userId: number): Promise<PayoutWarningView[]> {
    const methods = await this.db
      .select()
      .from(payoutMethods)
      .where(and(eq(payoutMethods.userId, userId), isNull(payoutMethods.deletedAt)))
      .orderBy(asc(payoutMethods.id));
    const names = new Map<number, Promise<string | null>>();
    return (await Promise.all(methods.map((method) => this.methodWarnings(method, names)))).flat();
  }

  /**
   * A coin address bound by other users too (deleted bindings count: the address was theirs), compared
   * without case as Ethereum addresses are; a bank payee whose name is not the owner's verified name (word
   * order, case and punctuation aside), or an owner with no verified name to compare with.
   */
  private async methodWarnings(method: MethodRow, names: Map<number, Promise<string | null>>): Promise<PayoutWarningView[]> {
    if (method.address !== null) {
      const others = await this.db
        .selectDistinct({ uid: users.uid })
        .from(payoutMethods)
        .innerJoin(users, eq(users.id, payoutMethods.userId))
        .where(
          and(sql`lower(${payoutMethods.address}) = lower(${method.address})`, sql`${payoutMethods.userId} <> ${method.userId}`),
        )
        .orderBy(asc(users.uid));
      return others.length === 0
        ? []
        : [{ code: 'address_shared', address: method.address, uids: others.map((other) => other.uid) }];
    }
    if (method.payeeName === null) return [];
    if (!names.has(method.userId)) names.set(method.userId, this.deps.identity.verifiedName(method.userId));
    const verified = await names.get(method.userId)!;
    return verified !== null && sameName(verified, method.payeeName)
      ? []
      : [{ code: 'payee_name_mismatch', payee_name: method.payeeName, verified_name: verified }];
  }

  async exists(id: number): Promise<boolean> {
    const [row] = await this.db.select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.id, id)).limit(1);
    return row !== undefined;
  }

  /**
   * Moves an unreviewed record to `status` and releases its lock. The UPDATE's `status = 0` is the
   * decision: a concurrent transition waits on the row and then finds nothing to change.
   */
  private async transition(
    tx: Executor,
    id: number,
    status: WithdrawalStatusValue,
    actor: string,
    note: string | null,
    ownerId?: number,
    internalNote: string | null = null,
  ): Promise<WithdrawalRow> {
    const now = this.deps.clock.now();
    const owned = ownerId === undefined ? undefined : eq(withdrawals.userId, ownerId);
    const [row] = await tx
      .update(withdrawals)
      .set({ status, remark: note, internalNote, decidedBy: actor, decidedAt: now })
      .where(and(eq(withdrawals.id, id), eq(withdrawals.status, WithdrawalStatus.unreviewed), owned))
      .returning();
    if (!row) {
      const [existing] = await tx
        .select({ id: withdrawals.id })
        .from(withdrawals)
        .where(and(eq(withdrawals.id, id), owned))
        .limit(1);
      throw existing ? conflict('withdraw_already_decided') : notFound('withdrawal_not_found');
    }
    await this.deps.wallet.adjustLock(tx, row.userId, dec(row.amount).negated());
    await recordCashierEvent(tx, REF_TYPE, id, { status, actor, note, at: now });
    return row;
  }

  /** One of the user's records with its timeline; another user's is "not found". */
  async record(userId: number, id: number): Promise<WithdrawalRecord> {
    const [row] = await this.db
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.id, id), eq(withdrawals.userId, userId)))
      .limit(1);
    if (!row) throw notFound('withdrawal_not_found');
    const [record] = await this.withTimelines([row]);
    return record!;
  }

  /** The user's records, newest first, optionally of one type. */
  async list(
    userId: number,
    type: CashierTypeValue | undefined,
    page: number,
  ): Promise<{ rows: WithdrawalRecord[]; total: number }> {
    const where = and(eq(withdrawals.userId, userId), type === undefined ? undefined : eq(withdrawals.type, type));
    const [rows, [totals]] = await Promise.all([
      this.db
        .select()
        .from(withdrawals)
        .where(where)
        .orderBy(desc(withdrawals.id))
        .limit(WITHDRAWAL_PAGE_SIZE)
        .offset((page - 1) * WITHDRAWAL_PAGE_SIZE),
      this.db.select({ total: count() }).from(withdrawals).where(where),
    ]);
    return { rows: await this.withTimelines(rows), total: Number(totals?.total ?? 0) };
  }

  /** The operators' queue: records in a status (of every user or one), oldest first (the longest waiting are decided first). */
  async queue(
    status: WithdrawalStatusValue,
    page: number,
    userId?: number,
  ): Promise<{ rows: WithdrawalRecord[]; total: number }> {
    const where = and(eq(withdrawals.status, status), userId === undefined ? undefined : eq(withdrawals.userId, userId));
    const [rows, [totals]] = await Promise.all([
      this.db
        .select()
        .from(withdrawals)
        .where(where)
        .orderBy(asc(withdrawals.createdAt), asc(withdrawals.id))
        .limit(WITHDRAWAL_PAGE_SIZE)
        .offset((page - 1) * WITHDRAWAL_PAGE_SIZE),
      this.db.select({ total: count() }).from(withdrawals).where(where),
    ]);
    return { rows: await this.withTimelines(rows), total: Number(totals?.total ?? 0) };
  }

  private async withTimelines(rows: WithdrawalRow[]): Promise<WithdrawalRecord[]> {
    const timelines = await cashierTimelines(
      this.db,
      REF_TYPE,
      rows.map((row) => row.id),
    );
    return rows.map((withdrawal) => ({ withdrawal, timeline: timelines.get(withdrawal.id) ?? [] }));
  }
}

/** What a bind stores, and how a stored method of the same currency counts as the same destination. */
function destinationOf(currency: CurrencyRow, body: TBindDrawMethodRequest) {
  if (body.type === CashierType.coin) {
    const { address, sameAs } = coinAddress(currency.protocol, body.dc_address);
    return {
      values: { address },
      sameAs:
        currency.protocol === 'ERC20' ? sql`lower(${payoutMethods.address}) = ${sameAs}` : eq(payoutMethods.address, sameAs),
    };
  }
  const { payeeAccount, bankSwift } = bankAccount(body.payee_account, body.bank_swift);
  return {
    values: {
      bankName: body.bank_name,
      bankAddress: body.bank_address ?? null,
      bankSwift: bankSwift ?? null,
      payeeName: body.payee_name,
      payeeAccount,
      bankBranch: body.bank_branch ?? null,
      remark: body.remark ?? null,
    },
    sameAs: eq(payoutMethods.payeeAccount, payeeAccount),
  };
}

/** A name's words without case, punctuation or order: "LOVELACE, Ada" is "Ada Lovelace". */
const nameWords = (name: string) =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort()
    .join(' ');
const sameName = (a: string, b: string) => nameWords(a) === nameWords(b);

/** How the notice names a method: the currency and protocol, and the destination shortened to its ends. */
function describeMethod(method: MethodRow, currency: CurrencyRow): string {
  const destination = method.address ?? method.payeeAccount ?? '';
  const shortened = destination.length > 12 ? `${destination.slice(0, 6)}…${destination.slice(-4)}` : destination;
  return [currency.code, currency.protocol, shortened].filter(Boolean).join(' ');
}
