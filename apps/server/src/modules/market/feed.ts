import { dec, isSessionOpenAtMinute, roundPrice, type MarketSession } from '@pipwise/domain';
import type { Clock } from '../../clock.js';
import type { Quote } from './api.js';
import { Random } from './random.js';

/** One price update from a source: bid and ask already at the instrument's precision. */
export interface Tick {
  code: string;
  bid: string;
  ask: string;
  /** Milliseconds since the epoch. */
  time: number;
  volume: number;
}

/** What a source needs to know of an instrument. */
export interface FeedInstrument {
  code: string;
  precision: number;
  spread: string;
  basePrice: number;
  /** Annualised. */
  volatility: number;
  session: MarketSession;
  /** Where the price stands now: the last stored close, or the base price on an empty database. */
  lastPrice: number;
}

/** Receives every tick; the market engine runs its pipeline and returns the updated quote. */
export type TickSink = (tick: Tick) => Quote | undefined;

/** A bar of generated history; `time` is its start in ms, its length the step the history was asked for. */
export interface HistoryBar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/**
 * Where prices come from. The simulated feed is the default; the manual source drives tests; a live
 * adapter would implement the same three members.
 */
export interface MarketDataSource {
  readonly kind: string;
  /** Starts delivering ticks of open instruments to `sink`. */
  start(instruments: FeedInstrument[], sink: TickSink): void;
  stop(): void;
  /**
   * Bars of `stepMs` for the open stretches of [fromMs, toMs), continuing from `startPrice`. Only
   * sources that can make up history have it (the simulation); the engine back-fills with it.
   */
  history?(instrument: FeedInstrument, fromMs: number, toMs: number, stepMs: number, startPrice: number): Iterable<HistoryBar>;
}

const MS_PER_YEAR = 365.25 * 24 * 3600 * 1000;
/** Prices drift back towards the base price with a half-life of 60 days, so years of walk stay plausible. */
const REVERSION_PER_YEAR = Math.LN2 / (60 / 365.25);

/** A mean-reverting log random walk (Ornstein–Uhlenbeck in log price). */
export class PriceWalk {
  private logPrice: number;
  private readonly logBase: number;
  private readonly minimum: number;
  private readonly factor: number;

  constructor(
    private readonly instrument: FeedInstrument,
    private readonly random: Random,
    startPrice: number,
  ) {
    this.logPrice = Math.log(startPrice);
    this.logBase = Math.log(instrument.basePrice);
    this.factor = 10 ** instrument.precision;
    this.minimum = 1 / this.factor;
  }

  private round(value: number) {
    return Math.max(this.minimum, Math.round(value * this.factor) / this.factor);
  }

  get price() {
    return this.round(Math.exp(this.logPrice));
  }

  /** Advances the walk by `dtMs` of market time and returns the new price at the instrument's precision. */
  step(dtMs: number): number {
    const years = dtMs / MS_PER_YEAR;
    this.logPrice +=
      REVERSION_PER_YEAR * (this.logBase - this.logPrice) * years +
      this.instrument.volatility * Math.sqrt(years) * this.random.normal();
    return this.price;
  }

  /** A bar of `dtMs`: open at the current price, one step to the close, wicks beyond both. */
  bar(time: number, dtMs: number): HistoryBar {
    const open = this.price;
    const close = this.step(dtMs);
    const wickScale = open * this.instrument.volatility * Math.sqrt(dtMs / MS_PER_YEAR);
    const high = this.round(Math.max(open, close) + wickScale * this.random.next() ** 2);
    const low = this.round(Math.min(open, close) - wickScale * this.random.next() ** 2);
    const volume = (20 + Math.floor(this.random.next() * 200)) * (dtMs / 60_000);
    return { time, open, high, low, close, volume };
  }
}

export const TICK_INTERVAL_MS = 400;

/**
 * The default source: every open instrument ticks every 400 ms (2.5 ticks a second) on a seeded walk,
 * one random stream per instrument, so the same seed and step times give the same prices.
 */
