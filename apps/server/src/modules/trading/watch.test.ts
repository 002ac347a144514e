import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LevelBook, ownLevel } from './levels.js';
import { PositionWatch, type WatchedOrder } from './watch.js';

/** A level book entry for these tests: an id at a level. */
interface At {
  level: number;
  id: number;
}
const at = (level: number, id: number): At => ({ level, id });
const byId = (a: At, b: At) => a.id - b.id;
const ids = (entries: At[]) => entries.map((entry) => entry.id);

describe('level book', () => {
  it('fires rising levels at or below the price and falling levels at or above it, nearest first', () => {
    const rise = new LevelBook<At>('rise', ownLevel, byId);
    rise.insert(at(1.2, 1));
    rise.insert(at(1.1, 2));
    rise.insert(at(1.3, 3));
    expect(rise.reachedBy(1.09)).toBe(false);
    expect(rise.takeReached(1.09)).toEqual([]);
    expect(ids(rise.takeReached(1.2))).toEqual([2, 1]);
    expect(rise.size).toBe(1);

    const fall = new LevelBook<At>('fall', ownLevel, byId);
    fall.insert(at(1.0, 1));
    fall.insert(at(1.05, 2));
    expect(fall.takeReached(1.06)).toEqual([]);
    expect(ids(fall.takeReached(1.0))).toEqual([2, 1]);
  });

  it('removes exactly the entry given, even among equal levels', () => {
    const book = new LevelBook<At>('rise', ownLevel, byId);
    for (const id of [5, 3, 9]) book.insert(at(2, id));
    expect(book.remove(at(2, 3))).toBe(true);
    expect(book.remove(at(2, 3))).toBe(false);
    expect(book.remove(at(2.5, 5))).toBe(false);
    expect(ids(book.entries())).toEqual([5, 9]);
  });

  it('agrees with a scan for any inserts, removals and prices', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'rise' | 'fall'>('rise', 'fall'),
        // Past one node of the tree (64 entries), so that splits and merges are exercised.
        fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.boolean()), { maxLength: 300, size: 'max' }),
        fc.integer({ min: 0, max: 51 }),
        fc.integer({ min: 0, max: 51 }),
        (crossing, operations, price, laterPrice) => {
          const book = new LevelBook<At>(crossing, ownLevel, byId);
          const model = new Map<number, number>();
          operations.forEach(([level, keep], id) => {
            book.insert(at(level, id));
            model.set(id, level);
            if (!keep) {
              book.remove(at(level, id));
              model.delete(id);
            }
          });
          const byNumber = (a: number, b: number) => a - b;
          const reached = (level: number) => (crossing === 'rise' ? price >= level : price <= level);
          const expected = [...model.entries()].filter(([, level]) => reached(level)).map(([id]) => id);
          expect(ids(book.takeReached(price)).sort(byNumber)).toEqual(expected.sort(byNumber));
          expect(book.size).toBe(model.size - expected.length);
          // What is left fires in level order on a later tick.
          for (const id of expected) model.delete(id);
          const sign = crossing === 'rise' ? 1 : -1;
          const later = [...model.entries()]
            .filter(([, level]) => (crossing === 'rise' ? laterPrice >= level : laterPrice <= level))
            .sort(([idA, a], [idB, b]) => sign * (a - b) || idA - idB)
            .map(([id]) => id);
          expect(book.reachedBy(laterPrice)).toBe(later.length > 0);
          expect(ids(book.takeReached(laterPrice))).toEqual(later);
        },
      ),
    );
  });
});

const order = (patch: Partial<WatchedOrder> & Pick<WatchedOrder, 'id'>): WatchedOrder => ({
  userId: 1,
  instrumentId: 7,
  side: 1,
  status: 1,
  lots: '1',
  contractSize: 100,
  margin: '100',
  openPrice: '10',
  targetPrice: null,
  fillDirection: null,
  takeProfit: null,
  stopLoss: null,
  ...patch,
});

