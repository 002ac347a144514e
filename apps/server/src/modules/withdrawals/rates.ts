import { createHmac, timingSafeEqual } from 'node:crypto';
import { conflict, dec, rejected, withdrawRateOf, type Language, type WithdrawRateSource } from '@pipwise/domain';
import type { Clock } from '../../clock.js';
import { formatDateTime } from '../../i18n/dates.js';
import type { MarketService } from '../market/api.js';
import type { SettingsService } from '../settings/service.js';
import type { CurrencyRow } from './records.js';

/** What withdrawals need of the market: the trading model's conversion and the time of the quote it used. */
export type MarketRates = Pick<MarketService, 'usdRate' | 'getInstrumentByCode' | 'getQuote'>;

/** A currency's rate at one moment: what the list shows, the quote honours and the record locks. */
export interface WithdrawRate {
  /** Units of the currency one USD buys, decimal text with at most 8 decimals. */
  usdPrice: string;
  source: WithdrawRateSource;
  pair: string | null;
  /** The quote's time, or when an operator set the rate. */
  at: Date;
  /** An operator rate's end of validity; null for market rates. */
  expiresAt: Date | null;
}

/** How long a rate shown on the screen is honoured: long enough to type and confirm, short against picking old quotes. */
export const RATE_QUOTE_TTL_MS = 60_000;
/** Gateways' clocks may differ a little: a quote one issued is taken by another slightly behind it. */
const CLOCK_SKEW_MS = 5_000;
const HOUR_MS = 3_600_000;
const DEFAULT_MAX_AGE_HOURS = 24;

/**
 * Withdraw rates. A currency with a market pair follows it by the trading model's conversion
 * (`MarketService.usdRate`: the bid of XXXUSD, or 1 ÷ the bid of USDXXX; `withdrawRateOf` turns it into
 * units per USD); one without carries the operator's rate, refused once older than
 * `withdraw_rate_max_age_hours`. The list hands out each rate with a signed quote so the withdrawal is
 * charged at the rate the screen showed even when the market ticked in between.
 */
export class WithdrawRates {
  constructor(private readonly deps: { market: MarketRates; settings: SettingsService; clock: Clock; key: Buffer }) {}

  /** The market pair that prices `code` against USD, if the market quotes one. */
  pairOf(code: string): string | null {
    for (const pair of [`${code}USD`, `USD${code}`]) if (this.deps.market.getInstrumentByCode(pair)) return pair;
    return null;
  }

  async current(currency: CurrencyRow): Promise<WithdrawRate> {
    const now = this.deps.clock.now();
    if (currency.code === 'USD') return { usdPrice: '1', source: 'market', pair: null, at: now, expiresAt: null };
    const pair = this.pairOf(currency.code);
    if (pair) {
      const instrument = this.deps.market.getInstrumentByCode(pair)!;
      const quote = this.deps.market.getQuote(instrument.id);
      return {
        usdPrice: withdrawRateOf(this.deps.market.usdRate(currency.code)).toFixed(),
        source: 'market',
        pair,
        at: quote ? new Date(quote.time) : now,
        expiresAt: null,
      };
    }
    const maxAgeHours = Number(await this.deps.settings.get('withdraw_rate_max_age_hours')) || DEFAULT_MAX_AGE_HOURS;
    return {
      usdPrice: dec(currency.usdPrice).toFixed(),
      source: 'operator',
      pair: null,
      at: currency.usdPriceUpdatedAt,
      expiresAt: new Date(currency.usdPriceUpdatedAt.getTime() + maxAgeHours * HOUR_MS),
    };
  }

  /** The signed quote of a rate for one currency, honoured by `redeem` for RATE_QUOTE_TTL_MS. */
  quote(currencyId: number, rate: WithdrawRate): string {
    const payload = Buffer.from(
      JSON.stringify([
        currencyId,
        rate.usdPrice,
        rate.source,
        rate.pair,
        rate.at.getTime(),
        rate.expiresAt?.getTime() ?? null,
        this.deps.clock.now().getTime(),
      ]),
    ).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /**
   * The rate a quote carries, if it was issued by this server for this currency less than a minute ago;
   * otherwise 1009: the screen fetches the rate again and shows the new estimate before anything is sent.
   */
  redeem(token: string, currencyId: number): WithdrawRate {
    const [payload, signature, extra] = token.split('.');
    const expected = payload === undefined ? undefined : this.sign(payload);
    const given = Buffer.from(signature ?? '');
    if (
      extra !== undefined ||
      expected === undefined ||
      given.length !== expected.length ||
      !timingSafeEqual(given, Buffer.from(expected))
    ) {
      throw conflict('withdraw_rate_expired');
    }
    const fields = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as [
      number,
      string,
      WithdrawRateSource,
      string | null,
      number,
      number | null,
      number,
    ];
    const [id, usdPrice, source, pair, at, expiresAt, issuedAt] = fields;
    const age = this.deps.clock.now().getTime() - issuedAt;
    if (id !== currencyId || age < -CLOCK_SKEW_MS || age > RATE_QUOTE_TTL_MS) throw conflict('withdraw_rate_expired');
    return { usdPrice, source, pair, at: new Date(at), expiresAt: expiresAt === null ? null : new Date(expiresAt) };
  }

  /** An operator rate past its validity pays nothing out until an operator sets it again. */
  requireValid(rate: WithdrawRate, code: string, lang: Language) {
    if (rate.expiresAt !== null && rate.expiresAt < this.deps.clock.now()) {
      throw rejected('withdraw_rate_stale', { code, time: formatDateTime(rate.at, lang) });
    }
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.deps.key).update(payload).digest('base64url');
  }
}
