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
import type { TradePair } from '../../api/types';
import './product.css';

const SEARCH_DELAY_MS = 300;

/**
 * Search (docs/api.md product): the main site finds pairs and companies both, a company's own site its
 * pairs. Until the site's status is known nothing is searched; a failed status call leaves the pair search.
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
  const placeholder = isMain ? t('finder.placeholder') : t('product.placeholder');

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
      {site.isPending ? (
        <ListSkeleton />
      ) : isMain ? (
        <>
          {/* Every pair would bury the companies: pairs are listed once something is typed. */}
          {search && <MatchingPairs search={search} />}
          {search && <h2 className="search-heading">{t('company.results')}</h2>}
          <CompanySearch name={search} />
        </>
      ) : (
        <PairSearch search={search} />
      )}
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
  return <PairList pairs={pairs.data} label={t('product.results')} />;
}

/** The main site's pairs for a search, above its companies: nothing when none matches, as the companies may. */
function MatchingPairs({ search }: { search: string }) {
  const { t } = useTranslation();
  const pairs = useTradeListQuery(search);
  useTopic(SocketTopic.dayMarket);

  if (pairs.isPending) return <ListSkeleton />;
  if (pairs.isError) return <ErrorState onRetry={() => void pairs.refetch()} />;
  if (pairs.data.length === 0) return null;
  return (
    <section aria-labelledby="pair-results">
      <h2 id="pair-results" className="search-heading">
        {t('finder.pairs')}
      </h2>
      <PairList pairs={pairs.data} label={t('finder.pairs')} />
    </section>
  );
}

function PairList({ pairs, label }: { pairs: TradePair[]; label: string }) {
  return (
    <ul className="pair-list" aria-label={label}>
      {pairs.map((pair) => (
        <PairRow key={pair.Id} pair={pair} />
      ))}
    </ul>
  );
}
