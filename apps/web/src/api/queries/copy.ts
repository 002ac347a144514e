import {
  ApiPath,
  type CopyActivityView,
  type CopyPreviewView,
  type CopyView,
  type MyProviderView,
  type ProviderEntryView,
  type ProviderProfileView,
  type TCopyEditRequest,
  type TCopyFollowRequest,
  type TCopyPauseRequest,
  type TCopyUnfollowRequest,
} from '@pipwise/domain';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../http';
import { accountKeys } from './account';
import { orderKeys } from './orderKeys';
import { STALE_SHORT } from './staleTimes';

/** The provider list's query as the API takes it (ZProviderListQuery): absent filters are not sent. */
export interface ProviderListParams {
  risk_max?: number;
  min_months?: number;
  sort: 'return' | 'drawdown' | 'copiers';
}

/** A copy's activity comes newest first, 20 lines a page: a shorter page is the last. */
const ACTIVITY_PAGE_SIZE = 20;

export const copyKeys = {
  all: ['copy'] as const,
  providers: (params: ProviderListParams) => [...copyKeys.all, 'providers', params] as const,
  provider: (id: number) => [...copyKeys.all, 'provider', id] as const,
  preview: (id: number, amount: string, stopLossPct: number) => [...copyKeys.all, 'preview', id, amount, stopLossPct] as const,
  mine: () => [...copyKeys.all, 'mine'] as const,
  activity: (copyId: number) => [...copyKeys.all, 'activity', copyId] as const,
  myProvider: () => [...copyKeys.all, 'my-provider'] as const,
};

/** Reads are silent: the screens show a failure as their error state with a retry, a toast would repeat it. */
const QUIET = { silent: true };
/** Changes are silent too: the sheet or page shows the server's message where the user acted. */
const ACT = { silent: true, loading: true };

/** The list comes 20 providers a page: a shorter page is the last. */
const PROVIDERS_PAGE_SIZE = 20;

export function useProvidersQuery(params: ProviderListParams) {
  return useInfiniteQuery({
    queryKey: copyKeys.providers(params),
    queryFn: ({ pageParam }) => http.get<ProviderEntryView[]>(ApiPath.followList, { ...params, page: pageParam }, QUIET),
    initialPageParam: 1,
    getNextPageParam: (last: ProviderEntryView[], pages) => (last.length < PROVIDERS_PAGE_SIZE ? undefined : pages.length + 1),
    staleTime: STALE_SHORT,
    // A new filter keeps the rows shown until its own arrive: the list does not collapse to a skeleton.
    placeholderData: keepPreviousData,
  });
}

export function useProviderQuery(id: number | null) {
  return useQuery({
    queryKey: copyKeys.provider(id ?? 0),
    queryFn: () => http.get<ProviderProfileView>(ApiPath.copyProvider, { provider_id: id ?? 0 }, QUIET),
    enabled: id !== null,
    staleTime: STALE_SHORT,
  });
}

/** What a copy of this amount and stop-loss would open now; `amount` is the plain figure typed, or '' for none yet. */
export function useCopyPreviewQuery(id: number, amount: string, stopLossPct: number) {
  return useQuery({
    queryKey: copyKeys.preview(id, amount, stopLossPct),
    queryFn: () => http.get<CopyPreviewView>(ApiPath.copyPreview, { provider_id: id, amount, stop_loss_pct: stopLossPct }, QUIET),
    enabled: amount !== '',
    staleTime: STALE_SHORT,
    placeholderData: keepPreviousData,
  });
}

export function useMyCopiesQuery(enabled = true) {
  return useQuery({
    queryKey: copyKeys.mine(),
    queryFn: () => http.get<CopyView[]>(ApiPath.copyMine, undefined, QUIET),
    enabled,
    staleTime: STALE_SHORT,
  });
}

export function useCopyActivityQuery(copyId: number) {
  return useInfiniteQuery({
    queryKey: copyKeys.activity(copyId),
    queryFn: ({ pageParam }) => http.get<CopyActivityView[]>(ApiPath.copyActivity, { copy_id: copyId, page: pageParam }, QUIET),
    initialPageParam: 1,
    getNextPageParam: (last: CopyActivityView[], pages) => (last.length < ACTIVITY_PAGE_SIZE ? undefined : pages.length + 1),
    staleTime: STALE_SHORT,
  });
}

/** The signed-in user's provider page, or null when they are not a provider. */
export function useMyProviderQuery(enabled = true) {
  return useQuery({
    queryKey: copyKeys.myProvider(),
    queryFn: () => http.get<MyProviderView | null>(ApiPath.providerMine, undefined, QUIET),
    enabled,
    staleTime: STALE_SHORT,
  });
}

/** The copy forms send what the user typed, as text: the server's schema reads and checks it. */
export type Typed<T> = { [K in keyof T]?: string | number };

/**
 * A copy opens, changes or closes positions and money: whatever shows them is fetched again, the copy
 * screens, the order lists and the balance.
 */
function useCopyChange<T extends object>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => http.post<unknown>(path, { ...body } as Record<string, unknown>, ACT),
    networkMode: 'always',
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: copyKeys.all }),
        client.invalidateQueries({ queryKey: orderKeys.all }),
        client.invalidateQueries({ queryKey: accountKeys.money() }),
      ]),
  });
}

export const useFollowMutation = () => useCopyChange<Typed<TCopyFollowRequest>>(ApiPath.copyFollow);
export const useEditCopyMutation = () => useCopyChange<Typed<TCopyEditRequest>>(ApiPath.copyEdit);
export const usePauseCopyMutation = () => useCopyChange<TCopyPauseRequest>(ApiPath.copyPause);
export const useUnfollowMutation = () => useCopyChange<TCopyUnfollowRequest>(ApiPath.copyUnfollow);

export interface ProviderForm {
  nickname: string;
  bio: string;
  fee_pct: string;
}

export const useBecomeProviderMutation = () => useCopyChange<ProviderForm>(ApiPath.providerBecome);
export const useUpdateProviderMutation = () => useCopyChange<Partial<ProviderForm>>(ApiPath.providerUpdate);
export const useStopProviderMutation = () => useCopyChange<Record<string, never>>(ApiPath.providerStop);
