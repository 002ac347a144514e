import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectFeed, feedState } from './feed';
import { accountKeys } from './queries/account';
import { orderKeys, OrderStatus } from './queries/orderKeys';
import { ScriptedSocket } from './scriptedSocket';

const scripted = vi.hoisted(() => ({ sockets: [] as ScriptedSocket[] }));

vi.mock('./live', async () => {
  const { LiveSocket } = await import('./socket');
  const { ScriptedSocket } = await import('./scriptedSocket');
  return {
    liveSocket: new LiveSocket({
      url: () => 'ws://test/v1/ws',
      create: () => {
        const socket = new ScriptedSocket();
        scripted.sockets.push(socket);
        return socket;
      },
      random: () => 0.5,
    }),
  };
});

const { liveSocket } = await import('./live');
const latest = () => scripted.sockets[scripted.sockets.length - 1]!;

/**
 * A server closes its sockets while it cannot hear the others (its event bus is down): pushes sent
 * meanwhile never arrive, so once the feed is live again everything cached must be read again.
 */
describe('the feed coming back after the socket was lost', () => {
  let client: QueryClient;
  let stop: () => void;

  beforeEach(async () => {
    vi.useFakeTimers();
    // The browser's online state and its events (these tests run without a DOM).
    vi.stubGlobal('window', new EventTarget());
    vi.stubGlobal('navigator', { onLine: true });
    client = new QueryClient();
    await client.fetchQuery({ queryKey: orderKeys.list(OrderStatus.holding), queryFn: () => ({ pages: [] }) });
    await client.fetchQuery({ queryKey: accountKeys.balance(), queryFn: () => ({ balance: 100 }) });
    liveSocket.start();
    latest().open();
    stop = connectFeed(client);
  });

  afterEach(() => {
    stop();
    liveSocket.stop();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const invalidated = () =>
    [orderKeys.list(OrderStatus.holding), accountKeys.balance()].map((key) => client.getQueryState(key)?.isInvalidated);

  it('shows reconnecting while it is lost, and re-reads the cached orders and balance once it is live', () => {
    expect(feedState()).toBe('live');
    latest().drop();
    expect(feedState()).toBe('reconnecting');
    expect(invalidated()).toEqual([false, false]);
    // The server refuses the next attempt (503 while its bus is down): the browser sees a failed socket.
    vi.advanceTimersByTime(1_000);
    latest().drop();
    expect(feedState()).toBe('reconnecting');
    expect(invalidated()).toEqual([false, false]);
    vi.advanceTimersByTime(2_000);
    latest().open();
    expect(feedState()).toBe('live');
    expect(invalidated()).toEqual([true, true]);
  });
});
