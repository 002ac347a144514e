import {
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
  type Language,
  type TWithdrawRequest,
  type WithdrawalProblem,
  type WithdrawalProblemCode,
} from '@pipwise/domain';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { announceWalletChange } from '../../cashier/notices.js';
import { recordCashierEvent } from '../../db/cashier-events.js';
import type { Executor } from '../../db/client.js';
import type { IdempotentRequest } from '../../db/idempotency.js';
import { payoutMethods, withdrawals, withdrawCurrencies } from '../../db/schema.js';
import { formatDateTime } from '../../i18n/dates.js';
import type { WithdrawalsDeps } from './deps.js';
import { REF_TYPE, USER_ACTOR, type WithdrawalRecord, type WithdrawalRecords } from './records.js';

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
 * The user's own withdrawal requests: what the withdraw screen is told first, the request itself, its
 * cancel while unreviewed and the user's list. The requested amount moves into lock_balance in the same
 * transaction as the record, under the wallet's row lock, so concurrent requests cannot together take
 * more than may leave.
 */
export class WithdrawalRequests {
  constructor(
    private readonly deps: Pick<
      WithdrawalsDeps,
      | 'db'
      | 'bus'
      | 'clock'
      | 'wallet'
      | 'settings'
      | 'trading'
      | 'identity'
      | 'restrictions'
      | 'idempotency'
      | 'claims'
      | 'rates'
    >,
    private readonly records: WithdrawalRecords,
  ) {}

  /** What the withdraw screen states before anything is typed: whether real-name verification stands in the way. */
  async rules(userId: number): Promise<{ kycRequired: boolean }> {
    return { kycRequired: await this.kycMissing(userId) };
  }

  private async kycMissing(userId: number): Promise<boolean> {
    return (await this.deps.settings.get('withdraw_requires_kyc')) === '1' && !(await this.deps.identity.isVerified(userId));
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
      (id) => this.records.record(userId, id),
    );
    if (outcome.replayed) return outcome.replayed;
    const { refId, msgKey } = outcome.first;
    announceWalletChange(this.deps.bus, userId, { cause: 'withdrawal', id: refId, status: WithdrawalStatus.unreviewed });
    return { record: await this.records.record(userId, refId), msgKey };
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
    await this.deps.db.transaction(async (tx) => {
      await this.records.transition(tx, id, WithdrawalStatus.invalid, USER_ACTOR, null, userId);
      // Nothing is left to review: an operator's claim on it ends with it.
      await this.deps.claims.releaseAll(tx, 'withdrawals', id);
    });
    announceWalletChange(this.deps.bus, userId, { cause: 'withdrawal', id, status: WithdrawalStatus.invalid });
    return this.records.record(userId, id);
  }

  /** The user's records, newest first, optionally of one type. */
  list(userId: number, type: CashierTypeValue | undefined, page: number): Promise<{ rows: WithdrawalRecord[]; total: number }> {
    const where = and(eq(withdrawals.userId, userId), type === undefined ? undefined : eq(withdrawals.type, type));
    return this.records.page(where, [desc(withdrawals.id)], page);
  }
}
