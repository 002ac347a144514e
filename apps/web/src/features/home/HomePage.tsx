import { SocketTopic } from '@pipwise/domain';
import { GlobalOutline, SearchOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTopic } from '../../api/live';
import { useCompanyStatusQuery } from '../../api/queries/company';
import { useCategoriesQuery, useSparklinesQuery, useTradeListQuery } from '../../api/queries/market';
import { Paths } from '../../routing/paths';
import { ScreenFrame } from '../../components/ScreenFrame';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { Brand } from '../../company/Brand';
import { LazyAccountMode } from '../../components/LazyAccountMode';
import { PairRow } from '../../components/PairRow';
import './home.css';

/** The side list of languages; loaded when first opened, so the first paint carries no popup code. */
const LanguageSidebar = lazy(() => import('../../components/LanguageSidebar'));

export default function HomePage() {
  const { t } = useTranslation();
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const [languagesOpen, setLanguagesOpen] = useState(false);
  const pairs = useTradeListQuery();
  const categories = useCategoriesQuery();
  const sparklines = useSparklinesQuery();
  // The main site's search finds markets and companies, a company's site its markets (docs/api.md product).
  const searchLabel = useCompanyStatusQuery().data?.is_main ? t('company.search') : t('home.search');
  useTopic(SocketTopic.dayMarket);

  // The rows follow the list at a transition's priority: the list's arrival and each burst of ticks are
  // drawn in slices between frames, not in one long task that holds a tap on a slow phone.
  const rows = useDeferredValue(pairs.data);
  const shown = useMemo(
    () => (rows ?? []).filter((pair) => categoryId === null || pair.CategoryId === categoryId),
    [rows, categoryId],
  );

  return (
    <ScreenFrame withTabBar>
      <header className="home-header">
        <Brand />
        <div className="header-actions">
          <LazyAccountMode />
          <Link to={Paths.product} className="icon-button" aria-label={searchLabel}>
            <SearchOutline />
          </Link>
          <button type="button" className="icon-button" aria-label={t('language.title')} onClick={() => setLanguagesOpen(true)}>
            <GlobalOutline />
          </button>
        </div>
      </header>

      <div className="chips" role="group" aria-label={t('home.categories')}>
        {(categories.data ?? []).map((category) => (
          <button
            type="button"
            key={category.Id}
            className={`chip${category.Id === categoryId ? ' chip-active' : ''}`}
            aria-pressed={category.Id === categoryId}
            onClick={() => setCategoryId((current) => (current === category.Id ? null : category.Id))}
          >
            <span className="chip-label">{category.NameShowTrans}</span>
          </button>
        ))}
      </div>

      <div className="pair-list-head" aria-hidden="true">
        <span>{t('home.col_pair')}</span>
        <span>{t('home.col_price')}</span>
        <span>{t('home.col_change')}</span>
      </div>
      {pairs.isPending || (pairs.data && !rows) ? (
        <ListSkeleton />
      ) : pairs.isError && !pairs.data ? (
        <ErrorState onRetry={() => void pairs.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState />
      ) : (
        <ul className="pair-list" aria-label={t('home.markets')}>
          {shown.map((pair) => (
            <PairRow key={pair.Id} pair={pair} sparkline={sparklines.data?.get(pair.Id)} />
          ))}
        </ul>
      )}

      {languagesOpen && (
        <Suspense fallback={null}>
          <LanguageSidebar onClose={() => setLanguagesOpen(false)} />
        </Suspense>
      )}
    </ScreenFrame>
  );
}