describe('position watch', () => {
  it('fires buy TP on the bid, sell TP on the ask, and pending fills on their entry side', () => {
    const watch = new PositionWatch(50);
    watch.setAccount(1, '10000', [
      order({ id: 1, takeProfit: 11, stopLoss: 9 }),
      order({ id: 2, side: 2, takeProfit: 9, stopLoss: 11 }),
      order({ id: 3, status: 0, openPrice: null, targetPrice: 9.5, fillDirection: 'fall' }),
      order({ id: 4, side: 2, status: 0, openPrice: null, targetPrice: 10.5, fillDirection: 'rise' }),
    ]);
    expect(watch.onQuote(7, 10, 10.1, 1, true).triggers).toEqual([]);
    // bid 11 reaches the buy TP; ask 11.1 reaches the sell SL; the sell pending fills at the bid 11 ≥ 10.5.
    const up = watch.onQuote(7, 11, 11.1, 1, true).triggers;
    expect(up.map((t) => [t.orderId, t.kind]).sort()).toEqual([
      [1, 'take_profit'],
      [2, 'stop_loss'],
      [4, 'fill'],
    ]);
    // Taken levels do not fire twice; the buy pending waits for the ask to fall to 9.5.
    expect(
      watch
        .onQuote(7, 9.3, 9.45, 1, true)
        .triggers.map((t) => [t.orderId, t.kind])
        .sort(),
    ).toEqual([[3, 'fill']]);
  });

  it('does nothing but mark prices while the market is closed', () => {
    const watch = new PositionWatch(50);
    watch.setAccount(1, '10000', [order({ id: 1, takeProfit: 11 })]);
    expect(watch.onQuote(7, 12, 12.1, 1, false)).toEqual({ triggers: [], stopOutCandidates: [] });
    expect(watch.screened(1)?.floating).toBeCloseTo(200);
    expect(watch.onQuote(7, 12, 12.1, 1, true).triggers).toHaveLength(1);
  });

  it('screens an account for stop-out from its exposure across instruments', () => {
    const watch = new PositionWatch(50);
    // Balance 300, used margin 200; stop-out when equity ≤ 100, i.e. a loss of 200.
    watch.setAccount(1, '300', [order({ id: 1 }), order({ id: 2, instrumentId: 8, side: 2, openPrice: '5' })]);
    watch.onQuote(8, 5, 5, 1, true);
    expect(watch.onQuote(7, 9, 9, 1, true).stopOutCandidates).toEqual([]); // −100
    expect(watch.onQuote(8, 6, 6, 1, true).stopOutCandidates).toEqual([1]); // −100 −100
    watch.setBalance(1, '1000');
    expect(watch.onQuote(8, 6, 6, 1, true).stopOutCandidates).toEqual([]);
    watch.removeAccount(1);
    expect(watch.onQuote(7, 1, 1, 1, true)).toEqual({ triggers: [], stopOutCandidates: [] });
    expect(watch.accountCount).toBe(0);
  });

  it('adding orders to an account watches exactly what loading them all at once would', () => {
    const anOrder = fc.record({
      instrumentId: fc.constantFrom(7, 8),
      side: fc.constantFrom<1 | 2>(1, 2),
      pending: fc.boolean(),
      lots: fc.integer({ min: 1, max: 50 }),
      price: fc.integer({ min: 50, max: 150 }),
      takeProfit: fc.option(fc.integer({ min: 50, max: 150 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(anOrder, { minLength: 1, maxLength: 12 }), fc.nat(), fc.boolean(), (specs, cut, quotedFirst) => {
        const orders = specs.map((spec, index) =>
          order({
            id: index + 1,
            instrumentId: spec.instrumentId,
            side: spec.side,
            status: spec.pending ? 0 : 1,
            lots: String(spec.lots / 10),
            margin: String(spec.lots),
            openPrice: spec.pending ? null : String(spec.price / 10),
            targetPrice: spec.pending ? spec.price / 10 : null,
            fillDirection: spec.pending ? 'fall' : null,
            takeProfit: spec.pending || spec.takeProfit === null ? null : spec.takeProfit / 10,
          }),
        );
        const split = cut % (orders.length + 1);
        const whole = new PositionWatch(50);
        const grown = new PositionWatch(50);
        const quote = (watch: PositionWatch) => {
          watch.onQuote(7, 10, 10.2, 1, false);
          watch.onQuote(8, 9, 9.1, 1, false);
        };
        if (quotedFirst) [whole, grown].forEach(quote);
        grown.setAccount(1, '500', orders.slice(0, split));
        grown.addOrders(1, '400', orders.slice(split));
        whole.setAccount(1, '400', orders);
        if (!quotedFirst) [whole, grown].forEach(quote);
        const figures = { whole: whole.screened(1)!, grown: grown.screened(1)! };
        expect(figures.grown.balance).toBe(figures.whole.balance);
        expect(figures.grown.usedMargin).toBeCloseTo(figures.whole.usedMargin, 9);
        expect(figures.grown.floating).toBeCloseTo(figures.whole.floating, 9);
        for (const instrumentId of [7, 8]) {
          const levels = (watch: PositionWatch) =>
            Object.values(watch.levels(instrumentId) ?? {}).map((entries) =>
              entries.map((entry) => [entry.level, entry.item.orderId, entry.item.kind]).sort(),
            );
          expect(levels(grown)).toEqual(levels(whole));
          expect(grown.holdersOf(instrumentId)).toEqual(whole.holdersOf(instrumentId));
        }
        expect(grown.onQuote(7, 5, 5.1, 1, true)).toEqual(whole.onQuote(7, 5, 5.1, 1, true));

        // Closing some of them is the same as loading the rest.
        const shrunk = new PositionWatch(50);
        const rest = new PositionWatch(50);
        [shrunk, rest].forEach(quote);
        shrunk.setAccount(1, '500', orders);
        shrunk.removeOrders(
          1,
          orders.slice(0, split).map((o) => o.id),
          '450',
        );
        rest.setAccount(1, '450', orders.slice(split));
        expect(shrunk.hasAccount(1)).toBe(rest.hasAccount(1));
        if (rest.hasAccount(1)) {
          const after = { shrunk: shrunk.screened(1)!, rest: rest.screened(1)! };
          expect(after.shrunk.balance).toBe(after.rest.balance);
          expect(after.shrunk.usedMargin).toBeCloseTo(after.rest.usedMargin, 9);
          expect(after.shrunk.floating).toBeCloseTo(after.rest.floating, 9);
        }
        for (const instrumentId of [7, 8]) {
          const levels = (watch: PositionWatch) =>
            Object.values(watch.levels(instrumentId) ?? {}).map((entries) =>
              entries.map((entry) => [entry.level, entry.item.orderId, entry.item.kind]).sort(),
            );
          expect(levels(shrunk)).toEqual(levels(rest));
          expect(shrunk.holdersOf(instrumentId)).toEqual(rest.holdersOf(instrumentId));
        }
        expect(shrunk.onQuote(7, 5, 5.1, 1, true)).toEqual(rest.onQuote(7, 5, 5.1, 1, true));
      }),
    );
  });

  it('flags for stop-out (and finds in margin call) every account a full scan finds at or below the level, looking only where a band was left, as positions open and close', () => {
    const INSTRUMENTS = [7, 8, 9];
    const position = fc.record({
      instrumentId: fc.constantFrom(...INSTRUMENTS),
      side: fc.constantFrom<1 | 2>(1, 2),
      lots: fc.integer({ min: 1, max: 30 }),
      open: fc.integer({ min: 950, max: 1050 }),
    });
    const account = fc.record({
      balance: fc.integer({ min: -300, max: 400 }),
      positions: fc.array(position, { minLength: 1, maxLength: 4 }),
    });
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('tick' as const),
        instrumentId: fc.constantFrom(...INSTRUMENTS),
        // Small moves, as markets make: an account drifts towards its level within bands a wrong rule
        // would draw too wide.
        move: fc.oneof(fc.constant(0), fc.integer({ min: -40, max: 40 })),
        spread: fc.integer({ min: 0, max: 3 }),
        // Instrument 9 is quoted in another currency: its USD rate moves with its ticks.
        rateMove: fc.integer({ min: -8, max: 8 }),
        tradable: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('balance' as const),
        userId: fc.integer({ min: 1, max: 5 }),
        balance: fc.integer({ min: 0, max: 400 }),
      }),
      fc.record({
        kind: fc.constant('open' as const),
        userId: fc.integer({ min: 1, max: 5 }),
        position,
        balance: fc.integer({ min: -100, max: 400 }),
      }),
      fc.record({
        kind: fc.constant('close' as const),
        userId: fc.integer({ min: 1, max: 5 }),
        pick: fc.nat(),
        balance: fc.integer({ min: -100, max: 400 }),
      }),
      fc.record({
        kind: fc.constant('level' as const),
        level: fc.constantFrom(20, 50, 100),
        callLevel: fc.constantFrom(50, 80, 100, 150),
      }),
    );
    // Up to 120 steps indeed (by default fast-check makes at most 10): a missed rate band takes a few.
    const scenario = fc.array(step, { maxLength: 120, size: 'max' });
    fc.assert(
      fc.property(fc.array(account, { minLength: 1, maxLength: 5 }), scenario, (accounts, steps) => {
        const watch = new PositionWatch(50, 100);
        let level = 50;
        let callLevel = 100;
        const quotes = new Map<number, { bid: number; ask: number; rate: number }>();
        /** In hundredths: prices walk from 10.00, the rate from 1.00. */
        const bids = new Map<number, number>();
        const rates = new Map<number, number>();
        const balances = accounts.map((spec) => spec.balance);
        let id = 0;
        /** Each account's open positions with their order ids, as they open and close. */
        const held = accounts.map((spec) => spec.positions.map((position) => ({ ...position, id: ++id })));
        const orderOf = (userId: number, position: (typeof held)[number][number]) =>
          order({
            id: position.id,
            userId,
            instrumentId: position.instrumentId,
            side: position.side,
            lots: String(position.lots / 10),
            contractSize: 100,
            margin: String(position.lots * 4),
            openPrice: String(position.open / 100),
          });
        held.forEach((positions, index) =>
          watch.setAccount(
            index + 1,
            String(balances[index]),
            positions.map((position) => orderOf(index + 1, position)),
          ),
        );
        /** Equity over a level's threshold (the stop-out level's unless told), position by position (positive: above it). */
        const room = (index: number, at = level) => {
          let equity = balances[index]!;
          let used = 0;
          for (const position of held[index]!) {
            used += position.lots * 4;
            const quote = quotes.get(position.instrumentId);
            if (!quote) continue;
            const quantity = (position.lots / 10) * 100;
            const open = position.open / 100;
            equity += (position.side === 1 ? quantity * (quote.bid - open) : quantity * (open - quote.ask)) * quote.rate;
          }
          // An account without positions is not watched: nothing to stop out.
          if (held[index]!.length === 0) return Number.POSITIVE_INFINITY;
          return equity - (at * used) / 100;
        };
        const inMarginCallAsScanned = () =>
          accounts.forEach((_, index) => {
            const margin = room(index, callLevel);
            if (margin < -1e-6) expect(watch.marginCallCandidates()).toContain(index + 1);
            if (margin > 1e-6) expect(watch.marginCallCandidates()).not.toContain(index + 1);
          });
        /** Every band book holds each holder with an edge in its column once, in the order of their levels. */
        const bandsConsistent = () =>
          INSTRUMENTS.forEach((instrumentId) => {
            for (const { crossing, entries, withEdge } of watch.bandsOf(instrumentId) ?? []) {
              expect(entries.map((entry) => entry.userId).sort()).toEqual([...withEdge].sort());
              const levels = entries.map((entry) => entry.level);
              expect(levels).toEqual([...levels].sort((a, b) => (crossing === 'rise' ? a - b : b - a)));
            }
          });
        inMarginCallAsScanned();
        bandsConsistent();
        for (const change of steps) {
          bandsConsistent();
          if (change.kind === 'balance') {
            if (change.userId > accounts.length) continue;
            balances[change.userId - 1] = change.balance;
            watch.setBalance(change.userId, String(change.balance));
            inMarginCallAsScanned();
            continue;
          }
          if (change.kind === 'open' || change.kind === 'close') {
            const index = change.userId - 1;
            if (index >= accounts.length) continue;
            balances[index] = change.balance;
            if (change.kind === 'open') {
              const position = { ...change.position, id: ++id };
              held[index]!.push(position);
              watch.addOrders(change.userId, String(change.balance), [orderOf(change.userId, position)]);
            } else {
              if (held[index]!.length === 0) continue;
              const [closed] = held[index]!.splice(change.pick % held[index]!.length, 1);
              watch.removeOrders(change.userId, [closed!.id], String(change.balance));
            }
            inMarginCallAsScanned();
            continue;
          }
          if (change.kind === 'level') {
            level = change.level;
            callLevel = change.callLevel;
            watch.setLevels(level, callLevel);
            inMarginCallAsScanned();
            continue;
          }
          const bid = (bids.get(change.instrumentId) ?? 1000) + change.move;
          const rate = change.instrumentId === 9 ? Math.max(20, (rates.get(change.instrumentId) ?? 100) + change.rateMove) : 100;
          bids.set(change.instrumentId, bid);
          rates.set(change.instrumentId, rate);
          const quote = { bid: bid / 100, ask: (bid + change.spread) / 100, rate: rate / 100 };
          quotes.set(change.instrumentId, quote);
          const flagged = watch.onQuote(change.instrumentId, quote.bid, quote.ask, quote.rate, change.tradable).stopOutCandidates;
          held.forEach((positions, index) => {
            if (!positions.some((position) => position.instrumentId === change.instrumentId)) return;
            const margin = room(index);
            // Away from the boundary, where the two sums' rounding cannot disagree, the answers are the same.
            if (change.tradable && margin < -1e-6) expect(flagged).toContain(index + 1);
            if (!change.tradable || margin > 1e-6) expect(flagged).not.toContain(index + 1);
          });
          inMarginCallAsScanned();
        }
        bandsConsistent();
      }),
      { numRuns: 600 },
    );
  });

  it('draws USD-rate bands once an instrument is quoted off USD, for its holders from before and after', () => {
    const watch = new PositionWatch(50);
    const holding = (userId: number) => order({ id: userId, userId, instrumentId: 9 });
    watch.setAccount(1, '150', [holding(1)]);
    // Quoted in USD: a loss of 50 against a room of 50 above the level, and no rate edge.
    expect(watch.onQuote(9, 9.5, 9.5, 1, true).stopOutCandidates).toEqual([]);
    expect(watch.bandsOf(9)?.find((band) => band.column === 'rateLow')?.withEdge).toEqual([]);
    expect(watch.onQuote(9, 9.5, 9.5, 1.5, true).stopOutCandidates).toEqual([]);
    watch.setAccount(2, '150', [holding(2)]);
    for (const column of ['rateLow', 'rateHigh'])
      expect(
        watch
          .bandsOf(9)
          ?.find((band) => band.column === column)
          ?.entries.map((entry) => entry.userId),
      ).toEqual([1, 2]);
    // Only the rate moves: the prices stay inside every band while the loss in USD passes the level.
    expect(watch.onQuote(9, 9.5, 9.5, 1.8, true).stopOutCandidates).toEqual([]);
    expect(watch.onQuote(9, 9.5, 9.5, 2.1, true).stopOutCandidates.sort()).toEqual([1, 2]);
  });

  it('replacing an account removes its old levels', () => {
    const watch = new PositionWatch(50);
    watch.setAccount(1, '1000', [order({ id: 1, takeProfit: 11 })]);
    watch.setAccount(1, '1000', [order({ id: 1, takeProfit: 12 })]);
    expect(watch.levels(7)?.bidRise.map((e) => e.level)).toEqual([12]);
    watch.setAccount(1, '1000', []);
    expect(watch.levels(7)?.bidRise).toEqual([]);
  });
});
