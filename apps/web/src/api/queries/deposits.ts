import {
  ApiPath,
  CashierType,
  type CashierTypeValue,
  type CoinChannelView,
  type DepositSymbolView,
  type DepositView,
  type TCoinDepositRequest,
  type TWireDepositRequest,
  type WireChannelView,
} from '@pipwise/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, outcomeUnknown, refusedOffline, toastFailure } from '../http';
import { IntentKeys } from '../intent';
import { accountKeys } from './account';
import { depositKeys } from './cashierKeys';
import { STALE_SHORT } from './staleTimes';

/** A page of `quick_ist`. */
export interface DepositPage {
  data: DepositView[];
  total: number;
  page: number;
  page_size: number;
}

export function useCoinChannelsQuery() {
  return useQuery({
    queryKey: depositKeys.coinChannels(),
    queryFn: () => http.get<CoinChannelView[]>(ApiPath.chargeInfo),
    staleTime: STALE_SHORT,
  });
}

export function useDepositSymbolsQuery() {
  return useQuery({
    queryKey: depositKeys.symbols(),
    queryFn: () => http.get<DepositSymbolView[]>(ApiPath.chargeSymbols),
    staleTime: STALE_SHORT,
  });
}

export function useWireChannelsQuery() {
  return useQuery({
    queryKey: depositKeys.wireChannels(),
    queryFn: () => http.get<WireChannelView[]>(ApiPath.wireInfo),
    staleTime: STALE_SHORT,
  });
}

/** Whether `loaded` rows are all of `total`; pages are numbered from 1. */
export const nextDepositPage = (last: DepositPage, pages: DepositPage[]) => {
  const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
  return last.data.length > 0 && loaded < last.total ? last.page + 1 : undefined;
};

export function useDepositsQuery(type?: CashierTypeValue) {
  return useInfiniteQuery({
    queryKey: depositKeys.recordList(type),
    queryFn: ({ pageParam }) => http.get<DepositPage>(ApiPath.depositList, { page: pageParam, type }),
    initialPageParam: 1,
    getNextPageParam: nextDepositPage,
    staleTime: STALE_SHORT,
  });
}

/** What the two deposit forms send; `kind` picks the call. */
export type DepositSubmission =
  | { kind: typeof CashierType.coin; request: TCoinDepositRequest }
  | { kind: typeof CashierType.bank; request: TWireDepositRequest };

export interface KeyedDeposit {
  deposit: DepositSubmission;
  key: string;
}

/** A lost answer is asked for again at once, at most twice, with the intent's key: the server records one deposit. */
const RESENDS = 2;
const RESEND_DELAY_MS = 300;

/** Module-wide, so an intent outlives the screen (leaving and coming back does not make a second deposit). */
const intents = new IntentKeys();
const slotOf = (deposit: DepositSubmission) => (deposit.kind === CashierType.coin ? 'coin' : 'wire');

export const submitDepositOptions = () => ({
  // Sent when asked or not at all: react-query would otherwise hold one made offline and send it later.
  networkMode: 'always' as const,
  retry: (failures: number, error: unknown) => failures < RESENDS && outcomeUnknown(error),
  retryDelay: RESEND_DELAY_MS,
  onError: toastFailure,
  mutationFn: ({ deposit, key }: KeyedDeposit) =>
    http.post<DepositView>(deposit.kind === CashierType.coin ? ApiPath.chargeSubmit : ApiPath.wireSubmit, deposit.request, {
      loading: true,
      silent: true,
      idempotencyKey: key,
    }),
  onSettled: (_data: unknown, error: unknown, { deposit }: KeyedDeposit) => intents.settle(slotOf(deposit), error),
});

/** One deposit per intent, however often submit is tapped; the same key while the outcome is unknown. */
export function useSubmitDepositMutation() {
  const client = useQueryClient();
  const mutation = useMutation({
    ...submitDepositOptions(),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: depositKeys.records() }),
        client.invalidateQueries({ queryKey: accountKeys.money() }),
      ]),
  });
  return {
    sending: mutation.isPending,
    /** Sends the deposit, unless this form's previous one is still on its way (a double tap). */
    submit(deposit: DepositSubmission, onDone: (record: DepositView) => void) {
      if (refusedOffline()) return;
      const key = intents.begin(slotOf(deposit), deposit.request);
      if (key) mutation.mutate({ deposit, key }, { onSuccess: onDone });
    },
  };
}
