import { ApiPath } from '@pipwise/domain';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '../http';
import type { LedgerPage } from '../types';
import { accountKeys } from './account';
import { STALE_SHORT } from './staleTimes';

/**
 * Under the money key: whatever refetches the balance (an order filled or closed, a demo reset) refetches
 * the ledger that explains it too.
 */
export const ledgerKeys = {
  list: () => [...accountKeys.money(), 'ledger'] as const,
};

/** The page after `last`, or undefined once every row of `total` has been asked for. */
export const nextLedgerPage = (last: LedgerPage): number | undefined =>
  last.page * last.page_size < last.total ? last.page + 1 : undefined;

/**
 * The loaded rows, newest first, each once: the ledger is paged by number, so a row written while the
 * user scrolls pushes the one above a page boundary onto the next page as well.
 */
export function ledgerRows(pages: { pages: LedgerPage[] } | undefined) {
  const seen = new Set<number>();
  return (pages?.pages ?? []).flatMap((page) =>
    page.data.filter((entry) => {
      if (seen.has(entry.Id)) return false;
      seen.add(entry.Id);
      return true;
    }),
  );
}

export function useLedgerQuery() {
  return useInfiniteQuery({
    queryKey: ledgerKeys.list(),
    queryFn: ({ pageParam }) => http.get<LedgerPage>(ApiPath.ledger, { page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: nextLedgerPage,
    staleTime: STALE_SHORT,
  });
}
