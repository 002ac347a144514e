import {
  ApiPath,
  type CashierTypeValue,
  type DrawMethodView,
  type TBindDrawMethodRequest,
  type WithdrawalView,
  type WithdrawCurrencyView,
  type WithdrawRulesView,
} from '@pipwise/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, refusedOffline } from '../http';
import { IntentKeys } from '../intent';
import { accountKeys } from './account';
import { withdrawKeys } from './cashierKeys';
import { orderMutationDefaults } from './orders';
import { STALE_SHORT } from './staleTimes';

/** One page of `draw_list`, paged by number like the other record lists. */
export interface WithdrawalPage {
  data: WithdrawalView[];
  total: number;
  page: number;
  page_size: number;
}

/** A quoted rate is honoured for a minute: the list is fetched again well before, while the screen is open. */
const RATE_REFRESH_MS = 30_000;

/**
 * `draw_symbol_list`: the currencies one may withdraw in by coin (1) or bank (2), with their fee terms and
 * their rate now (a market pair's or the operator's) with the signed quote the request sends back.
 */
export function useWithdrawCurrenciesQuery(type: CashierTypeValue) {
  return useQuery({
    queryKey: withdrawKeys.currencies(type),
    queryFn: () => http.get<WithdrawCurrencyView[]>(ApiPath.drawSymbols, { type }),
    staleTime: RATE_REFRESH_MS,
    refetchInterval: RATE_REFRESH_MS,
  });
}

/** `draw_rules`: what the withdraw screen says before anything is typed (real-name verification first). */
export function useWithdrawRulesQuery() {
  return useQuery({
    queryKey: withdrawKeys.rules(),
    queryFn: () => http.get<WithdrawRulesView>(ApiPath.drawRules),
    // Asked again each time the screen opens: a verification approved meanwhile lifts the note at once.
    staleTime: 0,
  });
}

/** `get_draw_method`: all the user's payout methods of a type (the screens pick a currency's among them). */
export function useDrawMethodsQuery(type: CashierTypeValue) {
  return useQuery({
    queryKey: withdrawKeys.methodsOf(type),
    queryFn: () => http.get<DrawMethodView[]>(ApiPath.getDrawMethod, { draw_type: type }),
    staleTime: STALE_SHORT,
  });
}

export function useBindDrawMethodMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: TBindDrawMethodRequest) =>
      http.post<DrawMethodView>(ApiPath.bindDrawMethod, { ...request }, { form: true, loading: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: withdrawKeys.methods() }),
  });
}

export function useDeleteDrawMethodMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<unknown>(ApiPath.delDrawMethod, { id }, { loading: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: withdrawKeys.methods() }),
  });
}

/** The form `draw` takes: amount as plain decimal text, so it never passes through a float. */
export interface WithdrawRequest {
  draw_currency_id: number;
  number: string;
  memo: string;
  draw_method_id: number;
  /** The `rate_quote` of the currency whose estimate the screen showed. */
  rate_quote: string;
}

/** Module-wide, so an intent outlives the screen: coming back to resend a lost request reuses its key. */
const intents = new IntentKeys();
const WITHDRAW_FORM = 'withdraw';

/**
 * The withdraw button: one withdrawal per intent of the user. A lost answer is resent with the same
 * Idempotency-Key (orderMutationDefaults), and a second tap while one is on its way sends nothing.
 */
export function useWithdrawMutation() {
  const client = useQueryClient();
  const mutation = useMutation({
    ...orderMutationDefaults,
    mutationFn: ({ request, key }: { request: WithdrawRequest; key: string }) =>
      http.post<WithdrawalView>(ApiPath.draw, { ...request }, { form: true, loading: true, silent: true, idempotencyKey: key }),
    onSettled: (_data, error) => intents.settle(WITHDRAW_FORM, error),
    // A refused request may have met a rate that moved on: the screen shows the current one again.
    onError: (error: unknown) => {
      orderMutationDefaults.onError(error);
      void client.invalidateQueries({ queryKey: [...withdrawKeys.all, 'currencies'] });
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: accountKeys.money() }),
        client.invalidateQueries({ queryKey: withdrawKeys.records() }),
      ]),
  });
  return {
    sending: mutation.isPending,
    submit(request: WithdrawRequest, onDone: (withdrawal: WithdrawalView) => void) {
      if (refusedOffline()) return;
      const key = intents.begin(WITHDRAW_FORM, request);
      if (key) mutation.mutate({ request, key }, { onSuccess: onDone });
    },
  };
}

/** `draw_list`: the user's withdrawals, newest first, a page at a time. */
export function useWithdrawalsQuery() {
  return useInfiniteQuery({
    queryKey: withdrawKeys.records(),
    queryFn: ({ pageParam }) => http.get<WithdrawalPage>(ApiPath.drawList, { page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.page_size < last.total ? last.page + 1 : undefined),
    staleTime: STALE_SHORT,
  });
}

/** Cancels an unreviewed withdrawal of the user's; the lock is released, so the balance figures change too. */
export function useCancelWithdrawalMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<WithdrawalView>(ApiPath.drawCancel, { id }, { loading: true }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: withdrawKeys.records() }),
        client.invalidateQueries({ queryKey: accountKeys.money() }),
      ]),
  });
}
