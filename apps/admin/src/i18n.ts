import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Operator-facing languages: English and Traditional Chinese (the server answers in the same one). */
export const ADMIN_LANGUAGES = ['en', 'hk'] as const;
export type AdminLanguage = (typeof ADMIN_LANGUAGES)[number];

const LANGUAGE_KEY = 'pipwise.admin-language';

/** One JSON file per area and language (`locales/<lang>/<area>.json`); the area is the namespace. */
const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { eager: true, import: 'default' });
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [file, texts] of Object.entries(files)) {
  const [, language, namespace] = /\.\/locales\/(\w+)\/(\w+)\.json$/.exec(file) ?? [];
  if (!language || !namespace) continue;
  (resources[language] ??= {})[namespace] = texts;
}

const stored = localStorage.getItem(LANGUAGE_KEY);
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources,
  lng: stored === 'hk' ? 'hk' : 'en',
  fallbackLng: 'en',
  defaultNS: 'common',
  interpolation: { escapeValue: false },
});

export function setLanguage(language: AdminLanguage) {
  localStorage.setItem(LANGUAGE_KEY, language);
  void i18n.changeLanguage(language);
  document.documentElement.lang = language === 'hk' ? 'zh-Hant-HK' : 'en';
}
