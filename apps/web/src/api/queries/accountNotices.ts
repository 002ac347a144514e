import { ApiPath, type NoticeUnreadView } from '@pipwise/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../stores/session';
import { http } from '../http';
import type { AccountNoticePage } from '../types';
import { accountNoticeKeys } from './accountNoticeKeys';

/** Calls are silent: the screens show a failure as their error state with a retry. */
const QUIET = { silent: true };

export function useAccountNoticesQuery() {
  return useInfiniteQuery({
    queryKey: accountNoticeKeys.list(),
    queryFn: ({ pageParam }) => http.get<AccountNoticePage>(ApiPath.accountNoticeList, { page: pageParam }, QUIET),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
      return last.data.length > 0 && loaded < last.total ? pages.length + 1 : undefined;
    },
  });
}

/** How many account notices the user has not seen (the bell's badge); only asked for with a session. */
export function useAccountNoticeUnreadQuery() {
  const signedIn = useSession((state) => Boolean(state.token));
  return useQuery({
    queryKey: accountNoticeKeys.unread(),
    queryFn: () => http.get<NoticeUnreadView>(ApiPath.accountNoticeUnread, undefined, QUIET),
    enabled: signedIn,
    select: (view) => view.count,
  });
}

/** Opening the list marks every notice read; the badge is fetched again. */
export function useMarkAccountNoticesRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<{ marked: number }>(ApiPath.accountNoticeRead, undefined, QUIET),
    onSuccess: () => void client.invalidateQueries({ queryKey: accountNoticeKeys.unread() }),
  });
}
