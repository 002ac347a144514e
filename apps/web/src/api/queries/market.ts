import { ApiPath } from '@pipwise/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http';
import type { Category, KlinePoint, Sparkline, TradePair } from '../types';
import { STALE_REFERENCE, STALE_SHORT } from './staleTimes';

export const marketKeys = {
  all: ['market'] as const,
  tradeLists: () => [...marketKeys.all, 'trade_list'] as const,
  tradeList: (search = '') => [...marketKeys.tradeLists(), search] as const,
  categories: () => [...marketKeys.all, 'categories'] as const,
  klines: () => [...marketKeys.all, 'kline'] as const,
  kline: (pairId: number, period: string) => [...marketKeys.klines(), pairId, period] as const,
  sparklines: () => [...marketKeys.all, 'sparklines'] as const,
};

/** Chart periods of the period bar and their API names (docs/api.md). */
export const PERIODS = [
  { label: '1M', value: '1min' },
  { label: '5M', value: '5min' },
  { label: '15M', value: '15min' },
  { label: '30M', value: '30min' },
  { label: '1H', value: '60min' },
  { label: '1D', value: '1day' },
] as const;
export type Period = (typeof PERIODS)[number]['value'];

const TRADE_LIST_CACHE = 'pipwise.trade_list';

/** Forgets the kept trade list (the settings screen's "clear cache"); the next fetch keeps a fresh one. */
export function forgetCachedTradeList() {
  sessionStorage.removeItem(TRADE_LIST_CACHE);
}

/** The last trade list is kept in session storage (docs/api.md) so a reload paints prices at once. */
function cachedTradeList(): TradePair[] | undefined {
  try {
    const saved = sessionStorage.getItem(TRADE_LIST_CACHE);
    return saved ? (JSON.parse(saved) as TradePair[]) : undefined;
  } catch {
    return undefined;
  }
}

export async function fetchTradeList(search = '') {
  const list = await http.get<TradePair[]>(ApiPath.tradeList, search ? { searchCurrency: search } : undefined);
  if (!search) sessionStorage.setItem(TRADE_LIST_CACHE, JSON.stringify(list));
  return list;
}

export const tradeListQuery = (search = '') =>
  queryOptions({
    queryKey: marketKeys.tradeList(search),
    queryFn: () => fetchTradeList(search),
    staleTime: STALE_SHORT,
    ...(search ? {} : { initialData: cachedTradeList, initialDataUpdatedAt: 0 }),
  });

export function useTradeListQuery(search = '') {
  return useQuery(tradeListQuery(search));
}

export function useCategoriesQuery() {
  return useQuery({
    queryKey: marketKeys.categories(),
    queryFn: () => http.get<Category[]>(ApiPath.categories),
    staleTime: STALE_REFERENCE,
  });
}

export function useKlineQuery(pairId: number | undefined, period: Period) {
  return useQuery({
    queryKey: marketKeys.kline(pairId ?? 0, period),
    queryFn: () => http.get<KlinePoint[]>(ApiPath.kline, { forex_id: pairId, period }),
    enabled: pairId !== undefined,
    staleTime: STALE_SHORT,
  });
}

/** The small area charts of the home rows: every pair's series in one call, looked up by pair id. */
export function useSparklinesQuery() {
  return useQuery({
    queryKey: marketKeys.sparklines(),
    queryFn: async () => {
      const series = await http.get<Sparkline[]>(ApiPath.abbreviatedKline, undefined, { silent: true });
      return new Map(series.map((line) => [line.Id, line.Points.map(([, close]) => close)]));
    },
    staleTime: STALE_REFERENCE,
    retry: false,
  });
}
