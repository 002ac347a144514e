import type { Quote } from './api.js';

const WINDOW_MINUTES = 1440;

/**
 * One instrument's quote with its rolling 24-hour statistics, kept in one-minute buckets (a ring of
 * 1,440). "Open" is the price 24 hours ago: the close of the newest bucket that has left the window,
 * so after a weekend the change is measured against Friday's close, as traders expect.
 */
export class QuoteState {
  private readonly bucketMinute = new Float64Array(WINDOW_MINUTES).fill(-Infinity);
  private readonly bucketOpen = new Float64Array(WINDOW_MINUTES);
  private readonly bucketHigh = new Float64Array(WINDOW_MINUTES);
  private readonly bucketLow = new Float64Array(WINDOW_MINUTES);
  private readonly bucketClose = new Float64Array(WINDOW_MINUTES);
  private readonly bucketVolume = new Float64Array(WINDOW_MINUTES);
  /** Close of the newest bucket overwritten by a later minute, and its minute. */
  private evictedClose: number | undefined;
  private evictedMinute = -Infinity;
  /** The price the quote started from, the reference while nothing older than 24 hours is known. */
  private baseline: number | undefined;
  bid = '0';
  ask = '0';
  time = 0;
  /** Whether a tick set the price (this process's feed, or the leader's followed), not a restored close. */
  ticked = false;
  /** Bumped by every change, so a snapshot is computed once per change and minute, not per reader. */
  private version = 0;
  private memo: { version: number; minute: number; marketOpen: boolean; quote: Readonly<Quote> } | null = null;

  constructor(
    readonly instrumentId: number,
    readonly code: string,
    private readonly precision: number,
  ) {}

  /** Folds a price (or a one-minute bar, when loading history) into its minute bucket. */
  record(minute: number, open: number, high: number, low: number, close: number, volume: number) {
    this.version += 1;
    const index = ((minute % WINDOW_MINUTES) + WINDOW_MINUTES) % WINDOW_MINUTES;
    const existing = this.bucketMinute[index]!;
    if (existing === minute) {
      if (high > this.bucketHigh[index]!) this.bucketHigh[index] = high;
      if (low < this.bucketLow[index]!) this.bucketLow[index] = low;
      this.bucketClose[index] = close;
      this.bucketVolume[index]! += volume;
      return;
    }
    if (existing > minute) return;
    if (existing > this.evictedMinute) {
      this.evictedMinute = existing;
      this.evictedClose = this.bucketClose[index];
    }
    this.bucketMinute[index] = minute;
    this.bucketOpen[index] = open;
    this.bucketHigh[index] = high;
    this.bucketLow[index] = low;
    this.bucketClose[index] = close;
    this.bucketVolume[index] = volume;
  }

  /** Forgets the 24-hour window, before it is read again from the stored bars. */
  forgetWindow() {
    this.bucketMinute.fill(-Infinity);
    this.evictedClose = undefined;
    this.evictedMinute = -Infinity;
    this.version += 1;
  }

  /** Sets the starting quote (last stored close or base price) without counting it as trading. */
  start(bid: string, ask: string, time: number) {
    this.bid = bid;
    this.ask = ask;
    this.time = time;
    this.baseline = Number(bid);
    this.ticked = false;
    this.version += 1;
  }

  update(bid: string, ask: string, time: number, volume: number) {
    const price = Number(bid);
    this.bid = bid;
    this.ask = ask;
    this.time = time;
    this.ticked = true;
    this.record(Math.floor(time / 60_000), price, price, price, price, volume);
  }

  /**
   * The quote at `now` (the 24-hour window ends at the newer of `now` and the last tick). Frozen: the
   * same object serves every reader until the quote or the minute changes.
   */
  snapshot(now: number, marketOpen: boolean): Readonly<Quote> {
    const lastMinute = Math.floor(Math.max(now, this.time) / 60_000);
    const memo = this.memo;
    if (memo && memo.version === this.version && memo.minute === lastMinute && memo.marketOpen === marketOpen) {
      return memo.quote;
    }
    const windowStart = lastMinute - WINDOW_MINUTES;
    let anchorMinute = this.evictedMinute;
    let anchor = this.evictedClose;
    let firstMinute = Infinity;
    let firstOpen: number | undefined;
    let high = -Infinity;
    let low = Infinity;
    let volume = 0;
    for (let i = 0; i < WINDOW_MINUTES; i++) {
      const minute = this.bucketMinute[i]!;
      if (minute === -Infinity) continue;
      if (minute <= windowStart) {
        if (minute > anchorMinute) {
          anchorMinute = minute;
          anchor = this.bucketClose[i];
        }
        continue;
      }
      if (minute < firstMinute) {
        firstMinute = minute;
        firstOpen = this.bucketOpen[i];
      }
      if (this.bucketHigh[i]! > high) high = this.bucketHigh[i]!;
      if (this.bucketLow[i]! < low) low = this.bucketLow[i]!;
      volume += this.bucketVolume[i]!;
    }
    const last = Number(this.bid);
    const open = anchor ?? this.baseline ?? firstOpen ?? last;
    if (high === -Infinity) high = last;
    if (low === Infinity) low = last;
    const p = this.precision;
    const quote = Object.freeze({
      instrumentId: this.instrumentId,
      code: this.code,
      bid: this.bid,
      ask: this.ask,
      open: open.toFixed(p),
      high: Math.max(high, open).toFixed(p),
      low: Math.min(low, open).toFixed(p),
      changePct: open > 0 ? (((last - open) / open) * 100).toFixed(2) : '0.00',
      volume: volume.toFixed(2),
      time: this.time,
      marketOpen,
    });
    this.memo = { version: this.version, minute: lastMinute, marketOpen, quote };
    return quote;
  }
}
