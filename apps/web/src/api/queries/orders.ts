import { ApiPath, ResponseCode } from '@pipwise/domain';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { ApiError, http, outcomeUnknown, toastFailure } from '../http';
import { useDisclosurePrompt } from '../../stores/disclosurePrompt';
import { IntentKeys } from '../intent';
import type { Order, OrderPage } from '../types';
import { accountKeys } from './account';
import { orderKeys, OrderStatus, type OrderStatusValue } from './orderKeys';
import { STALE_SHORT } from './staleTimes';

export function useOrdersQuery(status: OrderStatusValue, enabled = true) {
  return useInfiniteQuery({
    queryKey: orderKeys.list(status),
    // By cursor, not page number: rows leave these lists (and join them) live, which shifts pages.
    queryFn: ({ pageParam }) =>
      http.get<OrderPage>(ApiPath.myDeal, pageParam === null ? { status } : { status, cursor: pageParam }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: STALE_SHORT,
    enabled,
  });
}

/**
 * A history order that was never filled (cancelled, short of margin at the fill, a demo reset): the
 * server sends it without exit price, P&L or fee, since it never had them.
 */
export const neverFilled = (order: Order) => order.Status === OrderStatus.history && order.UpdatePrice === null;

function useInvalidateTrading() {
  const client = useQueryClient();
  return () => {
    client.setQueryData(accountKeys.live(), null);
    return Promise.all([
      client.invalidateQueries({ queryKey: orderKeys.all }),
      client.invalidateQueries({ queryKey: accountKeys.money() }),
    ]);
  };
}

export interface SubmitOrder {
  /** 1 buy, 2 sell. */
  type: 1 | 2;
  cont: string;
  forex_id: number;
  /** 1 market, 0 pending. */
  status: 0 | 1;
  target_price?: string;
  stop_loss_price?: string;
  target_profit_price?: string;
  multiple: number;
}

/** A lost answer is asked for again at once, at most twice, with the intent's key: the server acts once. */
const RESENDS = 2;
const RESEND_DELAY_MS = 300;

/**
 * What the calls that trade at the price on screen share. They run when asked or not at all:
 * react-query's default networkMode ('online') would hold one made offline and send it on reconnect, at
 * a price the user no longer sees. Only a lost answer is sent again, at once, with the same key, and
 * the user hears only how the intent ended: no "network error" for a try whose resend then placed it.
 */
export const orderMutationDefaults = {
  networkMode: 'always',
  retry: (failures: number, error: unknown) => failures < RESENDS && outcomeUnknown(error),
  retryDelay: RESEND_DELAY_MS,
  onError: toastFailure,
} as const;

/** How an order call is sent: with the spinner, only at live prices, and failing silent (orderMutationDefaults tells). */
const orderCall = (key: string) => ({ loading: true, idempotencyKey: key, needsLivePrices: true, silent: true });

/** Module-wide, so an intent outlives the screen it was made on (the detail popup is destroyed on close). */
const intents = new IntentKeys();
const TICKET = 'ticket';
const closing = (id: number) => `close:${id}`;

export interface KeyedOrder {
  order: SubmitOrder;
  key: string;
}

export const submitOrderOptions = () => ({
  ...orderMutationDefaults,
  mutationFn: ({ order, key }: KeyedOrder) => http.post<Order>(ApiPath.submitOrder, { ...order }, orderCall(key)),
  onSettled: (_data: unknown, error: unknown) => intents.settle(TICKET, error),
});

/** The order ticket's submit: one order per intent, however often the button is tapped. */
export function useSubmitOrderMutation() {
  const invalidate = useInvalidateTrading();
  const client = useQueryClient();
  /**
   * Told of the placed order in the mutation's own onSuccess, before the ticket's intent is settled: the
   * callbacks of `mutate` run a timer task after it, and a tap handled in that gap (a phone's input comes
   * before timers) was a second order.
   */
  const placedHandler = useRef<(placed: Order) => void>(() => undefined);
  const mutation = useMutation({
    ...submitOrderOptions(),
    onSuccess: (placed) => {
      placedHandler.current(placed);
      return invalidate();
    },
    onError: (error) => {
      toastFailure(error);
      // Refused until the updated risk disclosure is accepted: fetch the user (now due) and show it again.
      if (!(error instanceof ApiError) || error.code !== ResponseCode.disclosureRequired) return;
      useDisclosurePrompt.getState().ask();
      void client.invalidateQueries({ queryKey: accountKeys.user() });
    },
  });
  return {
    sending: mutation.isPending,
    /** Sends the order, unless the ticket's previous one is still on its way (a double tap). */
    submit(order: SubmitOrder, onPlaced: (placed: Order) => void) {
      const key = intents.begin(TICKET, order);
      if (!key) return;
      placedHandler.current = onPlaced;
      mutation.mutate({ order, key });
    },
  };
}

/** Closing a position: one close per position, however often it is asked for. */
export function useCloseOrderMutation() {
  const invalidate = useInvalidateTrading();
  const mutation = useMutation({
    ...orderMutationDefaults,
    mutationFn: ({ id, key }: { id: number; key: string }) => http.post<Order>(ApiPath.closeOrder, { id }, orderCall(key)),
    onSuccess: invalidate,
    onSettled: (_data, error, { id }) => intents.settle(closing(id), error),
  });
  return {
    sending: mutation.isPending,
    /** Resolves once closed; a second call while the first is on its way sends nothing and resolves at once. */
    close(id: number) {
      const key = intents.begin(closing(id), id);
      return key ? mutation.mutateAsync({ id, key }) : Promise.resolve(undefined);
    },
  };
}

export function useCancelOrderMutation() {
  const invalidate = useInvalidateTrading();
  return useMutation({
    mutationFn: (id: number) => http.post<unknown>(ApiPath.cancelOrder, { id }, { loading: true }),
    onSuccess: invalidate,
  });
}

export interface StopPrices {
  id: number;
  target_profit_price: string;
  stop_loss_price: string;
}

export function useSetStopPriceMutation() {
  const invalidate = useInvalidateTrading();
  return useMutation({
    mutationFn: (prices: StopPrices) => http.post<unknown>(ApiPath.setStopPrice, { ...prices }, { loading: true }),
    onSuccess: invalidate,
  });
}
