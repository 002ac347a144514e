import { LANGUAGE_LOCALES } from '@pipwise/domain';
import { currentLanguage } from './index';

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(decimals: number, style: 'decimal' | 'percent' = 'decimal', signed = false) {
  const locale = LANGUAGE_LOCALES[currentLanguage()];
  const key = `${locale}|${decimals}|${style}|${signed}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
    });
    numberFormats.set(key, format);
  }
  return format;
}

/** A number in the reader's language with a fixed count of decimals (prices, lots, money). */
export const formatNumber = (value: number | null | undefined, decimals = 2, signed = false) =>
  value === null || value === undefined || Number.isNaN(value) ? '--' : numberFormat(decimals, 'decimal', signed).format(value);

/** A change given in percent points (1.25 → "+1.25%"). */
export const formatPercent = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? '--' : numberFormat(2, 'percent', true).format(value / 100);

/** Lots show 2 to 4 decimals (0.01, 0.0005). */
export function formatLots(value: number | null | undefined) {
  if (value === null || value === undefined || Number.isNaN(value)) return '--';
  const locale = LANGUAGE_LOCALES[currentLanguage()];
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(value);
}

export const formatMoney = (value: number | null | undefined) => formatNumber(value, 2);

export const formatProfit = (value: number | null | undefined) => formatNumber(value, 6, true);

const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function formatDateTime(value: string | number | Date | null | undefined) {
  if (value === null || value === undefined || value === '') return '--';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const locale = LANGUAGE_LOCALES[currentLanguage()];
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}
