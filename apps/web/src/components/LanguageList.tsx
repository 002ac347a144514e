import { LANGUAGE_LOCALES, LANGUAGES, type Language } from '@pipwise/domain';
import { CheckList } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { currentLanguage, setLanguage } from '../i18n';

/** Each language named in itself, so a reader finds their own whatever language is showing. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  hk: '繁體中文',
  en: 'English',
  jp: '日本語',
  kr: '한국어',
  th: 'ไทย',
  vn: 'Tiếng Việt',
  fr: 'Français',
  de: 'Deutsch',
  ru: 'Русский',
  spa: 'Español',
  pt: 'Português',
  ar: 'العربية',
  it: 'Italiano',
  tr: 'Türkçe',
  id: 'Bahasa Indonesia',
  my: 'မြန်မာ',
  hi: 'हिन्दी',
  cs: 'Čeština',
};

export function LanguageList({ onChosen }: { onChosen?: (language: Language) => void }) {
  const { t } = useTranslation();
  const active = currentLanguage();
  return (
    <CheckList
      aria-label={t('language.title')}
      value={[active]}
      onChange={(values) => {
        // A tap on the ticked language unticks it (values is empty): it is still a choice, of the same language.
        const chosen = (values[0] as Language | undefined) ?? active;
        void setLanguage(chosen).then(() => onChosen?.(chosen));
      }}
    >
      {LANGUAGES.map((language) => (
        <CheckList.Item key={language} value={language}>
          <span lang={LANGUAGE_LOCALES[language]}>{LANGUAGE_NAMES[language]}</span>
        </CheckList.Item>
      ))}
    </CheckList>
  );
}
