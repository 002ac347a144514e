import { LANGUAGE_LOCALES, LANGUAGES, RTL_LANGUAGES, resolveLanguage, type Language } from '@pipwise/domain';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

type Messages = Record<string, unknown>;

/** Each language is its own chunk: a visitor downloads only the one they read. */
const loaders = import.meta.glob<Messages>('./locales/*.json', { import: 'default' });

const STORAGE_KEY = 'pipwise.lang';

/** A saved choice wins; otherwise the browser's language when it is one of ours, else hk (docs/api.md). */
export function initialLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved) return resolveLanguage(saved);
  for (const tag of navigator.languages ?? [navigator.language]) {
    const lower = tag.toLowerCase();
    const candidate = resolveLanguage(lower);
    // resolveLanguage falls back to hk for anything unknown; accept only a real match.
    if (candidate !== 'hk' || lower.startsWith('zh') || lower === 'tw' || lower === 'hk') return candidate;
  }
  return 'hk';
}

function download(language: Language): Promise<Messages> {
  const loader = loaders[`./locales/${language}.json`];
  if (!loader) return Promise.reject(new Error(`no messages for ${language}`));
  return loader();
}

async function load(language: Language) {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  i18n.addResourceBundle(language, 'translation', await download(language), true, true);
}

function applyToDocument(language: Language) {
  const root = document.documentElement;
  root.lang = LANGUAGE_LOCALES[language];
  root.dir = RTL_LANGUAGES.includes(language) ? 'rtl' : 'ltr';
}

export async function initI18n(language = initialLanguage()) {
  // Asked for before i18next starts, which waits a task: by then the first screen's chunks and calls had
  // taken the browser's six connections, and the messages every screen's first paint needs came last.
  const messages = download(language);
  // A failed download is thrown by the await below; until then it is not an unhandled rejection.
  messages.catch(() => undefined);
  await i18n.use(initReactI18next).init({
    lng: language,
    resources: {},
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });
  i18n.addResourceBundle(language, 'translation', await messages, true, true);
  await i18n.changeLanguage(language);
  applyToDocument(language);
  return i18n;
}

export async function setLanguage(value: string) {
  const language = resolveLanguage(value);
  await load(language);
  await i18n.changeLanguage(language);
  localStorage.setItem(STORAGE_KEY, language);
  applyToDocument(language);
}

let resolved: { from: string; language: Language } | undefined;

/**
 * The reader's language; before i18next starts (the first screen's calls go out then), the one it will
 * start in. Every number drawn asks for it (a price tick redraws the chart's axis), so it is resolved once.
 */
export function currentLanguage(): Language {
  const from = i18n.language;
  if (!from) return initialLanguage();
  if (resolved?.from !== from) resolved = { from, language: resolveLanguage(from) };
  return resolved.language;
}

export { i18n };
