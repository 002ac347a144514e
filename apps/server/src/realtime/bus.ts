import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { busDisconnectsTotal, busPublishesDroppedTotal } from '../observability/metrics.js';

/**
 * Events between modules and processes. Modules declare their events by augmenting `BusEvents`:
 *   declare module '../../realtime/bus.js' { interface BusEvents { 'order.closed': { … } } }
 * Payloads must be JSON-serialisable so the Redis implementation can carry them between processes.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface BusEvents {}

export type BusTopic = Extract<keyof BusEvents, string>;
export type Handler<T extends BusTopic> = (payload: BusEvents[T]) => void;

export interface EventBus {
  publish<T extends BusTopic>(topic: T, payload: BusEvents[T]): void;
  subscribe<T extends BusTopic>(topic: T, handler: Handler<T>, options?: SubscribeOptions): () => void;
  /** Whether events reach the other processes (and theirs reach this one); always, in memory. */
  readonly connected: boolean;
  /** Calls `listener` on every change of `connected`; answers the function that stops it. */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /** A round trip to the bus's server, for readiness: whether it answered while connected. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /** Only events this process published, none from the others. */
  thisProcessOnly?: boolean;
}

/** Where the Redis bus reports its connection's ups and downs (pino's logger fits). */
export interface BusLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

const quiet: BusLog = { info: () => undefined, warn: () => undefined };

/** Single-process default: synchronous delivery; a throwing handler is reported and does not stop others. */
export class InMemoryEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<(payload: unknown) => void>>();
  /** While an event from another process is being delivered. */
  private deliveringForeign = false;
  constructor(private readonly onHandlerError: (error: unknown, topic: string) => void = () => undefined) {}

  get connected() {
    return true;
  }

  /** Never changes: there is no connection to lose. */
  onConnectionChange(_listener: (connected: boolean) => void): () => void {
    return () => undefined;
  }

  async ping() {
    return true;
  }

  publish<T extends BusTopic>(topic: T, payload: BusEvents[T]) {
    this.deliver(topic, payload);
  }

  /** `foreign`: the event came from another process. Set per delivery, as a handler may publish in turn. */
  protected deliver(topic: string, payload: unknown, foreign = false) {
    const outer = this.deliveringForeign;
    this.deliveringForeign = foreign;
    try {
      for (const handler of this.handlers.get(topic) ?? []) {
        try {
          handler(payload);
        } catch (error) {
          this.onHandlerError(error, topic);
        }
      }
    } finally {
      this.deliveringForeign = outer;
    }
  }

  subscribe<T extends BusTopic>(topic: T, handler: Handler<T>, options: SubscribeOptions = {}) {
    const set = this.handlers.get(topic) ?? new Set();
    const deliver = options.thisProcessOnly
      ? (payload: unknown) => {
          if (!this.deliveringForeign) handler(payload as BusEvents[T]);
        }
      : (handler as (payload: unknown) => void);
    set.add(deliver);
    this.handlers.set(topic, set);
    return () => void set.delete(deliver);
  }

  async close() {
    this.handlers.clear();
  }
}

const PREFIX = 'pipwise:';

/** What goes through Redis: the publishing bus's id (so it skips its own echo) and the payload. */
interface Envelope {
  o: string;
  p: unknown;
}

/**
 * Scale-out: every event is delivered in this process at once, as in memory, and published to Redis
 * for the others; what Redis hands back from other processes is delivered here. So a process keeps
 * serving itself (the engine its own feed's quotes) while Redis is away.
 *
 * Redis going away never throws: both connections report errors to the log, reconnect by themselves
 * (ioredis, backing off up to 2 s) and, once back, this bus subscribes every channel again before it
 * counts as connected. A publish while the publisher is not connected is not queued: it is dropped for
 * the other processes and counted (`pipwise_bus_publishes_dropped_total`). That is safe because events
 * only tell others to look again: money and orders live in the database, the socket hub closes its
 * sockets while the bus is down (its clients re-read everything when they reconnect), the engine
 * re-reads the open orders when the bus returns, and caches fed by events expire on their own.
 */
export class RedisEventBus extends InMemoryEventBus {
  private readonly origin = randomUUID();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channels = new Set<string>();
  private readonly listeners = new Set<(connected: boolean) => void>();
  private publisherReady = false;
  private subscribed = false;
  private up = false;
  private closing = false;
  /** An outage is logged once, not at every failed reconnection attempt. */
  private errorLogged = false;

