import { Redis } from 'ioredis';

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
  subscribe<T extends BusTopic>(topic: T, handler: Handler<T>): () => void;
  close(): Promise<void>;
}

/** Single-process default: synchronous delivery; a throwing handler is reported and does not stop others. */
export class InMemoryEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<(payload: unknown) => void>>();
  constructor(private readonly onHandlerError: (error: unknown, topic: string) => void = () => undefined) {}

  publish<T extends BusTopic>(topic: T, payload: BusEvents[T]) {
    this.deliver(topic, payload);
  }

  protected deliver(topic: string, payload: unknown) {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        this.onHandlerError(error, topic);
      }
    }
  }

  subscribe<T extends BusTopic>(topic: T, handler: Handler<T>) {
    const set = this.handlers.get(topic) ?? new Set();
    set.add(handler as (payload: unknown) => void);
    this.handlers.set(topic, set);
    return () => void set.delete(handler as (payload: unknown) => void);
  }

  async close() {
    this.handlers.clear();
  }
}

/** Scale-out: every process publishes to Redis and delivers what Redis hands back, its own events included. */
export class RedisEventBus extends InMemoryEventBus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channels = new Set<string>();

  constructor(url: string, onHandlerError?: (error: unknown, topic: string) => void) {
    super(onHandlerError);
    this.publisher = new Redis(url, { lazyConnect: false });
    // No ready check on the subscriber: subscriptions made before it connects put it in subscriber
    // mode, where the check's INFO is refused and surfaced as an unhandled rejection.
    this.subscriber = new Redis(url, { lazyConnect: false, enableReadyCheck: false });
    this.subscriber.on('message', (channel: string, message: string) => {
      this.deliver(channel.slice('pipwise:'.length), JSON.parse(message));
    });
  }

  override publish<T extends BusTopic>(topic: T, payload: BusEvents[T]) {
    void this.publisher.publish(`pipwise:${topic}`, JSON.stringify(payload));
  }

  override subscribe<T extends BusTopic>(topic: T, handler: Handler<T>) {
    if (!this.channels.has(topic)) {
      this.channels.add(topic);
      void this.subscriber.subscribe(`pipwise:${topic}`);
    }
    return super.subscribe(topic, handler);
  }

  override async close() {
    await super.close();
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }
}
