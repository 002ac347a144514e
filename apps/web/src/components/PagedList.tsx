import { InfiniteScroll, PullToRefresh } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, ListSkeleton } from './states';

/** docs/api.md: pull-to-refresh closes after 500 ms. */
const REFRESH_CLOSE_MS = 500;

/** What a paged list needs of its infinite query. */
export interface PagedQuery {
  isPending: boolean;
  isError: boolean;
  hasNextPage: boolean;
  refetch: () => Promise<unknown>;
  fetchNextPage: () => Promise<unknown>;
}

interface PagedListProps<T> {
  query: PagedQuery;
  /** The rows of every page loaded so far. */
  rows: T[];
  /** The list's accessible name. */
  label: string;
  className: string;
  emptyText?: string;
  /** One `<li>` per row. */
  renderRow: (row: T) => ReactNode;
}

/**
 * A list that loads page after page as it is scrolled and refreshes when pulled (docs/api.md): the
 * skeleton while the first page loads, the error state only when nothing is shown yet, the empty state,
 * and "no more" at the end.
 */
export function PagedList<T>({ query, rows, label, className, emptyText, renderRow }: PagedListProps<T>) {
  const { t } = useTranslation();
  const refresh = async () => {
    await Promise.all([query.refetch(), new Promise((resolve) => setTimeout(resolve, REFRESH_CLOSE_MS))]);
  };
  return (
    <PullToRefresh
      onRefresh={refresh}
      pullingText={t('common.pull_to_refresh')}
      canReleaseText={t('common.release_to_refresh')}
      refreshingText={t('common.loading')}
      completeText={t('common.refreshed')}
    >
      {query.isPending ? (
        <ListSkeleton />
      ) : query.isError && rows.length === 0 ? (
        <ErrorState onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState text={emptyText} />
      ) : (
        <>
          <ul className={className} aria-label={label}>
            {rows.map(renderRow)}
          </ul>
          <InfiniteScroll
            hasMore={query.hasNextPage}
            loadMore={async () => {
              await query.fetchNextPage();
            }}
          >
            <span className="list-end">{query.hasNextPage ? t('common.loading') : t('common.no_more')}</span>
          </InfiniteScroll>
        </>
      )}
    </PullToRefresh>
  );
}