  constructor(
    url: string,
    onHandlerError?: (error: unknown, topic: string) => void,
    private readonly log: BusLog = quiet,
  ) {
    super(onHandlerError);
    // No offline queue: a command sent while disconnected fails at once instead of waiting, unbounded,
    // for a reconnection and then failing after its retries.
    this.publisher = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // The subscriber subscribes again itself once connected (autoResubscribe off), so it knows when it
    // is listening. No ready check: in subscriber mode the check's INFO is refused.
    this.subscriber = new Redis(url, {
      enableOfflineQueue: false,
      enableReadyCheck: false,
      autoResubscribe: false,
      maxRetriesPerRequest: 1,
    });
    for (const [name, client] of [
      ['publisher', this.publisher],
      ['subscriber', this.subscriber],
    ] as const) {
      client.on('error', (error: Error) => this.connectionError(name, error));
    }
    this.publisher.on('ready', () => {
      this.publisherReady = true;
      this.update();
    });
    this.publisher.on('close', () => {
      this.publisherReady = false;
      this.update();
    });
    this.subscriber.on('ready', () => void this.resubscribe());
    this.subscriber.on('close', () => {
      this.subscribed = false;
      this.update();
    });
    this.subscriber.on('message', (channel: string, message: string) => this.receive(channel, message));
  }

  override get connected() {
    return this.up;
  }

  override onConnectionChange(listener: (connected: boolean) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  override async ping() {
    if (!this.up) return false;
    try {
      // Both connections: a subscriber whose connection died without a word would still look connected.
      await Promise.all([this.publisher.ping(), this.subscriber.ping()]);
      return true;
    } catch {
      return false;
    }
  }

  override publish<T extends BusTopic>(topic: T, payload: BusEvents[T]) {
    this.deliver(topic, payload);
    if (this.publisher.status !== 'ready') {
      busPublishesDroppedTotal.inc({ topic });
      return;
    }
    const envelope: Envelope = { o: this.origin, p: payload };
    this.publisher.publish(PREFIX + topic, JSON.stringify(envelope)).catch(() => busPublishesDroppedTotal.inc({ topic }));
  }

  override subscribe<T extends BusTopic>(topic: T, handler: Handler<T>, options?: SubscribeOptions) {
    if (!this.channels.has(topic)) {
      this.channels.add(topic);
      // Not connected yet (or any more): the next connection subscribes every channel.
      if (this.subscriber.status === 'ready') {
        this.subscriber.subscribe(PREFIX + topic).catch((error: unknown) => this.connectionError('subscriber', error));
      }
    }
    return super.subscribe(topic, handler, options);
  }

  override async close() {
    this.closing = true;
    this.update();
    this.listeners.clear();
    await super.close();
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  private receive(channel: string, message: string) {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch (error) {
      this.connectionError('subscriber', error);
      return;
    }
    if (envelope.o !== this.origin) this.deliver(channel.slice(PREFIX.length), envelope.p, true);
  }

  private async resubscribe() {
    try {
      if (this.channels.size > 0) await this.subscriber.subscribe(...[...this.channels].map((topic) => PREFIX + topic));
      // A reply can arrive over a later connection (ioredis resends what a dropped one left unanswered).
      if (this.subscriber.status !== 'ready') return;
      this.subscribed = true;
      this.update();
    } catch (error) {
      // The connection dropped again while subscribing: its next 'ready' subscribes again.
      this.connectionError('subscriber', error);
    }
  }

  private connectionError(connection: 'publisher' | 'subscriber', error: unknown) {
    if (this.closing || this.errorLogged) return;
    this.errorLogged = true;
    this.log.warn({ err: error, connection }, 'event bus: Redis error (reconnecting)');
  }

  private update() {
    const up = !this.closing && this.publisherReady && this.subscribed;
    if (up === this.up) return;
    this.up = up;
    if (up) {
      this.errorLogged = false;
      this.log.info({}, 'event bus connected');
    } else if (!this.closing) {
      busDisconnectsTotal.inc();
      this.log.warn({}, 'event bus lost: other processes do not hear this one until Redis is back');
    }
    for (const listener of this.listeners) listener(up);
  }
}
