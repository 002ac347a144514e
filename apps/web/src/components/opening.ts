import { LANGUAGE_LOCALES, nextSessionOpen } from '@pipwise/domain';
import type { TradePair } from '../api/types';
import { currentLanguage } from '../i18n';

/** When a closed market opens next (ms since the epoch), from its session's hours; null while it is open. */
export function nextOpening(pair: TradePair, now: number): number | null {
  return pair.MarketStatus === 1 ? null : nextSessionOpen(pair.Session, now);
}

const opening = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(LANGUAGE_LOCALES[currentLanguage()], {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    ...options,
  });

/** The opening as the reader writes a day and a time ("Sun, Nov 29, 10:00 PM"), in their time zone unless another is named. */
export function formatOpening(time: number, timeZone?: string): string {
  return opening({ day: 'numeric', month: 'short', ...(timeZone ? { timeZone } : {}) }).format(time);
}

/** The weekday and the time only ("Sun 10:00 PM"), for a quotes row: a market is never closed for a week. */
export const formatOpeningDay = (time: number) => opening({}).format(time);
