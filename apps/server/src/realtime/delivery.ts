import type { Duplex } from 'node:stream';
import { SocketTopic } from '@pipwise/domain';
import * as wsLibrary from 'ws';
import { WebSocket } from 'ws';
import type { Connection, PendingFrame } from './connection.js';
import type { HubOptions } from './hub.js';
import type { Subscriptions } from './subscriptions.js';

/** Topics whose payload is a list that a slow consumer must receive whole: pending lists are merged. */
const ACCUMULATING_TOPICS = new Set<string>([SocketTopic.forexClosed, SocketTopic.forexFilled]);
const MAX_ACCUMULATED_ITEMS = 1000;
/** Held frames per subscribed topic, on average, before the oldest goes (KLINE has six periods, DAY_MARKET an instrument each). */
const MAX_HELD_PER_TOPIC = 8;
/**
 * Sockets written per turn of the event loop. One feed step's writes to 5,000 sockets were one pass, and
 * every HTTP request that arrived meanwhile waited for it: the API's p99 was 162 ms with 5,000 sockets per
 * gateway, 67–77 ms in slices of 500 and 35–40 ms in slices of 200 (docs/benchmarks.md).
 */
export const SOCKETS_PER_TURN = 200;
/**
 * Writes waiting past this many are made without yielding: a loop that cannot keep up with the feed
 * blocks, as it did before the writes were sliced, rather than queueing steps without end.
 */
export const MAX_QUEUED_WRITES = 50_000;

/** One topic's frames of one burst, written to a snapshot of its subscribers a slice at a time. */
interface Flush {
  topic: string;
  batch: { key: string; frame: Buffer; data: unknown }[];
  joined: Buffer;
  subscribers: Connection[];
  next: number;
}

/**
 * What a held-back frame replaces: DAY_MARKET carries every instrument on one topic and KLINE every
 * period, so the latest quote of each instrument and bar of each period are kept, not just one frame.
 */
function coalescingKey(topic: string, data: unknown): string {
  if (!data || typeof data !== 'object') return topic;
  const { symbol, Period } = data as { symbol?: unknown; Period?: unknown };
  let key = topic;
  if (typeof symbol === 'string') key += `|${symbol}`;
  if (typeof Period === 'string') key += `|${Period}`;
  return key;
}

/** `ws` frames a message with its own Sender; not in @types/ws. */
const { Sender } = wsLibrary as unknown as { Sender: { frame: (data: Buffer, options: object) => Buffer[] } };
const TEXT_FRAME = { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false };

/**
 * A text message framed once for every recipient: one Buffer (header and payload) written as it is to
 * each socket, so a recipient costs one write of a shared buffer rather than a header of its own and two
 * writes. Valid as long as nothing else is queued in the socket's `ws` Sender, which holds only while
 * messages are not compressed (admission.ts turns permessage-deflate off).
 */
function wireFrame(message: string): Buffer {
  return Buffer.concat(Sender.frame(Buffer.from(message), TEXT_FRAME));
}

const socketOf = (conn: Connection) => (conn.ws as unknown as { _socket?: Duplex })._socket;

/**
 * Frames to their subscribers, with back-pressure. A frame is serialised and framed once and the same
 * buffer written to every subscriber; a congested connection keeps only the latest frame per topic (and
 * instrument, and period) until its buffer drains, so memory per connection is bounded by its
 * subscriptions, never by the feed's rate. The high-water mark is what a slow phone may cost in unsent
 * bytes: each write queued behind it is also an object of its own, so it is kept low.
 */
