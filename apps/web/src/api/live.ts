import { SOCKET_PATH, SocketTopic } from '@pipwise/domain';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { accountKeys } from './queries/account';
import { marketKeys } from './queries/market';
import { mapOrders, orderKeys, OrderStatus, type OrderPages } from './queries/orders';
import { LiveSocket } from './socket';
import type { DayMarketTick, ForexTradePush, TradePair } from './types';

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
 * Socket pushes write into the query cache, so every screen reads live data through its query hook
 * (DAY_MARKET → trade lists, FOREX_TRADE → holding orders and account figures, FOREX_CLOSED → drops the
 * closed orders and refreshes the money figures).
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
      client.setQueryData<OrderPages>(orderKeys.list(OrderStatus.holding), (pages) =>
        mapOrders(pages, (orders) =>
          orders.map((order) => {
            const live = byId.get(order.Id);
            return live ? { ...order, UpdatePrice: live.UpdatePrice, FactProfits: live.FactProfits } : order;
          }),
        ),
      );
    }),
    socket.on(SocketTopic.forexClosed, (data) => {
      const closed = new Set(asList<number>(data).map(Number));
      // The last push still counts the closed positions; the refetched figures replace it.
      client.setQueryData(accountKeys.live(), null);
      for (const status of [OrderStatus.holding, OrderStatus.pending]) {
        client.setQueryData<OrderPages>(orderKeys.list(status), (pages) =>
          mapOrders(pages, (orders) => orders.filter((order) => !closed.has(order.Id))),
        );
      }
      void client.invalidateQueries({ queryKey: orderKeys.list(OrderStatus.history) });
      void client.invalidateQueries({ queryKey: accountKeys.money() });
    }),
  ];
  return () => stops.forEach((stop) => stop());
}

/** Subscribes to a topic while the calling screen is shown (sub on mount, unsub on unmount). */
export function useTopic(topic: string | null | undefined) {
  useEffect(() => (topic ? liveSocket.subscribe(topic) : undefined), [topic]);
}

/** Listens to one message type while the calling component is shown. */
export function useSocketMessage(type: string | null | undefined, handler: (data: unknown) => void) {
  useEffect(() => (type ? liveSocket.on(type, handler) : undefined), [type, handler]);
}
