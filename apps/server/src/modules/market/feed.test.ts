import { isSessionOpen, PERIOD_SECONDS, type KlinePeriod } from '@pipwise/domain';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { INSTRUMENT_SEEDS } from './catalog.js';
import { SimulatedFeed, type FeedInstrument, type Tick } from './feed.js';
import { planHistory } from './history.js';
import { aggregate, BarSet, type Bar } from './klines.js';

const feedInstruments: FeedInstrument[] = INSTRUMENT_SEEDS.map((seed) => ({
  code: seed.code,
  precision: seed.precision,
  spread: seed.spread,
  basePrice: Number(seed.basePrice),
  volatility: Number(seed.volatility),
  session: seed.session,
  lastPrice: Number(seed.basePrice),
}));

/** Tuesday 2026-11-17 12:00 UTC: every session is open. */
const TUESDAY_NOON = Date.UTC(2026, 10, 17, 12, 0, 0);
/** Saturday 2026-11-21 12:00 UTC: only crypto trades. */
const SATURDAY_NOON = Date.UTC(2026, 10, 21, 12, 0, 0);

function runFeed(seed: number, steps: number, start = TUESDAY_NOON): Tick[] {
  const feed = new SimulatedFeed(seed, new ManualClock(start));
  const ticks: Tick[] = [];
  feed.attach(feedInstruments, (tick) => {
    ticks.push(tick);
    return undefined;
  });
  for (let i = 0; i < steps; i++) feed.step(start + i * 400);
  return ticks;
}

describe('simulated feed', () => {
  it('is reproducible from its seed and differs with another seed', () => {
    const first = runFeed(20261121, 200);
    const again = runFeed(20261121, 200);
    const other = runFeed(7, 200);
    expect(first).toHaveLength(200 * feedInstruments.length);
    expect(again).toEqual(first);
    expect(other.map((tick) => tick.bid)).not.toEqual(first.map((tick) => tick.bid));
  });

  it('quotes every open instrument on every step with ask = bid + spread at the instrument precision', () => {
    const ticks = runFeed(1, 5);
    for (const tick of ticks) {
      const instrument = feedInstruments.find((i) => i.code === tick.code)!;
      const decimals = tick.bid.split('.')[1]?.length ?? 0;
      expect(decimals).toBe(instrument.precision);
      expect(Number(tick.ask) - Number(tick.bid)).toBeCloseTo(Number(instrument.spread), instrument.precision);
      expect(Number(tick.bid)).toBeGreaterThan(0);
    }
  });

  it('moves prices plausibly: after an hour of ticks each stays within 10 % of where it started', () => {
    const ticks = runFeed(3, 9000);
    for (const instrument of feedInstruments) {
      const last = ticks.filter((tick) => tick.code === instrument.code).at(-1)!;
      expect(Math.abs(Number(last.bid) / instrument.basePrice - 1)).toBeLessThan(0.1);
    }
  });

  it('ticks only crypto on a Saturday', () => {
    const ticks = runFeed(1, 3, SATURDAY_NOON);
    const codes = new Set(ticks.map((tick) => tick.code));
    expect([...codes].sort()).toEqual(
      INSTRUMENT_SEEDS.filter((s) => s.category === 'crypto')
        .map((s) => s.code)
        .sort(),
    );
  });
});

describe('trading sessions', () => {
  const at = (iso: string) => Date.parse(iso);

  it('closes forex over the weekend (Friday 22:00 to Sunday 22:00 UTC) and opens it on a Tuesday', () => {
    expect(isSessionOpen('forex', at('2026-11-21T12:00:00Z'))).toBe(false); // Saturday
    expect(isSessionOpen('forex', at('2026-11-17T03:00:00Z'))).toBe(true); // Tuesday
    expect(isSessionOpen('forex', at('2026-11-20T21:59:00Z'))).toBe(true);
    expect(isSessionOpen('forex', at('2026-11-20T22:00:00Z'))).toBe(false);
    expect(isSessionOpen('forex', at('2026-11-22T21:59:00Z'))).toBe(false);
    expect(isSessionOpen('forex', at('2026-11-22T22:00:00Z'))).toBe(true);
  });

  it('keeps crypto open always and gives metals, energy and indices their daily break', () => {
    expect(isSessionOpen('crypto', at('2026-11-21T12:00:00Z'))).toBe(true);
    expect(isSessionOpen('cfd', at('2026-11-17T22:30:00Z'))).toBe(false);
    expect(isSessionOpen('cfd', at('2026-11-17T23:00:00Z'))).toBe(true);
    expect(isSessionOpen('cfd', at('2026-11-22T22:30:00Z'))).toBe(false); // Sunday before the open
    expect(isSessionOpen('europe', at('2026-11-17T06:59:00Z'))).toBe(false);
    expect(isSessionOpen('europe', at('2026-11-17T07:00:00Z'))).toBe(true);
    expect(isSessionOpen('europe', at('2026-11-17T21:00:00Z'))).toBe(false);
  });
});

