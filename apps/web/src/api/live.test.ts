import { SocketTopic } from '@pipwise/domain';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectLiveData, subscribeOrderEvents } from './live';
import { accountKeys } from './queries/account';
import { orderKeys, OrderStatus, type OrderPages, type OrderStatusValue } from './queries/orderKeys';
import { ScriptedSocket } from './scriptedSocket';
import { LiveSocket } from './socket';
import { useNoticeToasts } from '../stores/noticeToasts';
import type { AccountNotice, Balance, Order, OrderPage } from './types';

const order = (Id: number, Status: OrderStatusValue) => ({ Id, Status }) as Order;

/**
 * What the server holds; the cached lists were fetched from it before the Orders screen was left (its
 * queries have no observer now, as when the screen is hidden or was never opened since).
 */
class Server {
  lists: Record<OrderStatusValue, Order[]> = {
    [OrderStatus.holding]: [order(8, OrderStatus.holding)],
    [OrderStatus.pending]: [order(7, OrderStatus.pending)],
    [OrderStatus.history]: [],
  };
  balance = 10_000;
  page = (status: OrderStatusValue): OrderPage => ({
    data: this.lists[status],
    total: this.lists[status].length,
    page: 1,
    page_size: 20,
    next_cursor: null,
    all_fact_profits: 0,
    balance: this.balance,
  });
}

describe('live order events while the Orders screen is not shown', () => {
  let sockets: ScriptedSocket[];
  let live: LiveSocket;
  let client: QueryClient;
  let server: Server;
  let stops: (() => void)[];
  const latest = () => sockets[sockets.length - 1]!;
  const cachedIds = (status: OrderStatusValue) =>
    client.getQueryData<OrderPages>(orderKeys.list(status))?.pages.flatMap((page) => page.data.map((row) => row.Id));
  const cachedBalance = () => client.getQueryData<Balance>(accountKeys.balance())?.balance;

  beforeEach(async () => {
    sockets = [];
    live = new LiveSocket({
      url: () => 'ws://test/v1/ws',
      create: () => {
        const socket = new ScriptedSocket();
        sockets.push(socket);
        return socket;
      },
    });
    server = new Server();
    client = new QueryClient();
    for (const status of Object.values(OrderStatus)) {
      await client.fetchInfiniteQuery({
        queryKey: orderKeys.list(status),
        queryFn: () => server.page(status),
        initialPageParam: null as number | null,
      });
    }
    await client.fetchQuery({
      queryKey: accountKeys.balance(),
      queryFn: (): Balance => ({ balance: server.balance, lock_balance: 0, currency: 'USD' }),
    });
    live.start();
    live.login('token');
    latest().open();
    // What the app shell does for a signed-in user, whatever screen is shown.
    stops = [connectLiveData(client, live), subscribeOrderEvents(live)];
  });

  afterEach(() => {
    stops.forEach((stop) => stop());
    live.stop();
    client.clear();
  });

  it("subscribes once to the user's order events, and a screen showing them too adds no subscription", () => {
    const screen = live.subscribe(SocketTopic.forexFilled);
    screen();
    expect(latest().sent.filter((message) => message.type === 'sub')).toEqual([
      { type: 'sub', topic: SocketTopic.forexClosed },
      { type: 'sub', topic: SocketTopic.forexFilled },
      { type: 'sub', topic: SocketTopic.wallet },
      { type: 'sub', topic: SocketTopic.notice },
    ]);
  });

  it('an account notice pushed on any screen becomes a toast', () => {
    const notice = { id: 41, kind: 'order', reason: 'take_profit', order_id: 8, profit: 9.2 } as AccountNotice;
    latest().receive({ type: SocketTopic.notice, data: notice });
    latest().receive({ type: SocketTopic.notice, data: notice });
    expect(useNoticeToasts.getState().shown).toEqual([notice]);
  });

  it('a fill moves the order from Pending to Positions in the cache, and the balance follows', async () => {
    server.lists[OrderStatus.pending] = [];
    server.lists[OrderStatus.holding] = [order(7, OrderStatus.holding), order(8, OrderStatus.holding)];
    server.balance = 9_999.5;
    latest().receive({ type: SocketTopic.forexFilled, data: [7] });

    expect(cachedIds(OrderStatus.pending)).toEqual([]);
    await vi.waitFor(() => expect(cachedIds(OrderStatus.holding)).toEqual([7, 8]));
    await vi.waitFor(() => expect(cachedBalance()).toBe(9_999.5));
    // Fresh, not merely marked stale: the next visit shows them without waiting for a fetch.
    expect(client.getQueryState(orderKeys.list(OrderStatus.holding))?.isInvalidated).toBe(false);
  });

  it('a close by take profit moves the position from Positions to History in the cache, and the balance follows', async () => {
    server.lists[OrderStatus.holding] = [];
    server.lists[OrderStatus.history] = [order(8, OrderStatus.history)];
    server.balance = 10_012.3;
    latest().receive({ type: SocketTopic.forexClosed, data: [8] });

    expect(cachedIds(OrderStatus.holding)).toEqual([]);
    await vi.waitFor(() => expect(cachedIds(OrderStatus.history)).toEqual([8]));
    await vi.waitFor(() => expect(cachedBalance()).toBe(10_012.3));
  });

  it('a credited deposit (WALLET) refetches the balance the screens show', async () => {
    server.balance = 10_250;
    latest().receive({ type: SocketTopic.wallet, data: { cause: 'deposit', id: 3, status: 1 } });
    await vi.waitFor(() => expect(cachedBalance()).toBe(10_250));
  });
});
