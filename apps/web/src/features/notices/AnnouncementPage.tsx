import { ResponseCode } from '@pipwise/domain';
import { InfiniteScroll } from 'antd-mobile';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/http';
import { useNoticeQuery, useNoticesQuery } from '../../api/queries/notices';
import { announcementPath } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatDateTime } from '../../i18n/format';
import './notices.css';

const noticeId = (value: string | null) => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

/** Announcements (docs/api.md announcement): the list at /mine/announcement, one of them at ?id=. */
export default function AnnouncementPage() {
  const [params] = useSearchParams();
  return params.has('id') ? <AnnouncementDetail id={noticeId(params.get('id'))} /> : <AnnouncementList />;
}

function AnnouncementList() {
  const { t } = useTranslation();
  const notices = useNoticesQuery();
  const items = notices.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Screen title={t('announcement.title')} back>
      {notices.isPending ? (
        <ListSkeleton />
      ) : notices.isError ? (
        <ErrorState onRetry={() => void notices.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState text={t('announcement.empty')} />
      ) : (
        <>
          <ul className="notice-list" aria-label={t('announcement.title')}>
            {items.map((item) => (
              <li key={item.id}>
                <Link className="notice-row" to={announcementPath(item.id)} data-read={item.read}>
                  {item.read ? (
                    <span className="notice-dot read" aria-hidden="true" />
                  ) : (
                    <span className="notice-dot" role="img" aria-label={t('announcement.unread')} />
                  )}
                  <div className="notice-text">
                    <h2>{item.title}</h2>
                    <time className="num">{formatDateTime(item.created_at)}</time>
                  </div>
                </Link>
              </li>
            ))}
          </ul>
          <InfiniteScroll hasMore={notices.hasNextPage} loadMore={async () => void (await notices.fetchNextPage())}>
            <span className="list-end">{notices.hasNextPage ? t('common.loading') : t('common.no_more')}</span>
          </InfiniteScroll>
        </>
      )}
    </Screen>
  );
}

/**
 * One announcement; opening it marks it read. Its HTML is sanitised by the server when an operator
 * writes it and again here, so a stored script or handler never runs.
 */
function AnnouncementDetail({ id }: { id: number | null }) {
  const { t } = useTranslation();
  const notice = useNoticeQuery(id);
  const content = useMemo(
    () => (notice.data ? DOMPurify.sanitize(notice.data.content, { USE_PROFILES: { html: true } }) : ''),
    [notice.data],
  );
  const missing = id === null || (notice.error instanceof ApiError && notice.error.code === ResponseCode.notFound);
  return (
    <Screen title={t('announcement.title')} back>
      {missing ? (
        <EmptyState text={t('announcement.not_found')} />
      ) : notice.isPending ? (
        <ListSkeleton rows={3} />
      ) : notice.isError ? (
        <ErrorState onRetry={() => void notice.refetch()} />
      ) : (
        <article className="news-article">
          <h1>{notice.data.title}</h1>
          <time className="num">{formatDateTime(notice.data.created_at)}</time>
          <div className="news-article-content" dangerouslySetInnerHTML={{ __html: content }} />
        </article>
      )}
    </Screen>
  );
}