export class SimulatedFeed implements MarketDataSource {
  readonly kind = 'simulated';
  private timer: NodeJS.Timeout | undefined;
  private walks: { instrument: FeedInstrument; walk: PriceWalk; random: Random; lastStep: number | undefined }[] = [];
  private sink: TickSink = () => undefined;

  constructor(
    private readonly seed: number,
    private readonly clock: Clock,
    private readonly intervalMs = TICK_INTERVAL_MS,
  ) {}

  /** Sets the instruments up without starting the timer (tests then call `step` themselves). */
  attach(instruments: FeedInstrument[], sink: TickSink) {
    this.sink = sink;
    this.walks = instruments.map((instrument) => {
      const random = new Random(`${this.seed}:live:${instrument.code}`);
      return { instrument, walk: new PriceWalk(instrument, random, instrument.lastPrice), random, lastStep: undefined };
    });
  }

  start(instruments: FeedInstrument[], sink: TickSink) {
    this.attach(instruments, sink);
    this.timer = setInterval(() => this.step(this.clock.now().getTime()), this.intervalMs);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One round: every instrument open at `now` moves and ticks. */
  step(now: number): Tick[] {
    const minute = Math.floor(now / 60_000);
    const ticks: Tick[] = [];
    for (const entry of this.walks) {
      const { instrument } = entry;
      if (!isSessionOpenAtMinute(instrument.session, minute)) {
        entry.lastStep = undefined;
        continue;
      }
      // A frozen or slow clock still moves the walk one interval; a long pause moves it at most a minute.
      const elapsed = entry.lastStep === undefined ? this.intervalMs : now - entry.lastStep;
      entry.lastStep = now;
      const bid = entry.walk.step(Math.min(60_000, Math.max(this.intervalMs, elapsed)));
      const tick: Tick = {
        code: instrument.code,
        bid: bid.toFixed(instrument.precision),
        ask: (bid + Number(instrument.spread)).toFixed(instrument.precision),
        time: now,
        volume: 1 + Math.floor(entry.random.next() * 10),
      };
      ticks.push(tick);
      this.sink(tick);
    }
    return ticks;
  }

  *history(instrument: FeedInstrument, fromMs: number, toMs: number, stepMs: number, startPrice: number): Iterable<HistoryBar> {
    const random = new Random(`${this.seed}:history:${instrument.code}:${fromMs}:${stepMs}`);
    const walk = new PriceWalk(instrument, random, startPrice);
    for (let time = fromMs; time < toMs; time += stepMs) {
      // Session windows start and end on the hour, so a step of an hour or less is wholly open or closed.
      if (isSessionOpenAtMinute(instrument.session, Math.floor(time / 60_000))) yield walk.bar(time, stepMs);
    }
  }
}

/**
 * The test source: prices move only when a test says so. `tick` runs the same pipeline as the
 * simulated feed (quote table, klines, bus events) synchronously and returns the new quote.
 */
export class ManualFeed implements MarketDataSource {
  readonly kind = 'manual';
  private instruments = new Map<string, FeedInstrument>();
  private sink: TickSink | undefined;

  constructor(private readonly clock: Clock) {}

  start(instruments: FeedInstrument[], sink: TickSink) {
    this.instruments = new Map(instruments.map((instrument) => [instrument.code, instrument]));
    this.sink = sink;
  }

  stop() {
    this.sink = undefined;
  }

  /** Quotes `code` at `bid` (ask = bid + the instrument's spread) at the clock's time unless `time` is given. */
  tick(code: string, bid: string | number, options: { time?: number; volume?: number } = {}): Quote {
    const instrument = this.instruments.get(code);
    if (!instrument || !this.sink) throw new Error(`manual feed: ${code} is not a started instrument`);
    const price = roundPrice(dec(bid), instrument.precision);
    const quote = this.sink({
      code,
      bid: price.toFixed(instrument.precision),
      ask: price.plus(instrument.spread).toFixed(instrument.precision),
      time: options.time ?? this.clock.now().getTime(),
      volume: options.volume ?? 1,
    });
    if (!quote) throw new Error(`manual feed: ${code} was not quoted`);
    return quote;
  }
}
