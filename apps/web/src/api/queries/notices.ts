import { ApiPath, type NoticeDetailView, type NoticeListView, type NoticeUnreadView } from '@pipwise/domain';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from '../../stores/session';
import { http } from '../http';

export const noticeKeys = {
  all: ['notices'] as const,
  list: () => [...noticeKeys.all, 'list'] as const,
  unread: () => [...noticeKeys.all, 'unread'] as const,
  detail: (id: number) => [...noticeKeys.all, 'detail', id] as const,
};

/** Calls are silent: the screens show a failure as their error state with a retry. */
const QUIET = { silent: true };

export function useNoticesQuery() {
  return useInfiniteQuery({
    queryKey: noticeKeys.list(),
    queryFn: ({ pageParam }) => http.get<NoticeListView>(ApiPath.noticeList, { page: pageParam }, QUIET),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
      return last.data.length > 0 && loaded < last.total ? pages.length + 1 : undefined;
    },
  });
}

/** How many announcements the user has not opened; only asked for with a session. */
export function useUnreadNoticesQuery() {
  const signedIn = useSession((state) => Boolean(state.user));
  return useQuery({
    queryKey: noticeKeys.unread(),
    queryFn: () => http.get<NoticeUnreadView>(ApiPath.noticeUnreadCount, undefined, QUIET),
    enabled: signedIn,
    select: (view) => view.count,
  });
}

/**
 * One announcement; the server marks it read when it is fetched, so once it arrives the list's dot and
 * the unread count are fetched again.
 */
export function useNoticeQuery(id: number | null) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: noticeKeys.detail(id ?? 0),
    queryFn: () => http.get<NoticeDetailView>(ApiPath.noticeInfo, { id: id ?? 0 }, QUIET),
    enabled: id !== null,
  });
  const openedId = query.data?.id;
  useEffect(() => {
    if (openedId === undefined) return;
    void client.invalidateQueries({ queryKey: noticeKeys.list() });
    void client.invalidateQueries({ queryKey: noticeKeys.unread() });
  }, [client, openedId]);
  return query;
}
