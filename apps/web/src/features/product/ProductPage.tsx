import { SocketTopic } from '@pipwise/domain';
import { SearchBar } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTopic } from '../../api/live';
import { useCompanyStatusQuery } from '../../api/queries/company';
import { useTradeListQuery } from '../../api/queries/market';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { CompanySearch } from '../../company/CompanySearch';
import { PairRow } from '../../components/PairRow';

const SEARCH_DELAY_MS = 300;

/**
 * Search (docs/api.md product): the main site searches companies, a company's own site its pairs. Until the
 * site's status is known nothing is searched; a failed status call leaves the pair search.
 */
export default function ProductPage() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const site = useCompanyStatusQuery();
  const isMain = site.data?.is_main === true;
  const placeholder = isMain ? t('company.placeholder') : t('product.placeholder');

  return (
    <Screen title={t('product.title')} back>
      <div className="search-box">
        <SearchBar
          placeholder={placeholder}
          value={text}
          onChange={setText}
          aria-label={placeholder}
          cancelText={t('common.cancel')}
        />
      </div>
      {site.isPending ? <ListSkeleton /> : isMain ? <CompanySearch name={search} /> : <PairSearch search={search} />}
    </Screen>
  );
}

function PairSearch({ search }: { search: string }) {
  const { t } = useTranslation();
  const pairs = useTradeListQuery(search);
  useTopic(SocketTopic.dayMarket);

  if (pairs.isPending) return <ListSkeleton />;
  if (pairs.isError) return <ErrorState onRetry={() => void pairs.refetch()} />;
  if (pairs.data.length === 0) return <EmptyState />;
  return (
    <ul className="pair-list" aria-label={t('product.results')}>
      {pairs.data.map((pair) => (
        <PairRow key={pair.Id} pair={pair} />
      ))}
    </ul>
  );
}
