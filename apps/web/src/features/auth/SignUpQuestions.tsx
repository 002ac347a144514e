import { LANGUAGE_LOCALES, resolveLanguage } from '@pipwise/domain';
import { Button, Checkbox, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useAreaListQuery, useBasicInfoQuery } from '../../api/queries/auth';
import { Field } from '../../components/fields';
import { countryList, parseCountryCodes } from '../../components/PolicyNotice';
import { RiskDisclosureText } from '../../components/RiskDisclosureText';
import { useLazyTranslation } from '../../i18n/lazy';

export interface SignUpAnswers {
  country: string;
  /** The disclosure version accepted; undefined until the box is ticked. */
  risk_disclosure_version?: number;
}

/**
 * What brokers must ask at sign-up: the country of residence (a country the service is not provided to
 * says so at once, as the server will) and the risk disclosure, read and accepted in the version in force.
 */
export function useSignUpQuestions() {
  const { t, i18n } = useLazyTranslation('signup');
  const areas = useAreaListQuery();
  const info = useBasicInfoQuery();
  const [country, setCountry] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [reading, setReading] = useState(false);
  const version = info.data?.risk_disclosure_version;
  const restricted = parseCountryCodes(info.data?.restricted_countries);

  // Every country named in the reader's language, in its alphabetical order.
  const locale = LANGUAGE_LOCALES[resolveLanguage(i18n.language)];
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const countries = (areas.data ?? [])
    .map((area) => ({ code: area.code, name: names.of(area.code) ?? area.name }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));

  const answers: SignUpAnswers = { country, ...(accepted && version !== undefined ? { risk_disclosure_version: version } : {}) };

  /** Problems of the answers, keyed `country` and `disclosure`, in the reader's words. */
  const validate = (): Record<string, string> => {
    const found: Record<string, string> = {};
    if (!country) found.country = t('signup.country_required');
    else if (restricted.includes(country)) {
      found.country = t('policy.notice', { ns: 'translation', countries: countryList(restricted, i18n.language) });
    }
    if (!accepted || version === undefined) found.disclosure = t('signup.disclosure_required');
    return found;
  };

  const fields = (errors: Record<string, string>) => (
    <>
      <Field label={t('signup.country')} error={errors.country}>
        <select
          className="country-select"
          aria-label={t('signup.country')}
          value={country}
          onChange={(event) => setCountry(event.target.value)}
        >
          <option value="">{t('signup.country_placeholder')}</option>
          {countries.map(({ code, name }) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      <div className="field">
        <Checkbox checked={accepted} onChange={setAccepted} className="disclosure-accept">
          {t('signup.disclosure_accept')}
        </Checkbox>
        <Button fill="none" color="primary" size="small" onClick={() => setReading(true)} className="disclosure-read">
          {t('signup.disclosure_read')}
        </Button>
        {errors.disclosure && (
          <p className="field-error" role="alert">
            {errors.disclosure}
          </p>
        )}
      </div>
      {version !== undefined && (
        <Popup visible={reading} position="bottom" bodyClassName="risk-disclosure-sheet" onMaskClick={() => setReading(false)}>
          <RiskDisclosureText version={version} />
          <div className="risk-disclosure-actions">
            <Button
              block
              color="primary"
              onClick={() => {
                setAccepted(true);
                setReading(false);
              }}
            >
              {t('disclosure.accept')}
            </Button>
          </div>
        </Popup>
      )}
    </>
  );

  return { answers, validate, fields };
}
