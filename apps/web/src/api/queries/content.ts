import { ApiPath } from '@pipwise/domain';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { http } from '../http';
import type { LeaderboardEntry, NewsDetail, NewsPage } from '../types';
import { STALE_REFERENCE } from './staleTimes';

export const contentKeys = {
  all: ['content'] as const,
  leaderboard: () => [...contentKeys.all, 'leaderboard'] as const,
  news: (categoryId: number) => [...contentKeys.all, 'news', categoryId] as const,
  article: (id: number) => [...contentKeys.all, 'article', id] as const,
};

/** Calls are silent: the screens show a failure as their error state with a retry, a toast would repeat it. */
const QUIET = { silent: true };

export function useLeaderboardQuery() {
  return useQuery({
    queryKey: contentKeys.leaderboard(),
    queryFn: () => http.get<LeaderboardEntry[]>(ApiPath.traderRanking, undefined, QUIET),
    staleTime: STALE_REFERENCE,
  });
}

export function useNewsQuery(categoryId = 0) {
  return useInfiniteQuery({
    queryKey: contentKeys.news(categoryId),
    queryFn: ({ pageParam }) =>
      http.get<NewsPage>(ApiPath.newsList, { category_id: categoryId || undefined, page: pageParam }, QUIET),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
      return last.data.length > 0 && loaded < last.total ? pages.length + 1 : undefined;
    },
    staleTime: STALE_REFERENCE,
  });
}

/** One article; `id` is null when the address names none (the screen then shows its empty state). */
export function useNewsArticleQuery(id: number | null) {
  return useQuery({
    queryKey: contentKeys.article(id ?? 0),
    queryFn: () => http.get<NewsDetail>(ApiPath.newsInfo, { id: id ?? 0 }, QUIET),
    enabled: id !== null,
    staleTime: STALE_REFERENCE,
  });
}
