import type { CashierTypeValue } from '@pipwise/domain';
import { and, asc, eq } from 'drizzle-orm';
import { withdrawCurrencies } from '../../db/schema.js';
import type { WithdrawalsDeps } from './deps.js';
import type { WithdrawRate } from './rates.js';
import type { CurrencyRow } from './records.js';

/** A currency as the list offers it: its terms, its rate now and the signed quote of that rate. */
export interface QuotedCurrency {
  currency: CurrencyRow;
  rate: WithdrawRate;
  quote: string;
}

/** The currencies a user may withdraw in, as the withdraw screen lists them (the operators edit them in `currencies.ts`). */
export class OfferedCurrencies {
  constructor(private readonly deps: Pick<WithdrawalsDeps, 'db' | 'rates'>) {}

  private async enabled(type: CashierTypeValue): Promise<CurrencyRow[]> {
    return this.deps.db
      .select()
      .from(withdrawCurrencies)
      .where(and(eq(withdrawCurrencies.type, type), eq(withdrawCurrencies.enabled, true)))
      .orderBy(asc(withdrawCurrencies.sort), asc(withdrawCurrencies.id));
  }

  /** The enabled currencies of a type, each with its rate now and a quote the withdrawal can be charged at. */
  async quoted(type: CashierTypeValue): Promise<QuotedCurrency[]> {
    const rows = await this.enabled(type);
    return Promise.all(
      rows.map(async (currency) => {
        const rate = await this.deps.rates.current(currency);
        return { currency, rate, quote: this.deps.rates.quote(currency.id, rate) };
      }),
    );
  }
}
