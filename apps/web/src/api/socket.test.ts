import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScriptedSocket } from './scriptedSocket';
import { LiveSocket } from './socket';

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
      // The middle of the jitter: every backoff is exactly its step.
      random: () => 0.5,
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

  it('spreads reconnections: each client waits from half to one and a half times the step, the step doubling to 30 s', () => {
    const attempts = (random: number) => {
      const created: number[] = [];
      const refused: number[] = [];
      const client = new LiveSocket({
        url: () => 'ws://test/v1/ws',
        create: () => {
          created.push(Date.now());
          const socket = new ScriptedSocket();
          // Refused, as a 503 on the upgrade looks to a browser.
          setTimeout(() => {
            refused.push(Date.now());
            socket.drop();
          }, 0);
          return socket;
        },
        random: () => random,
      });
      client.start();
      vi.advanceTimersByTime(150_000);
      client.stop();
      return created.slice(1, 8).map((time, i) => time - refused[i]!);
    };
    expect(attempts(0)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000]);
    expect(attempts(0.75)).toEqual([1_250, 2_500, 5_000, 10_000, 20_000, 37_500, 37_500]);
  });

  it('tells its listeners when the connection opens and when it is lost', () => {
    const seen: boolean[] = [];
    live.onConnectionChange(() => seen.push(live.connected));
    live.start();
    expect(live.firstAttempt).toBe(true);
    latest().open();
    latest().drop();
    expect(seen).toEqual([true, false]);
    expect(live.firstAttempt).toBe(false);
  });

  it('is no longer answering once a ping has gone unanswered for a whole interval, and is again on the pong', () => {
    const seen: boolean[] = [];
    live.onConnectionChange(() => seen.push(live.answering));
    live.start();
    latest().open();
    vi.advanceTimersByTime(5_000);
    expect(live.answering).toBe(true);
    vi.advanceTimersByTime(5_000);
    expect(live.answering).toBe(false);
    expect(live.connected).toBe(true);
    latest().receive({ type: 'pong' });
    expect(seen).toEqual([true, false, true]);
  });

  it('connects at once when woken during a backoff, instead of waiting it out', () => {
    live.start();
    latest().open();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      latest().drop();
      vi.advanceTimersByTime(2 ** attempt * 1_000);
    }
    latest().drop();
    const before = sockets.length;
    live.wake();
    expect(sockets).toHaveLength(before + 1);
    live.wake();
    expect(sockets).toHaveLength(before + 1);
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
