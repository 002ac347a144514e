import type { CompanyView } from '@pipwise/domain';
import { InfiniteScroll } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useCompanySearchQuery } from '../api/queries/companySearch';
import { EmptyState, ErrorState, ListSkeleton } from '../components/states';
import { enterCompany } from './site';
import './company.css';

/** The main site's search (docs/api.md product): companies by name; tapping one enters its site. */
export function CompanySearch({ name }: { name: string }) {
  const { t } = useTranslation();
  const companies = useCompanySearchQuery(name, true);
  const rows = companies.data?.pages.flatMap((page) => page.data) ?? [];

  if (companies.isPending) return <ListSkeleton />;
  if (companies.isError) return <ErrorState onRetry={() => void companies.refetch()} />;
  if (rows.length === 0) return <EmptyState text={t('company.none')} />;
  return (
    <>
      <ul className="company-list" aria-label={t('company.results')}>
        {rows.map((company) => (
          <CompanyRow key={company.id} company={company} />
        ))}
      </ul>
      <InfiniteScroll
        hasMore={companies.hasNextPage}
        loadMore={async () => {
          await companies.fetchNextPage();
        }}
      >
        <span className="list-end">{companies.hasNextPage ? t('common.loading') : t('common.no_more')}</span>
      </InfiniteScroll>
    </>
  );
}

function CompanyRow({ company }: { company: CompanyView }) {
  const { t } = useTranslation();
  return (
    <li>
      <button
        type="button"
        className="company-row"
        aria-label={t('company.enter', { name: company.name })}
        onClick={() => enterCompany(company.id)}
      >
        {company.logo ? (
          <img className="company-logo" src={company.logo} alt="" width={40} height={40} loading="lazy" />
        ) : (
          <span className="company-logo company-logo-empty" aria-hidden="true" />
        )}
        <span className="company-text">
          <span className="company-name" translate="no">
            {company.name}
          </span>
          {company.location && (
            <span className="company-location" translate="no">
              {company.location}
            </span>
          )}
        </span>
      </button>
    </li>
  );
}
