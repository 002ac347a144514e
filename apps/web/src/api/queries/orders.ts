import { ApiPath } from '@pipwise/domain';
import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { http, newIdempotencyKey } from '../http';
import type { Order, OrderPage } from '../types';
import { accountKeys } from './account';
import { STALE_SHORT } from './staleTimes';

/** Order status (spec §4): 1 holding, 0 pending, 3 history. */
export const OrderStatus = { holding: 1, pending: 0, history: 3 } as const;
export type OrderStatusValue = (typeof OrderStatus)[keyof typeof OrderStatus];

export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (status: OrderStatusValue) => [...orderKeys.lists(), status] as const,
};

export type OrderPages = InfiniteData<OrderPage, number>;

export function useOrdersQuery(status: OrderStatusValue, enabled = true) {
  return useInfiniteQuery({
    queryKey: orderKeys.list(status),
    queryFn: ({ pageParam }) => http.get<OrderPage>(ApiPath.myDeal, { status, page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
      return last.data.length > 0 && loaded < last.total ? pages.length + 1 : undefined;
    },
    staleTime: STALE_SHORT,
    enabled,
  });
}

/** Applies a change to every loaded order of one list, as live pushes do. */
export function mapOrders(pages: OrderPages | undefined, change: (orders: Order[]) => Order[]): OrderPages | undefined {
  if (!pages) return pages;
  return { ...pages, pages: pages.pages.map((page) => ({ ...page, data: change(page.data) })) };
}

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

export function useSubmitOrderMutation() {
  const invalidate = useInvalidateTrading();
  return useMutation({
    mutationFn: (order: SubmitOrder) => http.post<Order | { id: number }>(ApiPath.submitOrder, { ...order }, { loading: true }),
    onSuccess: invalidate,
  });
}

export function useCloseOrderMutation() {
  const invalidate = useInvalidateTrading();
  return useMutation({
    mutationFn: (id: number) =>
      http.post<Order>(ApiPath.closeOrder, { id }, { loading: true, idempotencyKey: newIdempotencyKey() }),
    onSuccess: invalidate,
  });
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
