/**
 * The server entry (src/main.ts, unchanged) with a price source a test drives from outside the
 * process: `setPrice` in test/processes.ts publishes `{ code, bid }` on a Redis channel (TEST_PRICE_CHANNEL);
 * every engine process hears it, as every process connected to a market data provider would, and the
 * one leading ticks it. A process that takes the lead starts from the last price it heard of each code,
 * as a live feed answers the current price when the new leader connects.
 */
import { Redis } from 'ioredis';
import { systemClock } from '../src/clock.js';
import { entryOptions } from '../src/entry-options.js';
import { ManualFeed, type FeedInstrument, type TickSink } from '../src/modules/market/feed.js';

class ScriptedFeed extends ManualFeed {
  private readonly prices = new Map<string, string>();
  private running = false;

  override start(instruments: FeedInstrument[], sink: TickSink) {
    super.start(instruments, sink);
    this.running = true;
    for (const [code, bid] of this.prices) this.tick(code, bid);
  }

  override stop() {
    super.stop();
    this.running = false;
  }

  set(code: string, bid: string) {
    this.prices.set(code, bid);
    if (this.running) this.tick(code, bid);
  }
}

const redisUrl = process.env.REDIS_URL;
const channel = process.env.TEST_PRICE_CHANNEL;
if (!redisUrl || !channel) throw new Error('scripted-server: REDIS_URL and TEST_PRICE_CHANNEL must be set');
const feed = new ScriptedFeed(systemClock);
entryOptions.marketFeed = { source: feed, backfill: false };
const prices = new Redis(redisUrl, { enableReadyCheck: false });
// Redis going away is a test's business (it may stop it on purpose): ioredis reconnects and resubscribes.
prices.on('error', () => undefined);
prices.on('message', (_channel: string, message: string) => {
  const { code, bid } = JSON.parse(message) as { code: string; bid: string };
  try {
    feed.set(code, bid);
  } catch (error) {
    console.error('scripted-server: price not ticked', error);
  }
});
await prices.subscribe(channel);
await import('../src/main.js');
