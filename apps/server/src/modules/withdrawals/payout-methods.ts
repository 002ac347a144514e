import {
  CashierType,
  conflict,
  invalid,
  notFound,
  type CashierTypeValue,
  type PayoutWarningView,
  type TBindDrawMethodRequest,
} from '@pipwise/domain';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { bankAccount, coinAddress } from '../../cashier/destinations.js';
import { payoutMethods, users, withdrawCurrencies } from '../../db/schema.js';
import { translate } from '../../i18n/catalog.js';
import { formatDateTime } from '../../i18n/dates.js';
import type { WithdrawalsDeps } from './deps.js';
import type { CurrencyRow, MethodRow, WithdrawalRow } from './records.js';

export interface MethodRecord {
  method: MethodRow;
  currency: CurrencyRow;
}

const HOUR_MS = 3_600_000;

/**
 * The user's payout methods (bound, listed, removed) and the warnings operators see on them. A new
 * method waits out a cool-down before it can receive anything, and its owner is told it was bound.
 */
export class PayoutMethods {
  constructor(private readonly deps: Pick<WithdrawalsDeps, 'db' | 'clock' | 'settings' | 'identity' | 'notifier'>) {}

  /** The enabled currency of a type that a bind names. */
  private async currency(id: number, type: CashierTypeValue): Promise<CurrencyRow> {
    const [row] = await this.deps.db
      .select()
      .from(withdrawCurrencies)
      .where(and(eq(withdrawCurrencies.id, id), eq(withdrawCurrencies.type, type), eq(withdrawCurrencies.enabled, true)))
      .limit(1);
    if (!row) throw invalid('currency_invalid', { field: 'draw_id' });
    return row;
  }

  /** The user's methods of a type (optionally of one currency) that are not deleted, newest first. */
  list(userId: number, type: CashierTypeValue, currencyId?: number): Promise<MethodRecord[]> {
    return this.deps.db
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
    const method = await this.deps.db.transaction(async (tx) => {
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
    const [deleted] = await this.deps.db
      .update(payoutMethods)
      .set({ deletedAt: this.deps.clock.now() })
      .where(and(eq(payoutMethods.id, id), eq(payoutMethods.userId, userId), isNull(payoutMethods.deletedAt)))
      .returning({ id: payoutMethods.id });
    if (!deleted) throw notFound('method_invalid');
  }

  /** Each record's warnings (by record id), judged on the payout method it was made to. */
  async warnings(rows: WithdrawalRow[]): Promise<Map<number, PayoutWarningView[]>> {
    const ids = [...new Set(rows.map((row) => row.methodId))];
    const methods = ids.length === 0 ? [] : await this.deps.db.select().from(payoutMethods).where(inArray(payoutMethods.id, ids));
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
    const methods = await this.deps.db
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
      const others = await this.deps.db
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
