import { InfiniteScroll } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccountNoticesQuery, useMarkAccountNoticesRead } from '../../api/queries/accountNotices';
import { profitTone } from '../../components/market';
import { noticeText } from '../../components/noticeText';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatDateTime, formatNumber } from '../../i18n/format';
import './notices.css';

/** The list under the bell: what the engine did to the user's orders and account, newest first. Opening it marks them read. */
export default function AccountNoticesPage() {
  const { t } = useTranslation();
  const notices = useAccountNoticesQuery();
  const { mutate: markRead } = useMarkAccountNoticesRead();
  const items = notices.data?.pages.flatMap((page) => page.data) ?? [];
  const newest = items[0]?.id;
  useEffect(() => {
    if (newest !== undefined) markRead();
  }, [newest, markRead]);
  return (
    <Screen title={t('notices.title')} back>
      {notices.isPending ? (
        <ListSkeleton />
      ) : notices.isError ? (
        <ErrorState onRetry={() => void notices.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState text={t('notices.empty')} />
      ) : (
        <>
          <ul className="notice-list" aria-label={t('notices.title')} data-testid="account-notices">
            {items.map((notice) => {
              const text = noticeText(t, notice);
              return (
                <li key={notice.id} className={`account-notice notice-${text.tone}`} data-reason={notice.reason ?? notice.kind}>
                  <div className="notice-text">
                    <h2>{text.title}</h2>
                    <p>{text.detail}</p>
                    {text.profit !== null && (
                      <p className={`num ${profitTone(text.profit)}`} data-testid="account-notice-profit">
                        {t('notices.profit', { profit: formatNumber(text.profit, 2, true) })}
                      </p>
                    )}
                    <time className="num">{formatDateTime(notice.created_at)}</time>
                  </div>
                </li>
              );
            })}
          </ul>
          <InfiniteScroll hasMore={notices.hasNextPage} loadMore={async () => void (await notices.fetchNextPage())}>
            <span className="list-end">{notices.hasNextPage ? t('common.loading') : t('common.no_more')}</span>
          </InfiniteScroll>
        </>
      )}
    </Screen>
  );
}
