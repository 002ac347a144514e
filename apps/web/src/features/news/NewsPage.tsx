import { LANGUAGE_LOCALES } from '@pipwise/domain';
import { InfiniteScroll } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useNewsQuery } from '../../api/queries/content';
import { newsDetailPath } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatDateTime } from '../../i18n/format';
import './news.css';

export default function NewsPage() {
  const { t } = useTranslation();
  const news = useNewsQuery();
  const items = news.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Screen withTabBar title={t('news.title')}>
      {news.isPending ? (
        <ListSkeleton />
      ) : news.isError ? (
        <ErrorState onRetry={() => void news.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <ul className="news-list" aria-label={t('news.title')}>
            {items.map((item) => (
              <li key={item.id}>
                <Link className="news-row" to={newsDetailPath(item.id)}>
                  {item.logo && <img src={item.logo} alt="" width={72} height={54} loading="lazy" />}
                  <div>
                    <div lang={LANGUAGE_LOCALES[item.lang]} dir="auto">
                      <h2>{item.title}</h2>
                      <p>{item.desc}</p>
                    </div>
                    <time className="num">{formatDateTime(item.created_at)}</time>
                  </div>
                </Link>
              </li>
            ))}
          </ul>
          <InfiniteScroll hasMore={news.hasNextPage} loadMore={async () => void (await news.fetchNextPage())}>
            <span className="list-end">{news.hasNextPage ? t('common.loading') : t('common.no_more')}</span>
          </InfiniteScroll>
        </>
      )}
    </Screen>
  );
}
