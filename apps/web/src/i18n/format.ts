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

/** formatNumber's format looked up once, for one caller drawing many numbers (the chart's price axis). */
export function numberFormatter(decimals: number) {
  const format = numberFormat(decimals);
  return (value: number) => format.format(value);
}

/** A change given in percent points (1.25 → "+1.25%"). */
export const formatPercent = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? '--' : numberFormat(2, 'percent', true).format(value / 100);

const lotFormats = new Map<string, Intl.NumberFormat>();

/** Lots show 2 to 4 decimals (0.01, 0.0005). */
export function formatLots(value: number | null | undefined) {
  if (value === null || value === undefined || Number.isNaN(value)) return '--';
  const locale = LANGUAGE_LOCALES[currentLanguage()];
  let format = lotFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 4 });
    lotFormats.set(locale, format);
  }
  return format.format(value);
}

export const formatMoney = (value: number | null | undefined) => formatNumber(value, 2);

/** P&L is money: 2 decimals and its sign, though the API sends it finer. */
export const formatProfit = (value: number | null | undefined) => formatNumber(value, 2, true);

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat() {
  const locale = LANGUAGE_LOCALES[currentLanguage()];
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
    dateFormats.set(locale, format);
  }
  return format;
}

export function formatDateTime(value: string | number | Date | null | undefined) {
  if (value === null || value === undefined || value === '') return '--';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return dateTimeFormat().format(date);
}

/**
 * Builds the first number and date formats while the first screen's data is on its way. The first of
 * each kind loads the engine's locale data, about 100 ms and 20 ms on a slow phone, which otherwise fell
 * inside the first render of the quotes (docs/benchmarks.md).
 */
export function prepareFormats() {
  numberFormat(2);
  dateTimeFormat();
}

interface NumberSymbols {
  decimal: string;
  group: string;
  /** The language's own digits, 0 to 9 (Burmese writes ၀–၉). */
  digits: string[];
}

const symbolCache = new Map<string, NumberSymbols>();

function numberSymbols(): NumberSymbols {
  const locale = LANGUAGE_LOCALES[currentLanguage()];
  let found = symbolCache.get(locale);
  if (!found) {
    const format = new Intl.NumberFormat(locale);
    const parts = format.formatToParts(12345.6);
    found = {
      decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
      group: parts.find((part) => part.type === 'group')?.value ?? ',',
      digits: Array.from({ length: 10 }, (_, digit) => format.format(digit)),
    };
    symbolCache.set(locale, found);
  }
  return found;
}

/**
 * A figure typed in the reader's language ("0,05" in German or Russian, "၀.၅" in Burmese) as the plain
 * text the API takes ("0.05"), or null when it is no number. A point is read as the decimal separator too,
 * as a phone's number pad may offer only that. Text to text: no float on the way.
 */
function normalizeFigure(text: string): string | null {
  const { decimal, group, digits } = numberSymbols();
  let plain = text.replace(/[\s\u00a0\u202f]/g, '');
  digits.forEach((glyph, digit) => {
    plain = plain.split(glyph).join(String(digit));
  });
  if (decimal !== '.' && plain.includes(decimal)) plain = plain.split(group).join('').replace(decimal, '.');
  else if (decimal === '.') plain = plain.split(group).join('');
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(plain) ? plain : null;
}

/** Reads a number typed in the reader's language, the inverse of formatNumber; NaN when it is none. */
export function parseNumber(text: string): number {
  const plain = normalizeFigure(text);
  return plain === null ? Number.NaN : Number(plain);
}

/** A plain figure ("1.085", as the API takes it) written with the reader's digits and decimal separator. */
export function localizeFigure(plain: string): string {
  const { decimal, digits } = numberSymbols();
  return plain.replace(/\d/g, (digit) => digits[Number(digit)] ?? digit).replace('.', decimal);
}

/**
 * What the reader typed, as the plain figure the API takes ("1,085" in Russian → "1.085"); empty stays
 * empty and what is no number is passed on as typed, for the form's own rule to refuse.
 */
export function plainFigure(typed: string): string {
  if (!typed.trim()) return '';
  return normalizeFigure(typed) ?? typed;
}