export class Delivery {
  private readonly congested = new Set<Connection>();
  private readonly corked = new Set<Connection>();
  /** Frames broadcast in the current synchronous burst, per topic, in order. */
  private readonly batches = new Map<string, { key: string; frame: Buffer; data: unknown }[]>();
  /** Bursts' flushes in the order they were broadcast: a socket gets a step's frames only after the step before. */
  private readonly flushes: Flush[] = [];
  private queuedWrites = 0;
  private flushScheduled = false;
  private drainTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly subscriptions: Subscriptions,
    private readonly options: Pick<HubOptions, 'highWaterBytes' | 'maxSubscriptions' | 'drainIntervalMs'>,
  ) {}

  get congestedCount() {
    return this.congested.size;
  }

  /**
   * To every subscriber of `topic`; the frame is serialised once for all of them. A feed step
   * broadcasts a frame per instrument in one synchronous burst: the burst's frames of a topic are joined
   * into one buffer and written to each subscriber once, when the burst ends, so a socket costs one
   * write per step rather than one per frame (with thousands of sockets, those writes are what keeps
   * the event loop from accepting new ones).
   */
  broadcast(topic: string, data: unknown) {
    const subscribers = this.subscriptions.subscribersOf(topic);
    if (!subscribers || subscribers.size === 0) return;
    let batch = this.batches.get(topic);
    if (!batch) {
      this.batches.set(topic, (batch = []));
      if (this.batches.size === 1) process.nextTick(() => this.flushBatches());
    }
    batch.push({ key: coalescingKey(topic, data), frame: wireFrame(JSON.stringify({ type: topic, data })), data });
  }

  private flushBatches() {
    for (const [topic, batch] of this.batches) {
      const subscribers = this.subscriptions.subscribersOf(topic);
      if (!subscribers) continue;
      const joined = batch.length === 1 ? batch[0]!.frame : Buffer.concat(batch.map((item) => item.frame));
      this.flushes.push({ topic, batch, joined, subscribers: [...subscribers], next: 0 });
      this.queuedWrites += subscribers.size;
    }
    this.batches.clear();
    if (!this.flushScheduled) this.writeFlushes();
  }

  /**
   * Writes the queued flushes in order, SOCKETS_PER_TURN sockets at a time, yielding to the event loop
   * between slices so that requests and new sockets are served while a step reaches thousands of clients.
   */
  private writeFlushes() {
    this.flushScheduled = false;
    let written = 0;
    while (this.flushes.length > 0) {
      const flush = this.flushes[0]!;
      while (flush.next < flush.subscribers.length) {
        if (written >= SOCKETS_PER_TURN && this.queuedWrites <= MAX_QUEUED_WRITES) {
          this.flushScheduled = true;
          setImmediate(() => this.writeFlushes());
          return;
        }
        this.writeFlush(flush, flush.subscribers[flush.next++]!);
        this.queuedWrites -= 1;
        written += 1;
      }
      this.flushes.shift();
    }
  }

  private writeFlush({ topic, batch, joined }: Flush, conn: Connection) {
    const socket = socketOf(conn);
    // Unsubscribed or closed while the flush waited for its turn.
    if (conn.ws.readyState !== WebSocket.OPEN || !socket || !conn.subscriptions.has(topic)) return;
    if (conn.pending === undefined && conn.ws.bufferedAmount + joined.length <= this.options.highWaterBytes) {
      this.cork(conn, socket);
      socket.write(joined);
    } else {
      // Frame by frame, so the high-water mark holds and the rest are held per instrument.
      for (const item of batch) this.deliver(conn, item.key, topic, item.frame, item.data);
    }
  }

  /** To `userId`'s logged-in connections that subscribed to `topic`. */
  sendToUser(userId: number, topic: string, data: unknown) {
    const connections = this.subscriptions.connectionsOf(userId);
    if (!connections) return;
    let frame: Buffer | undefined;
    const key = coalescingKey(topic, data);
    for (const conn of connections) {
      if (!conn.subscriptions.has(topic)) continue;
      frame ??= wireFrame(JSON.stringify({ type: topic, data }));
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
    const socket = socketOf(conn);
    if (ws.readyState !== WebSocket.OPEN || !socket) return;
    if (conn.pending === undefined && ws.bufferedAmount <= this.options.highWaterBytes) {
      this.cork(conn, socket);
      socket.write(frame);
      return;
    }
    this.hold(conn, key, topic, frame, data);
  }

  /**
   * A feed step broadcasts several frames in one synchronous burst; holding each socket's writes until
   * the burst ends sends them in one system call per client instead of one per frame. `ws` has no
   * public handle on its socket, so this reaches for `_socket`.
   */
  private cork(conn: Connection, socket: Duplex) {
    if (this.corked.has(conn)) return;
    socket.cork();
    this.corked.add(conn);
    if (this.corked.size === 1) process.nextTick(() => this.uncorkAll());
  }

  private uncorkAll() {
    for (const conn of this.corked) socketOf(conn)?.uncork();
    this.corked.clear();
  }

  /** Keeps the latest frame per key (lists of accumulating topics are merged), oldest key dropped past the cap. */
  private hold(conn: Connection, key: string, topic: string, frame: Buffer, data: unknown) {
    const pending = (conn.pending ??= new Map<string, PendingFrame>());
    const previous = pending.get(key);
    pending.delete(key);
    if (ACCUMULATING_TOPICS.has(topic) && Array.isArray(data)) {
      const items = [...(previous?.items ?? []), ...(data as unknown[])];
      pending.set(key, { topic, items: [...new Set(items)].slice(-MAX_ACCUMULATED_ITEMS) });
    } else {
      pending.set(key, { topic, frame });
    }
    if (pending.size > this.options.maxSubscriptions * MAX_HELD_PER_TOPIC) {
      const oldest = pending.keys().next().value;
      if (oldest !== undefined) pending.delete(oldest);
    }
    this.congested.add(conn);
    this.drainTimer ??= setInterval(() => this.drain(), this.options.drainIntervalMs);
  }

  private drain() {
    for (const conn of this.congested) {
      const { ws } = conn;
      const socket = socketOf(conn);
      if (ws.readyState !== WebSocket.OPEN || !socket) {
        this.congested.delete(conn);
        conn.pending = undefined;
        continue;
      }
      if (ws.bufferedAmount > this.options.highWaterBytes / 2) continue;
      socket.cork();
      for (const pending of conn.pending?.values() ?? []) {
        socket.write(pending.frame ?? wireFrame(JSON.stringify({ type: pending.topic, data: pending.items })));
      }
      socket.uncork();
      conn.pending = undefined;
      this.congested.delete(conn);
    }
    if (this.congested.size === 0) {
      clearInterval(this.drainTimer);
      this.drainTimer = undefined;
    }
  }
}
