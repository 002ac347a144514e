import { afterAll, describe, expect, it } from 'vitest';
import type { Quote } from '../src/modules/market/api.js';
import { RedisEventBus } from '../src/realtime/bus.js';
import { RedisServer } from './redis-server.js';

const connected = (bus: RedisEventBus) =>
  bus.connected
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        const stop = bus.onConnectionChange((up) => {
          if (!up) return;
          stop();
          resolve();
        });
      });

const quote = (bid: string): Quote => ({
  instrumentId: 1,
  code: 'BTCUSD',
  bid,
  ask: bid,
  open: bid,
  high: bid,
  low: bid,
  changePct: '0',
  volume: '0',
  time: 0,
  marketOpen: true,
});

/**
 * `thisProcessOnly` (what the engine hears the feed's quotes with): two buses on one Redis stand for two
 * processes. A quote the other process publishes is not delivered to such a handler; one published here
 * is, also from inside the handler of an event that came from the other process. A redis-server of the
 * test's own, so that no other suite's events reach it (TEST_REDIS_URL says one is at hand).
 */
describe.runIf(process.env.TEST_REDIS_URL)('bus subscriptions to this process only', () => {
  const buses: RedisEventBus[] = [];
  let redis: RedisServer | undefined;
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await redis?.stop();
  });

  it("hears this process's events, not the other processes'", async () => {
    redis = await RedisServer.start();
    const here = new RedisEventBus(redis.url);
    const there = new RedisEventBus(redis.url);
    buses.push(here, there);
    const own: string[] = [];
    const all: string[] = [];
    here.subscribe('market.quote', (heard) => own.push(heard.bid), { thisProcessOnly: true });
    here.subscribe('market.quote', (heard) => all.push(heard.bid));
    // An event from the other process whose handler here publishes a quote of this process's own.
    const marked = new Promise<void>((resolve) =>
      here.subscribe('market.categories_changed', () => {
        here.publish('market.quote', quote('3'));
        resolve();
      }),
    );
    await Promise.all([connected(here), connected(there)]);

    here.publish('market.quote', quote('1'));
    there.publish('market.quote', quote('2'));
    // Redis delivers one connection's messages in order: the quote before the mark.
    there.publish('market.categories_changed', {});
    await marked;

    expect(all).toEqual(['1', '2', '3']);
    expect(own).toEqual(['1', '3']);
  });
});
