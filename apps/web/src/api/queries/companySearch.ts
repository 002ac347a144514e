import { CompanyPath, type CompanyPageView } from '@pipwise/domain';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '../http';
import { companyKeys } from './company';
import { STALE_SHORT } from './staleTimes';

/** Apart from the site's status and profile, which the first screen reads: the search pages load with its screen. */
export const nextCompanyPage = (last: CompanyPageView, pages: CompanyPageView[]) => {
  const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
  return last.data.length > 0 && loaded < last.total ? last.page + 1 : undefined;
};

export function useCompanySearchQuery(name: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: companyKeys.search(name),
    queryFn: ({ pageParam }) => http.get<CompanyPageView>(CompanyPath.search, { page: pageParam, ...(name ? { name } : {}) }),
    initialPageParam: 1,
    getNextPageParam: nextCompanyPage,
    staleTime: STALE_SHORT,
    enabled,
  });
}
