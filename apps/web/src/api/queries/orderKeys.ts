import type { InfiniteData } from '@tanstack/react-query';
import type { Order, OrderPage } from '../types';

/*
 * The order lists' keys and shapes, apart from their queries and calls: the live socket updates the lists on
 * every screen, and importing the queries for their keys would put the order calls in the first screen's load.
 */

/** Order status (docs/api.md): 1 holding, 0 pending, 3 history. */
export const OrderStatus = { holding: 1, pending: 0, history: 3 } as const;
export type OrderStatusValue = (typeof OrderStatus)[keyof typeof OrderStatus];

export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (status: OrderStatusValue) => [...orderKeys.lists(), status] as const,
};

/** A page is asked for by the id of the last order before it (null: from the top). */
export type OrderPages = InfiniteData<OrderPage, number | null>;

/** Applies a change to every loaded order of one list, as live pushes do. */
export function mapOrders(pages: OrderPages | undefined, change: (orders: Order[]) => Order[]): OrderPages | undefined {
  if (!pages) return pages;
  return { ...pages, pages: pages.pages.map((page) => ({ ...page, data: change(page.data) })) };
}
