import type { Duplex } from 'node:stream';
import { SocketTopic } from '@pipwise/domain';
import { WebSocket } from 'ws';
import type { Connection } from './connection.js';
import type { HubOptions } from './hub.js';
import type { Subscriptions } from './subscriptions.js';

/** Topics whose payload is a list that a slow consumer must receive whole: pending lists are merged. */
const ACCUMULATING_TOPICS = new Set<string>([SocketTopic.forexClosed, SocketTopic.forexFilled]);
const MAX_ACCUMULATED_ITEMS = 1000;
const TEXT = { binary: false } as const;

/** KLINE frames carry every period on one topic: the latest bar of each period is kept, not just one. */
function coalescingKey(topic: string, data: unknown): string {
  const period = data && typeof data === 'object' ? (data as { Period?: unknown }).Period : undefined;
  return typeof period === 'string' ? `${topic}|${period}` : topic;
}

/**
 * Frames to their subscribers, with back-pressure. A frame is serialised once and the same buffer handed
 * to every subscriber; a congested connection keeps only the latest frame per topic until its buffer
 * drains, so memory per connection is bounded by its subscriptions, never by the feed's rate.
 */
export class Delivery {
  private readonly congested = new Set<Connection>();
  private readonly corked = new Set<Connection>();
  private drainTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly subscriptions: Subscriptions,
    private readonly options: Pick<HubOptions, 'highWaterBytes' | 'maxSubscriptions' | 'drainIntervalMs'>,
  ) {}

  get congestedCount() {
    return this.congested.size;
  }

  /** To every subscriber of `topic`; the frame is serialised once for all of them. */
  broadcast(topic: string, data: unknown) {
    const subscribers = this.subscriptions.subscribersOf(topic);
    if (!subscribers || subscribers.size === 0) return;
    const frame = Buffer.from(JSON.stringify({ type: topic, data }));
    const key = coalescingKey(topic, data);
    for (const conn of subscribers) this.deliver(conn, key, topic, frame, data);
  }

  /** To `userId`'s logged-in connections that subscribed to `topic`. */
  sendToUser(userId: number, topic: string, data: unknown) {
    const connections = this.subscriptions.connectionsOf(userId);
    if (!connections) return;
    let frame: Buffer | undefined;
    const key = coalescingKey(topic, data);
    for (const conn of connections) {
      if (!conn.subscriptions.has(topic)) continue;
      frame ??= Buffer.from(JSON.stringify({ type: topic, data }));
      this.deliver(conn, key, topic, frame, data);
    }
  }

  /** At once, never held back: answers to the client's own messages. */
  sendNow(conn: Connection, message: unknown) {
    if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify(message));
  }

  /** A closed connection is no longer waited for. */
  forget(conn: Connection) {
    this.congested.delete(conn);
  }

  stop() {
    clearInterval(this.drainTimer);
  }

  private deliver(conn: Connection, key: string, topic: string, frame: Buffer, data: unknown) {
    const { ws } = conn;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (conn.pending.size === 0 && ws.bufferedAmount <= this.options.highWaterBytes) {
      this.cork(conn);
      ws.send(frame, TEXT);
      return;
    }
    this.hold(conn, key, topic, frame, data);
  }

  /**
   * A feed step broadcasts several frames in one synchronous burst; holding each socket's writes until
   * the burst ends sends them in one system call per client instead of one per frame. `ws` has no
   * public handle on its socket, so this reaches for `_socket` and does nothing without it.
   */
  private cork(conn: Connection) {
    if (this.corked.has(conn)) return;
    const socket = (conn.ws as unknown as { _socket?: Duplex })._socket;
    if (!socket) return;
    socket.cork();
    this.corked.add(conn);
    if (this.corked.size === 1) process.nextTick(() => this.uncorkAll());
  }

  private uncorkAll() {
    for (const conn of this.corked) (conn.ws as unknown as { _socket?: Duplex })._socket?.uncork();
    this.corked.clear();
  }

  /** Keeps the latest frame per key (lists of accumulating topics are merged), oldest key dropped past the cap. */
  private hold(conn: Connection, key: string, topic: string, frame: Buffer, data: unknown) {
    const previous = conn.pending.get(key);
    conn.pending.delete(key);
    if (ACCUMULATING_TOPICS.has(topic) && Array.isArray(data)) {
      const items = [...(previous?.items ?? []), ...(data as unknown[])];
      conn.pending.set(key, { topic, items: [...new Set(items)].slice(-MAX_ACCUMULATED_ITEMS) });
    } else {
      conn.pending.set(key, { topic, frame });
    }
    if (conn.pending.size > this.options.maxSubscriptions * 8) {
      const oldest = conn.pending.keys().next().value;
      if (oldest !== undefined) conn.pending.delete(oldest);
    }
    this.congested.add(conn);
    this.drainTimer ??= setInterval(() => this.drain(), this.options.drainIntervalMs);
  }

  private drain() {
    for (const conn of this.congested) {
      const { ws } = conn;
      if (ws.readyState !== WebSocket.OPEN) {
        this.congested.delete(conn);
        conn.pending.clear();
        continue;
      }
      if (ws.bufferedAmount > this.options.highWaterBytes / 2) continue;
      for (const pending of conn.pending.values()) {
        ws.send(pending.frame ?? Buffer.from(JSON.stringify({ type: pending.topic, data: pending.items })), TEXT);
      }
      conn.pending.clear();
      this.congested.delete(conn);
    }
    if (this.congested.size === 0) {
      clearInterval(this.drainTimer);
      this.drainTimer = undefined;
    }
  }
}
