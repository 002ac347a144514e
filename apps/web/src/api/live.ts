import { SOCKET_PATH, SocketTopic } from '@pipwise/domain';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNoticeToasts } from '../stores/noticeToasts';
import { accountKeys } from './queries/account';
import { accountNoticeKeys } from './queries/accountNoticeKeys';
import { depositKeys, withdrawKeys } from './queries/cashierKeys';
import { marketKeys } from './queries/market';
import { mapOrders, orderKeys, OrderStatus, type OrderPages, type OrderStatusValue } from './queries/orderKeys';
import { LiveSocket } from './socket';
import type { AccountNotice, DayMarketTick, ForexTradePush, Order, TradePair } from './types';

export const liveSocket = new LiveSocket({
  url: () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SOCKET_PATH}`,
  create: (url) => new WebSocket(url),
});

function asList<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  return data && typeof data === 'object' ? [data as T] : [];
}

/** Folds DAY_MARKET ticks into a cached trade list. */
export function applyTicks(list: TradePair[] | undefined, ticks: DayMarketTick[]): TradePair[] | undefined {
  if (!list) return list;
  const bySymbol = new Map(ticks.map((tick) => [tick.symbol, tick]));
  let changed = false;
  const next = list.map((pair) => {
    const tick = bySymbol.get(pair.Code) ?? bySymbol.get(pair.ShowCode);
    if (!tick) return pair;
    changed = true;
    const quote = pair.ForexQuotations;
    return {
      ...pair,
      ...(tick.status !== undefined ? { MarketStatus: tick.status } : {}),
      // The rate moves with the quote it came with, so the ticket's estimate converts as orders are charged.
      ...(tick.usd_rate !== undefined ? { UsdRate: tick.usd_rate } : {}),
      ForexQuotations: {
        ...quote,
        Close: tick.close,
        Change: tick.change,
        ...(tick.bid !== undefined ? { Bid: tick.bid } : {}),
        ...(tick.ask !== undefined ? { Ask: tick.ask } : {}),
        ...(tick.high !== undefined ? { High: tick.high } : {}),
        ...(tick.low !== undefined ? { Low: tick.low } : {}),
      },
    };
  });
  return changed ? next : list;
}

/**
 * Applies a pushed change to a cached order list. A list waiting for its refetch (a fill or a close
 * invalidated it) is left alone: writing into it would mark it fresh, and a list whose rows changed
 * would be shown from the cache on the next visit instead of fetched.
 */
function patchOrders(client: QueryClient, status: OrderStatusValue, change: (orders: Order[]) => Order[]) {
  const key = orderKeys.list(status);
  if (client.getQueryState(key)?.isInvalidated) return;
  client.setQueryData<OrderPages>(key, (pages) => mapOrders(pages, change));
}

/**
 * Fetches again what an order event changed, shown or not: a screen opened next (Orders, or back to the
 * trade or user screen) then shows the lists and figures as they are at once, not its old copy while a
 * fetch runs. Only queries something has fetched before are refetched.
 */
function refetchNow(client: QueryClient, queryKey: readonly unknown[]) {
  void client.invalidateQueries({ queryKey, refetchType: 'all' });
}

/**
 * Socket pushes write into the query cache, so every screen reads live data through its query hook
 * (DAY_MARKET → trade lists, FOREX_TRADE → holding orders and account figures, FOREX_CLOSED → drops the
 * closed orders and refreshes history and the money figures, FOREX_FILLED → moves filled orders from
 * pending to holding, WALLET → a deposit or withdrawal changed: the money figures, the ledger and the
 * records, NOTICE → an account notice: a toast on whatever screen is up, and the list under the bell).
 */
export function connectLiveData(client: QueryClient, socket: LiveSocket) {
  const stops = [
    socket.on(SocketTopic.dayMarket, (data) => {
      const ticks = asList<DayMarketTick>(data);
      client.setQueriesData<TradePair[]>({ queryKey: marketKeys.tradeLists() }, (list) => applyTicks(list, ticks));
    }),
    socket.on(SocketTopic.forexTrade, (data) => {
      const push = data as ForexTradePush;
      client.setQueryData(accountKeys.live(), push);
      const byId = new Map((push.TransOrder ?? []).map((order) => [order.Id, order]));
      patchOrders(client, OrderStatus.holding, (orders) =>
        orders.map((order) => {
          const live = byId.get(order.Id);
          return live ? { ...order, UpdatePrice: live.UpdatePrice, FactProfits: live.FactProfits } : order;
        }),
      );
    }),
    socket.on(SocketTopic.forexClosed, (data) => {
      const closed = new Set(asList<number>(data).map(Number));
      // The last push still counts the closed positions; the refetched figures replace it.
      client.setQueryData(accountKeys.live(), null);
      for (const status of [OrderStatus.holding, OrderStatus.pending]) {
        patchOrders(client, status, (orders) => orders.filter((order) => !closed.has(order.Id)));
      }
      refetchNow(client, orderKeys.list(OrderStatus.history));
      refetchNow(client, accountKeys.money());
    }),
    socket.on(SocketTopic.forexFilled, (data) => {
      const filled = new Set(asList<number>(data).map(Number));
      // The reservation became margin and a fee: the pushed figures are stale until the next push.
      client.setQueryData(accountKeys.live(), null);
      patchOrders(client, OrderStatus.pending, (orders) => orders.filter((order) => !filled.has(order.Id)));
      refetchNow(client, orderKeys.list(OrderStatus.holding));
      refetchNow(client, accountKeys.money());
    }),
    socket.on(SocketTopic.wallet, () => {
      refetchNow(client, accountKeys.money());
      refetchNow(client, depositKeys.records());
      refetchNow(client, withdrawKeys.records());
    }),
    socket.on(SocketTopic.notice, (data) => {
      useNoticeToasts.getState().show(data as AccountNotice);
      refetchNow(client, accountNoticeKeys.all);
      // A margin call may follow an operator's change of the levels, which the figures carry.
      refetchNow(client, accountKeys.money());
    }),
  ];
  return () => stops.forEach((stop) => stop());
}

/**
 * The signed-in user's account events: an order's fill, close (by the user, TP/SL or stop-out) or cancel,
 * a deposit's or withdrawal's change of status, and the account notices of what the engine did.
 */
const ORDER_EVENTS = [SocketTopic.forexClosed, SocketTopic.forexFilled, SocketTopic.wallet, SocketTopic.notice] as const;

/**
 * Subscribes to the user's order events on every screen, not only while Orders is shown: they move rows
 * between the cached lists and change the balance the trade and user screens show. The socket counts
 * subscriptions per topic, so a screen subscribing to one of them too sends no second `sub`.
 */
export function subscribeOrderEvents(socket: LiveSocket) {
  const stops = ORDER_EVENTS.map((topic) => socket.subscribe(topic));
  return () => stops.forEach((stop) => stop());
}

/** The app shell's subscription to the order events, while a user is signed in. */
export function useOrderEvents(signedIn: boolean) {
  useEffect(() => (signedIn ? subscribeOrderEvents(liveSocket) : undefined), [signedIn]);
}

/** Subscribes to a topic while the calling screen is shown (sub on mount, unsub on unmount). */
export function useTopic(topic: string | null | undefined) {
  useEffect(() => (topic ? liveSocket.subscribe(topic) : undefined), [topic]);
}

/** Listens to one message type while the calling component is shown. */
export function useSocketMessage(type: string | null | undefined, handler: (data: unknown) => void) {
  useEffect(() => (type ? liveSocket.on(type, handler) : undefined), [type, handler]);
}
