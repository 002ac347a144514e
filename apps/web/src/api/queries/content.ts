import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ApiError, http } from '../http';
import type { LeaderboardEntry, NewsItem, Paged } from '../types';
import { STALE_REFERENCE } from './staleTimes';

/** Paths of features that later issues build; until then the screens show their empty state. */
export const ContentPath = { followList: '/api/follow/list', newsList: '/api/news/list' } as const;

export const contentKeys = {
  all: ['content'] as const,
  leaderboard: () => [...contentKeys.all, 'leaderboard'] as const,
  news: (categoryId: number) => [...contentKeys.all, 'news', categoryId] as const,
};

const NOT_BUILT = 404;

/** A missing endpoint (404) reads as "nothing yet", not as an error. */
async function unlessMissing<T>(call: Promise<T>, empty: T): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === NOT_BUILT) return empty;
    throw error;
  }
}

function asList<T>(data: T[] | Paged<T> | null | undefined): T[] {
  if (!data) return [];
  return Array.isArray(data) ? data : data.data;
}

export function useLeaderboardQuery() {
  return useQuery({
    queryKey: contentKeys.leaderboard(),
    queryFn: async () =>
      asList(
        await unlessMissing(
          http.get<LeaderboardEntry[] | Paged<LeaderboardEntry>>(ContentPath.followList, undefined, { silent: true }),
          [],
        ),
      ),
    staleTime: STALE_REFERENCE,
    retry: false,
  });
}

export function useNewsQuery(categoryId = 0) {
  return useInfiniteQuery({
    queryKey: contentKeys.news(categoryId),
    queryFn: async ({ pageParam }) => {
      const page = await unlessMissing(
        http.get<NewsItem[] | Paged<NewsItem>>(
          ContentPath.newsList,
          { category_id: categoryId || undefined, page: pageParam },
          { silent: true },
        ),
        [],
      );
      return { items: asList(page), total: Array.isArray(page) ? undefined : page.total };
    },
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, p) => sum + p.items.length, 0);
      if (last.items.length === 0) return undefined;
      return last.total === undefined || loaded < last.total ? pages.length + 1 : undefined;
    },
    staleTime: STALE_REFERENCE,
    retry: false,
  });
}
