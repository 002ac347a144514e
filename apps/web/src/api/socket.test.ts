import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveSocket, type SocketLike } from './socket';

/** A scripted WebSocket: the test opens it, answers for the server and reads what the client sent. */
class ScriptedSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closed = false;
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  onmessage: SocketLike['onmessage'] = null;

  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(message: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: typeof message === 'string' ? message : JSON.stringify(message) }));
  }
  types() {
    return this.sent.map((message) => message.type);
  }
}

describe('LiveSocket', () => {
  let sockets: ScriptedSocket[];
  let warnings: unknown[];
  let live: LiveSocket;
  const latest = () => sockets[sockets.length - 1]!;

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    warnings = [];
    live = new LiveSocket({
      url: () => 'ws://test/v1/ws',
      create: () => {
        const socket = new ScriptedSocket();
        sockets.push(socket);
        return socket;
      },
      warn: (message) => warnings.push(message),
    });
  });

  afterEach(() => {
    live.stop();
    vi.useRealTimers();
  });

  it('connects once however often it is started, and logs in once per token', () => {
    live.start();
    live.start();
    expect(sockets).toHaveLength(1);
    live.login('token-a');
    latest().open();
    live.login('token-a');
    live.login('token-a');
    expect(latest().sent.filter((message) => message.type === 'login')).toEqual([{ type: 'login', token: 'token-a' }]);
  });

  it('subscribes once per topic while any screen shows it and unsubscribes after the last one', () => {
    live.start();
    latest().open();
    const first = live.subscribe('DAY_MARKET');
    const second = live.subscribe('DAY_MARKET');
    first();
    expect(latest().sent).toEqual([{ type: 'sub', topic: 'DAY_MARKET' }]);
    second();
    expect(latest().sent).toEqual([
      { type: 'sub', topic: 'DAY_MARKET' },
      { type: 'unsub', topic: 'DAY_MARKET' },
    ]);
  });

  it('pings every 5 s and reconnects after more than 2 unanswered pings, then logs in and re-subscribes', () => {
    live.start();
    live.login('token-a');
    live.subscribe('KLINE.EURUSD');
    latest().open();
    const first = latest();

    vi.advanceTimersByTime(5_000);
    first.receive({ type: 'pong' });
    vi.advanceTimersByTime(15_000);
    expect(first.types().filter((type) => type === 'ping')).toHaveLength(4);
    expect(first.closed).toBe(false);

    vi.advanceTimersByTime(5_000);
    expect(first.closed).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(2);
    latest().open();
    expect(latest().sent).toEqual([
      { type: 'login', token: 'token-a' },
      { type: 'sub', topic: 'KLINE.EURUSD' },
    ]);
  });

  it('gives up an attempt after 5 s and backs off between attempts', () => {
    live.start();
    vi.advanceTimersByTime(5_000);
    expect(sockets[0]!.closed).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(5_000);
    vi.advanceTimersByTime(1_999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
  });

  it('hands typed messages to their listeners and warns about messages without a type', () => {
    const received: unknown[] = [];
    live.on('FOREX_CLOSED', (data) => received.push(data));
    live.start();
    latest().open();
    latest().receive({ type: 'FOREX_CLOSED', data: [7] });
    latest().receive({ data: [8] });
    latest().receive('not json');
    expect(received).toEqual([[7]]);
    expect(warnings).toHaveLength(2);
  });

  it('sends the socket logout and logs in again only with a new token', () => {
    live.start();
    live.login('token-a');
    latest().open();
    live.logout();
    live.login('token-b');
    expect(latest().sent).toEqual([{ type: 'login', token: 'token-a' }, { type: 'logout' }, { type: 'login', token: 'token-b' }]);
  });
});
