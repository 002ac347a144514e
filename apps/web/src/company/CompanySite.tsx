import { CompanyStatus } from '@pipwise/domain';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompanyQuery, useCompanyStatusQuery } from '../api/queries/company';
import { renewCompanyCookie, safeLossUrl } from './site';
import './company.css';

/**
 * The company side of the app frame: a closed site (status 0) sends the browser to its loss_url (docs/api.md), and the page title carries the company's name. Renders only when the site is closed with nowhere
 * to send the browser.
 */
export function CompanySite() {
  const { t } = useTranslation();
  const status = useCompanyStatusQuery();
  const company = useCompanyQuery();
  const closed = status.data?.status === CompanyStatus.closed;
  const destination = closed ? safeLossUrl(status.data?.loss_url ?? '') : null;

  useEffect(renewCompanyCookie, []);

  useEffect(() => {
    if (destination) window.location.replace(destination);
  }, [destination]);

  const name = company.data?.name;
  useEffect(() => {
    if (name) document.title = name;
  }, [name]);

  if (!closed || destination) return null;
  return (
    <div className="company-closed" role="alert">
      <p>{t('company.closed')}</p>
    </div>
  );
}
