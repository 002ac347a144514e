import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Operator-facing languages: English and Traditional Chinese (the server answers in the same one). */
export const ADMIN_LANGUAGES = ['en', 'hk'] as const;
export type AdminLanguage = (typeof ADMIN_LANGUAGES)[number];

const LANGUAGE_KEY = 'pipwise.admin-language';

/**
 * One JSON file per area and language (`locales/<lang>/<area>.json`); the area is the namespace. Each is
 * its own chunk, loaded when a page first asks for its area (`useTranslation(area)` waits for it), so
 * the sign-in form downloads its own words and not the whole back office's in both languages.
 */
const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { import: 'default' });

const lazyMessages: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init: () => undefined,
  read(language, namespace, callback) {
    const load = files[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (messages) => callback(null, messages),
      (error: unknown) => callback(error instanceof Error ? error : String(error), null),
    );
  },
};

const stored = localStorage.getItem(LANGUAGE_KEY);
export const i18n = i18next.createInstance();

/** Resolves once the words every page shares (common, the menu's) are loaded: the app renders after it. */
export const i18nReady = i18n
  .use(lazyMessages)
  .use(initReactI18next)
  .init({
    lng: stored === 'hk' ? 'hk' : 'en',
    fallbackLng: 'en',
    ns: ['common', 'nav'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
  });

/**
 * Every area's words, fetched in the background once an operator is signed in: a drawer or dialog of
 * another area then opens at once instead of waiting for its words.
 */
export function loadAllMessages() {
  const areas = new Set(Object.keys(files).map((file) => /\/(\w+)\.json$/.exec(file)?.[1] ?? 'common'));
  return i18n.loadNamespaces([...areas]);
}

export function setLanguage(language: AdminLanguage) {
  localStorage.setItem(LANGUAGE_KEY, language);
  void i18n.changeLanguage(language);
  document.documentElement.lang = language === 'hk' ? 'zh-Hant-HK' : 'en';
}