describe('bars', () => {
  function history(code: string, from: number, to: number): Map<KlinePeriod, Bar[]> {
    const instrument = feedInstruments.find((i) => i.code === code)!;
    const feed = new SimulatedFeed(42, new ManualClock(to));
    const closed = new Map<KlinePeriod, Bar[]>();
    const bars = new BarSet((period, bar) => closed.set(period, [...(closed.get(period) ?? []), bar]));
    let price = instrument.basePrice;
    for (const stretch of planHistory(from, to)) {
      for (const bar of feed.history(instrument, stretch.from, stretch.to, PERIOD_SECONDS[stretch.step] * 1000, price)) {
        bars.add(bar.time, bar.open, bar.high, bar.low, bar.close, bar.volume, stretch.step);
        price = bar.close;
      }
    }
    return closed;
  }

  it('every generated and aggregated bar has low ≤ open, close ≤ high', () => {
    const closed = history('XAUUSD', TUESDAY_NOON - 60 * 86_400_000, TUESDAY_NOON);
    let checked = 0;
    for (const list of closed.values()) {
      for (const bar of list) {
        expect(bar.low).toBeLessThanOrEqual(Math.min(bar.open, bar.close));
        expect(bar.high).toBeGreaterThanOrEqual(Math.max(bar.open, bar.close));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });

  it('a 5min bar is the aggregate of its five 1min bars, and bars start on UTC period boundaries', () => {
    const closed = history('EURUSD', TUESDAY_NOON - 86_400_000, TUESDAY_NOON);
    const minutes = closed.get('1min')!;
    const fives = closed.get('5min')!;
    const rebuilt = new Map(aggregate(minutes, '5min').map((bar) => [bar.time, bar]));
    const covered = fives.filter((bar) => bar.time >= minutes[0]!.time);
    expect(covered.length).toBeGreaterThan(200);
    for (const bar of covered) {
      expect(bar.time % 300).toBe(0);
      const parts = minutes.filter((m) => m.time >= bar.time && m.time < bar.time + 300);
      expect(parts).toHaveLength(5);
      expect(rebuilt.get(bar.time)).toEqual({ ...bar, volume: expect.closeTo(bar.volume, 6) as number });
    }
    for (const bar of closed.get('1day')!) expect(bar.time % 86_400).toBe(0);
  });

  it('plans history so each stretch starts on a boundary of the next longer period and ends where the next begins', () => {
    const now = TUESDAY_NOON + 17 * 60_000;
    const plan = planHistory(TUESDAY_NOON - 760 * 86_400_000 - 12 * 3600_000, now);
    expect(plan.at(-1)).toMatchObject({ to: now, step: '1min' });
    for (const [index, stretch] of plan.entries()) {
      const next = plan[index + 1];
      if (next) expect(next.from).toBe(stretch.to);
      expect(stretch.to - stretch.from).toBeGreaterThan(0);
    }
    expect(plan.find((s) => s.step === '1min')!.from % (300 * 1000)).toBe(0);
    expect(plan.find((s) => s.step === '5min')!.from % (900 * 1000)).toBe(0);
    expect(plan.find((s) => s.step === '60min')!.from % 86_400_000).toBe(0);
  });

  it('resumes mid-stretch minute by minute up to the next full step of that stretch', () => {
    const now = TUESDAY_NOON;
    const resumeAt = now - 20 * 86_400_000 + 7 * 60_000;
    const plan = planHistory(resumeAt, now);
    expect(plan[0]).toMatchObject({ from: resumeAt, step: '1min' });
    expect(plan[1]!.from).toBe(plan[0]!.to);
    expect(plan[1]!.from % (PERIOD_SECONDS[plan[1]!.step] * 1000)).toBe(0);
  });
});
