import { LANGUAGE_LOCALES, nextSessionOpen } from '@pipwise/domain';
import type { TradePair } from '../api/types';
import { currentLanguage } from '../i18n';

/** When a closed market opens next (ms since the epoch), from its session's hours; null while it is open. */
export function nextOpening(pair: TradePair, now: number): number | null {
  return pair.MarketStatus === 1 ? null : nextSessionOpen(pair.Session, now);
}

const openingFormats = new Map<string, Intl.DateTimeFormat>();

/** Built once per language and zone: a quotes list of closed markets drew two new formats per row per render. */
function opening(withDate: boolean, timeZone: string | undefined) {
  const locale = LANGUAGE_LOCALES[currentLanguage()];
  const key = `${locale}|${withDate}|${timeZone ?? ''}`;
  let format = openingFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      ...(withDate ? { day: 'numeric', month: 'short' } : {}),
      ...(timeZone ? { timeZone } : {}),
    });
    openingFormats.set(key, format);
  }
  return format;
}

/** The opening as the reader writes a day and a time ("Sun, Nov 29, 10:00 PM"), in their time zone unless another is named. */
export function formatOpening(time: number, timeZone?: string): string {
  return opening(true, timeZone).format(time);
}

/** The weekday and the time only ("Sun 10:00 PM"), for a quotes row: a market is never closed for a week. */
export const formatOpeningDay = (time: number) => opening(false, undefined).format(time);
