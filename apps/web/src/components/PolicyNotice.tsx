import { LANGUAGE_LOCALES, resolveLanguage } from '@pipwise/domain';
import { InformationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useBasicInfoQuery } from '../api/queries/auth';
import './PolicyNotice.css';

/** ISO 3166 codes of the setting ("KP,IL,CN"), in order, without blanks or anything malformed. */
export function parseCountryCodes(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter((code) => /^[A-Z]{2}$/.test(code));
}

/** "North Korea, Israel and China" in the language shown (Intl knows every region's name in every locale). */
export function countryList(codes: string[], language: string): string {
  const locale = LANGUAGE_LOCALES[resolveLanguage(language)];
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(codes.map((code) => names.of(code) ?? code));
}

/**
 * The policy notice (docs/api.md): the countries the service is not provided to, from the operators' setting,
 * named in the reader's language. Nothing while the setting is unknown or empty.
 */
export function PolicyNotice() {
  const { t, i18n } = useTranslation();
  const info = useBasicInfoQuery();
  const codes = parseCountryCodes(info.data?.restricted_countries);
  if (codes.length === 0) return null;
  return (
    <aside className="policy-notice" aria-label={t('policy.title')}>
      <InformationCircleOutline className="policy-notice-icon" aria-hidden="true" />
      <p>{t('policy.notice', { countries: countryList(codes, i18n.language) })}</p>
    </aside>
  );
}
