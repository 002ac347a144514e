import { useLazyTranslation } from '../i18n/lazy';
import './RiskDisclosure.css';

const PARAGRAPHS = ['disclosure.p1', 'disclosure.p2', 'disclosure.p3', 'disclosure.p4'] as const;

/** The risk disclosure in the reader's language, with the version that accepting it records. */
export function RiskDisclosureText({ version }: { version: number }) {
  const { t } = useLazyTranslation('signup');
  return (
    <article className="risk-disclosure" aria-labelledby="risk-disclosure-title">
      <h2 id="risk-disclosure-title">{t('disclosure.title')}</h2>
      <p className="risk-disclosure-version">{t('disclosure.version', { version })}</p>
      {PARAGRAPHS.map((key) => (
        <p key={key}>{t(key)}</p>
      ))}
    </article>
  );
}
