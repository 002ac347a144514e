/** The 18 interface languages of the product, in the spec's order; hk (Traditional Chinese) is the default. */
export const LANGUAGES = [
  'hk',
  'en',
  'jp',
  'kr',
  'th',
  'vn',
  'fr',
  'de',
  'ru',
  'spa',
  'pt',
  'ar',
  'it',
  'tr',
  'id',
  'my',
  'hi',
  'cs',
] as const;

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'hk';

/** Right-to-left languages among ours. */
export const RTL_LANGUAGES: readonly Language[] = ['ar'];

/** BCP 47 tags for Intl formatting of numbers and dates. */
export const LANGUAGE_LOCALES: Record<Language, string> = {
  hk: 'zh-Hant-HK',
  en: 'en',
  jp: 'ja',
  kr: 'ko',
  th: 'th',
  vn: 'vi',
  fr: 'fr',
  de: 'de',
  ru: 'ru',
  spa: 'es',
  pt: 'pt',
  ar: 'ar',
  it: 'it',
  tr: 'tr',
  id: 'id',
  my: 'my',
  hi: 'hi',
  cs: 'cs',
};

/** Keyed by client text (headers), so a Map: an object literal answers `__proto__` with Object.prototype. */
const ALIASES = new Map<string, Language>([
  ['tw', 'hk'],
  ['zh', 'hk'],
  ['ja', 'jp'],
  ['ko', 'kr'],
  ['vi', 'vn'],
  ['es', 'spa'],
]);
const KNOWN = new Set<string>(LANGUAGES);

/**
 * Maps a `lang` value (our codes, the legacy `tw`, or a BCP 47 tag such as `pt-BR`) to one of ours;
 * anything unknown falls back to the default.
 */
export function resolveLanguage(value: string | null | undefined): Language {
  if (typeof value !== 'string' || !value) return DEFAULT_LANGUAGE;
  const lower = value.trim().toLowerCase();
  if (KNOWN.has(lower)) return lower as Language;
  const primary = lower.split(/[-_]/)[0] ?? '';
  if (lower.startsWith('zh')) return 'hk';
  if (KNOWN.has(primary)) return primary as Language;
  return ALIASES.get(lower) ?? ALIASES.get(primary) ?? DEFAULT_LANGUAGE;
}
