import { SocketTopic } from '@pipwise/domain';
import { SearchBar } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTopic } from '../../api/live';
import { useTradeListQuery } from '../../api/queries/market';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { PairRow } from '../home/PairRow';

const SEARCH_DELAY_MS = 300;

/** Pair search (spec §2 product; company search comes with the company feature). */
export default function ProductPage() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const pairs = useTradeListQuery(search);
  useTopic(SocketTopic.dayMarket);

  return (
    <Screen title={t('product.title')} back>
      <div className="search-box">
        <SearchBar
          placeholder={t('product.placeholder')}
          value={text}
          onChange={setText}
          aria-label={t('product.placeholder')}
          cancelText={t('common.cancel')}
        />
      </div>
      {pairs.isPending ? (
        <ListSkeleton />
      ) : pairs.isError ? (
        <ErrorState onRetry={() => void pairs.refetch()} />
      ) : pairs.data.length === 0 ? (
        <EmptyState />
      ) : (
        <ul className="pair-list" aria-label={t('product.results')}>
          {pairs.data.map((pair) => (
            <PairRow key={pair.Id} pair={pair} />
          ))}
        </ul>
      )}
    </Screen>
  );
}
