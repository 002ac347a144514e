import { z } from 'zod';
import { KLINE_DEFAULT_LIMIT, KLINE_MAX_LIMIT, KLINE_PERIODS } from '../market.js';
import { optionalText, positiveIntId } from './common.js';

/*
 * The market queries' schemas, apart from market.ts: the app's screens need the periods, sessions and views,
 * and zod would come with them.
 */
const klinePeriod = z.enum(KLINE_PERIODS, { error: 'period_invalid' });

export const ZTradeListQuery = z.object({ searchCurrency: optionalText(32) });
export type TTradeListQuery = z.infer<typeof ZTradeListQuery>;

export const ZKlineQuery = z.object({
  forex_id: positiveIntId('forex_id_invalid'),
  period: klinePeriod,
  limit: z.coerce
    .number({ error: 'kline_limit_invalid' })
    .int({ error: 'kline_limit_invalid' })
    .min(1, { error: 'kline_limit_invalid' })
    .max(KLINE_MAX_LIMIT, { error: 'kline_limit_invalid' })
    .default(KLINE_DEFAULT_LIMIT),
  /** Only bars that open before this time (seconds since the epoch), for paging back through history. */
  end: z.coerce
    .number({ error: 'kline_end_invalid' })
    .int({ error: 'kline_end_invalid' })
    .min(0, { error: 'kline_end_invalid' })
    .max(32_503_680_000, { error: 'kline_end_invalid' })
    .optional(),
});
export type TKlineQuery = z.infer<typeof ZKlineQuery>;

/** Sparkline series: one instrument when forex_id is given, every instrument otherwise. */
export const ZAbbreviatedKlineQuery = z.object({
  forex_id: positiveIntId('forex_id_invalid').optional(),
  period: klinePeriod.default('15min'),
});
export type TAbbreviatedKlineQuery = z.infer<typeof ZAbbreviatedKlineQuery>;
