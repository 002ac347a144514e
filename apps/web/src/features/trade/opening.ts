import { LANGUAGE_LOCALES, nextSessionOpen } from '@pipwise/domain';
import type { TradePair } from '../../api/types';
import { currentLanguage } from '../../i18n';

/** When a closed market opens next (ms since the epoch), from its session's hours; null while it is open. */
export function nextOpening(pair: TradePair, now: number): number | null {
  return pair.MarketStatus === 1 ? null : nextSessionOpen(pair.Session, now);
}

/** The opening as the reader writes a day and a time ("Sun, Nov 29, 10:00 PM"), in their time zone unless another is named. */
export function formatOpening(time: number, timeZone?: string): string {
  return new Intl.DateTimeFormat(LANGUAGE_LOCALES[currentLanguage()], {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  }).format(time);
}
