import { LANGUAGE_LOCALES, type Language } from '@pipwise/domain';

const formatters = new Map<Language, { format: Intl.DateTimeFormat; second: number; text: string }>();

/**
 * A date-time in the request's language; UTC, named, because the server does not know the reader's
 * zone. The text shows seconds, so the last one per language is reused: orders placed in the same
 * second (a busy second has hundreds) cost one formatting.
 */
export function formatDateTime(value: Date | string, lang: Language): string {
  let formatter = formatters.get(lang);
  if (!formatter) {
    const format = new Intl.DateTimeFormat(LANGUAGE_LOCALES[lang], {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone: 'UTC',
      timeZoneName: 'short',
    });
    formatter = { format, second: Number.NaN, text: '' };
    formatters.set(lang, formatter);
  }
  const second = Math.floor(new Date(value).getTime() / 1000);
  if (second !== formatter.second) {
    formatter.text = formatter.format.format(second * 1000);
    formatter.second = second;
  }
  return formatter.text;
}
