import { OrderSide, OrderStatus, type FillDirection, type OrderSideValue } from '@pipwise/domain';
import { AccountSlots, BAND_COLUMNS, ExposureTable, type BandColumn } from './exposure.js';
import { LevelBook } from './levels.js';
import { NO_SLOT, OrderColumns } from './order-columns.js';

/**
 * The risk engine's in-memory picture of every open order and of the accounts that hold them — a pure
 * data structure (no I/O, no clock) so it can be tested and benchmarked on its own.
 *
 * - TP, SL and pending targets sit in sorted level books per instrument and price side, so a tick
 *   that triggers nothing costs a look at the front of four books.
 * - Stop-out screening does not walk the accounts on every tick. Each account is evaluated (its equity
 *   from aggregated exposure per instrument: Σ lots × contract and Σ lots × contract × entry per side)
 *   only when something about it changed or a price left its band: its room above the stop-out level
 *   is shared among the instruments it holds, and each gets a band of bid, ask and USD rate within
 *   which it cannot use up its share. The bands sit in level books like the triggers, so a quiet tick
 *   looks at the fronts of a few books whatever the number of accounts; an account whose prices all
 *   stay inside their bands cannot have reached its stop-out level, and one at or below it is looked
 *   at on every tick of its instruments.
 * - The orders themselves are columns of typed arrays (order-columns.ts), and a TP, SL or pending target
 *   in a book is a number (the order's slot and the level's kind), not an object: a million orders fit
 *   in a few hundred megabytes.
 *
 * Numbers here are JS floats used to *select* candidates; every action re-checks its rule in Decimal
 * inside a transaction before money moves.
 */
export interface WatchedOrder {
  id: number;
  userId: number;
  instrumentId: number;
  side: OrderSideValue;
  status: typeof OrderStatus.pending | typeof OrderStatus.holding;
  /** Exact text: the pushes' figures are Decimal. */
  lots: string;
  margin: string;
  openPrice: string | null;
  contractSize: number;
  /** Levels as numbers: they only select candidates (see levels.ts), and a number costs no string. */
  targetPrice: number | null;
  fillDirection: FillDirection | null;
  takeProfit: number | null;
  stopLoss: number | null;
}

export type TriggerKind = 'take_profit' | 'stop_loss' | 'fill';

export interface Trigger {
  kind: TriggerKind;
  orderId: number;
  userId: number;
}

export interface TickOutcome {
  triggers: Trigger[];
  /** Accounts whose screened margin level is at or below the stop-out level. */
  stopOutCandidates: number[];
}

/** A TP, SL or pending target in a book: the order's slot × 4 + the level's kind (its index here). */
type TriggerKey = number;
const KINDS: TriggerKind[] = ['take_profit', 'stop_loss', 'fill'];
const keyOf = (slot: number, kind: number): TriggerKey => slot * 4 + kind;
const NOTHING_TOUCHED: ReadonlySet<number> = new Set();

interface Account {
  userId: number;
  slot: number;
  balanceText: string;
  /** Instruments the account holds positions in (a row in each one's exposure table). */
  instruments: number[];
  /** The first of its orders' slots (a list through the columns), and how many there are. */
  head: number;
  orderCount: number;
  /** Screened at or below the stop-out level when last evaluated. */
  underwater: boolean;
}

interface InstrumentState {
  bidRise: LevelBook<TriggerKey>;
  bidFall: LevelBook<TriggerKey>;
  askRise: LevelBook<TriggerKey>;
  askFall: LevelBook<TriggerKey>;
  holders: ExposureTable;
  /**
   * Stop-out bands of the holders, one book per edge, by the exposure table's column: an entry is the
   * holder's user id, its level that column of the holder's row (set before it goes in, cleared after
   * it comes out), so that an edge costs no object.
   */
  bands: Record<BandColumn, LevelBook<number>>;
  /** Holders screened at or below the higher of the margin-call and stop-out levels: looked at on every tick. */
  nearLevel: Set<number>;
  bid: number;
  ask: number;
  usdRate: number;
  quoted: boolean;
}

const compareUsers = (a: number, b: number) => a - b;

/** Screening tolerance: equity within this share of the threshold counts as a candidate. */
const RELATIVE_TOLERANCE = 1e-9;
/** Of an account's room, the part the bands hand out: the rest absorbs the floats' rounding. */
const ROOM_SHARED = 1 - 1e-6;
/** The widest USD-rate band, as a share of the rate (the rate's half of a holding's room may allow more). */
const MAX_RATE_SHARE = 0.5;

export class PositionWatch {
  private readonly instruments = new Map<number, InstrumentState>();
  private readonly accounts = new Map<number, Account>();
  private readonly figures = new AccountSlots();
  private readonly orders = new OrderColumns();
  private stopOutLevel: number;
  /** Where an account is in margin call (a margin level in %, like the stop-out level); at most the stop-out level, none. */
  private marginCallLevel: number;
  /** Accounts screened at or below the margin-call level, kept as they are evaluated. */
  private readonly marginCallSet = new Set<number>();
  private readonly levelOf = (key: TriggerKey) => {
    const slot = key >> 2;
    const kind = key & 3;
    return (kind === 0 ? this.orders.takeProfit : kind === 1 ? this.orders.stopLoss : this.orders.targetPrice)[slot]!;
  };
  /** Same-level triggers fire by order id, a position's TP before its SL. */
  private readonly compareTriggers = (a: TriggerKey, b: TriggerKey) =>
    this.orders.id[a >> 2]! - this.orders.id[b >> 2]! || (a & 3) - (b & 3);

  constructor(stopOutLevel: number, marginCallLevel = stopOutLevel) {
    this.stopOutLevel = stopOutLevel;
    this.marginCallLevel = marginCallLevel;
  }

  /** New levels move every account's room: each is evaluated again (only when one changed). */
  setLevels(stopOutLevel: number, marginCallLevel = this.marginCallLevel) {
    if (stopOutLevel === this.stopOutLevel && marginCallLevel === this.marginCallLevel) return;
    this.stopOutLevel = stopOutLevel;
    this.marginCallLevel = marginCallLevel;
    for (const account of this.accounts.values()) this.evaluate(account);
  }

  /**
   * Accounts whose screened margin level is at or below the margin-call level: kept up to date as
   * accounts are evaluated (their bands are drawn to that level too), so finding them costs nothing
   * per account watched. Floats: candidates for an exact measure.
   */
  marginCallCandidates(): ReadonlySet<number> {
    return this.marginCallSet;
  }

  get accountCount() {
    return this.accounts.size;
  }

  get orderCount() {
    return this.orders.size;
  }

  /** Every order of the book, for tests. */
  levels(instrumentId: number) {
    const state = this.instruments.get(instrumentId);
    if (!state) return null;
    const listed = (book: LevelBook<TriggerKey>) =>
      book.entries().map((key) => ({ level: this.levelOf(key), item: this.triggerOf(key) }));
    return {
      bidRise: listed(state.bidRise),
      bidFall: listed(state.bidFall),
      askRise: listed(state.askRise),
      askFall: listed(state.askFall),
    };
  }

  /**
   * For tests: each band book's holders in the book's order with the level their row holds, and the
   * holders whose row holds an edge of that column (each should be in the book exactly once).
   */
  bandsOf(instrumentId: number) {
    const state = this.instruments.get(instrumentId);
    if (!state) return null;
    const { holders } = state;
    return BAND_COLUMNS.map((column) => ({
      column,
      crossing: state.bands[column].crossing,
      entries: state.bands[column]
        .entries()
        .map((userId) => ({ userId, level: holders.edge(column, holders.rowFor(userId) ?? -1) })),
      withEdge: Array.from(holders.userIds.subarray(0, holders.count)).filter(
        (userId) => !Number.isNaN(holders.edge(column, holders.rowFor(userId)!)),
      ),
    }));
  }

  private instrument(id: number): InstrumentState {
    let state = this.instruments.get(id);
    if (!state) {
      const holders = new ExposureTable();
      const bandBook = (crossing: 'rise' | 'fall', column: BandColumn) =>
        new LevelBook<number>(crossing, (userId) => holders.band[column][holders.rowFor(userId)!]!, compareUsers);
      state = {
        bidRise: new LevelBook('rise', this.levelOf, this.compareTriggers),
        bidFall: new LevelBook('fall', this.levelOf, this.compareTriggers),
        askRise: new LevelBook('rise', this.levelOf, this.compareTriggers),
        askFall: new LevelBook('fall', this.levelOf, this.compareTriggers),
        holders,
        bands: {
          bidLow: bandBook('fall', 'bidLow'),
          askHigh: bandBook('rise', 'askHigh'),
          rateLow: bandBook('fall', 'rateLow'),
          rateHigh: bandBook('rise', 'rateHigh'),
        },
        nearLevel: new Set(),
        bid: 0,
        ask: 0,
        usdRate: 1,
        quoted: false,
      };
      this.instruments.set(id, state);
    }
    return state;
  }

  /** Replaces what is known about one account: its cash balance and all of its open orders. */
  setAccount(userId: number, balance: string, orders: WatchedOrder[]) {
    this.removeAccount(userId);
    if (orders.length === 0) return;
    const slot = this.figures.allocate();
    const account: Account = {
      userId,
      slot,
      balanceText: balance,
      instruments: [],
      head: NO_SLOT,
      orderCount: 0,
      underwater: false,
    };
    this.accounts.set(userId, account);
    this.figures.balance[slot] = Number(balance);
    const exposures = new Map<number, { buyQty: number; buyCost: number; sellQty: number; sellCost: number }>();
    for (const order of orders) {
      const position = this.addOrder(account, order);
      if (!position) continue;
      const exposure = exposures.get(order.instrumentId) ?? { buyQty: 0, buyCost: 0, sellQty: 0, sellCost: 0 };
      if (order.side === OrderSide.buy) {
        exposure.buyQty += position.quantity;
        exposure.buyCost += position.cost;
      } else {
        exposure.sellQty += position.quantity;
        exposure.sellCost += position.cost;
      }
      exposures.set(order.instrumentId, exposure);
    }
    for (const [instrumentId, exposure] of exposures) this.instrument(instrumentId).holders.add(userId, exposure);
    // Spread from the map, the array is exactly its length (pushed one by one, it kept room for 17).
    account.instruments = [...exposures.keys()];
    this.evaluate(account);
  }

  /**
   * New orders of an account and its balance after them, added to what is watched without rebuilding
   * the account: an order costs the same however many positions its account already holds.
   */
  addOrders(userId: number, balance: string, orders: WatchedOrder[]) {
    const account = this.accounts.get(userId);
    if (!account || orders.some((order) => this.orders.slotOfOrder(order.id) !== undefined)) {
      this.setAccount(userId, balance, [...this.ordersOf(userId), ...orders]);
      return;
    }
    this.figures.balance[account.slot] = Number(balance);
    account.balanceText = balance;
    const touched = new Set(orders.map((order) => order.instrumentId));
    for (const instrumentId of touched) this.clearBandOf(account, instrumentId);
    for (const order of orders) {
      const position = this.addOrder(account, order);
      if (!position) continue;
      const holders = this.instrument(order.instrumentId).holders;
      const buy = order.side === OrderSide.buy;
      let row = holders.rowFor(userId);
      if (row === undefined) {
        row = holders.add(userId, { buyQty: 0, buyCost: 0, sellQty: 0, sellCost: 0 });
        account.instruments.push(order.instrumentId);
      }
      (buy ? holders.buyQty : holders.sellQty)[row]! += position.quantity;
      (buy ? holders.buyCost : holders.sellCost)[row]! += position.cost;
    }
    if (!this.redrawTouched(account, touched)) this.evaluate(account);
  }

  /**
   * Orders of an account that left the book (closed, cancelled) and its cash balance after them,
   * applied without rebuilding the account: their levels, margin and exposure go, the instruments they
   * were in are summed again from the orders left, and the account is screened again.
   */
  removeOrders(userId: number, orderIds: number[], balance: string) {
    const account = this.accounts.get(userId);
    if (!account) return;
    const touched = new Set<number>();
    const { orders } = this;
    for (const id of orderIds) {
      const slot = orders.slotOfOrder(id);
      if (slot === undefined || orders.userId[slot] !== userId) continue;
      touched.add(orders.instrumentId[slot]!);
      this.dropOrder(account, slot);
    }
    if (account.orderCount === 0) {
      this.removeAccount(userId);
      return;
    }
    // Bands are drawn from the exposure rows: taken out before the rows change.
    for (const instrumentId of touched) this.clearBandOf(account, instrumentId);
    let usedMargin = 0;
    const sums = new Map<number, { buyQty: number; buyCost: number; sellQty: number; sellCost: number }>();
    for (const slot of orders.list(account.head)) {
      if (!orders.holding(slot)) continue;
      usedMargin += orders.margin[slot]!;
      const instrumentId = orders.instrumentId[slot]!;
      if (!touched.has(instrumentId)) continue;
      const sum = sums.get(instrumentId) ?? { buyQty: 0, buyCost: 0, sellQty: 0, sellCost: 0 };
      const quantity = orders.lotsValue(slot) * orders.contractSize[slot]!;
      if (orders.side[slot] === OrderSide.buy) {
        sum.buyQty += quantity;
        sum.buyCost += quantity * orders.openPrice[slot]!;
      } else {
        sum.sellQty += quantity;
        sum.sellCost += quantity * orders.openPrice[slot]!;
      }
      sums.set(instrumentId, sum);
    }
    // Summed again from what is left rather than subtracted, so that no float residue is carried.
    this.figures.usedMargin[account.slot] = usedMargin;
    for (const instrumentId of touched) {
      const holders = this.instrument(instrumentId).holders;
      const sum = sums.get(instrumentId);
      if (sum) holders.add(userId, sum);
      else if (holders.rowFor(userId) !== undefined) {
        holders.remove(userId);
        account.instruments = account.instruments.filter((id) => id !== instrumentId);
      }
    }
    this.figures.balance[account.slot] = Number(balance);
    account.balanceText = balance;
    if (!this.redrawTouched(account, touched)) this.evaluate(account);
  }

  /** A new cash balance (a deposit, a close) without a change of orders. */
  setBalance(userId: number, balance: string) {
    const account = this.accounts.get(userId);
    if (!account || account.balanceText === balance) return;
    this.figures.balance[account.slot] = Number(balance);
    account.balanceText = balance;
    if (!this.redrawTouched(account, NOTHING_TOUCHED)) this.evaluate(account);
  }

  /** The cash balance as last loaded (exact text), or null for an account without open orders. */
  balanceOf(userId: number): string | null {
    return this.accounts.get(userId)?.balanceText ?? null;
  }

  removeAccount(userId: number) {
    const account = this.accounts.get(userId);
    if (!account) return;
    while (account.head !== NO_SLOT) this.dropOrder(account, account.head);
    this.clearBands(account);
    this.markMarginCall(account, false);
    for (const instrumentId of account.instruments) this.instrument(instrumentId).holders.remove(userId);
    this.figures.release(account.slot);
    this.accounts.delete(userId);
  }

  hasAccount(userId: number) {
    return this.accounts.has(userId);
  }

  userIds() {
    return this.accounts.keys();
  }

  ordersOf(userId: number): WatchedOrder[] {
    const account = this.accounts.get(userId);
    if (!account) return [];
    return Array.from(this.orders.list(account.head), (slot) => this.orders.read(slot));
  }

  /** The books and trigger keys of the order in `slot`: a pending target, or a position's TP and SL. */
  private forEachLevel(slot: number, each: (book: LevelBook<TriggerKey>, key: TriggerKey) => void) {
    const { orders } = this;
    const state = this.instrument(orders.instrumentId[slot]!);
    const buy = orders.side[slot] === OrderSide.buy;
    if (orders.status[slot] === OrderStatus.pending) {
      const fill = orders.fillDirection(slot);
      if (Number.isNaN(orders.targetPrice[slot]!) || fill === null) return;
      // A buy fills at the ask, a sell at the bid.
      const rise = fill === 'rise';
      const book = buy ? (rise ? state.askRise : state.askFall) : rise ? state.bidRise : state.bidFall;
      each(book, keyOf(slot, 2));
      return;
    }
    // A buy closes at the bid (TP above, SL below); a sell closes at the ask (TP below, SL above).
    if (!Number.isNaN(orders.takeProfit[slot]!)) each(buy ? state.bidRise : state.askFall, keyOf(slot, 0));
    if (!Number.isNaN(orders.stopLoss[slot]!)) each(buy ? state.bidFall : state.askRise, keyOf(slot, 1));
  }

  /** Stores the order and puts its levels in the books; for a position, returns its quantity and cost. */
  private addOrder(account: Account, order: WatchedOrder): { quantity: number; cost: number } | null {
    const { orders } = this;
    const slot = orders.store(order, account.head);
    account.head = slot;
    account.orderCount++;
    this.forEachLevel(slot, (book, key) => book.insert(key));
    if (!orders.holding(slot)) return null;
    this.figures.usedMargin[account.slot]! += orders.margin[slot]!;
    const quantity = orders.lotsValue(slot) * orders.contractSize[slot]!;
    return { quantity, cost: quantity * orders.openPrice[slot]! };
  }

  /** Takes the order's levels out of the books (one already taken by a tick is simply not found) and frees its slot. */
  private dropOrder(account: Account, slot: number) {
    this.forEachLevel(slot, (book, key) => book.remove(key));
    account.head = this.orders.release(slot, account.head);
    account.orderCount--;
  }

  /**
   * A tick of one instrument. Returns the orders whose level it reached (removed from the books: the
   * caller acts on them and reloads the account, which puts back whatever is still open) and the
   * accounts holding it that are at or below the stop-out level: those it moved out of a band, and
   * those already there. With `tradable` false (market closed) only the marks move.
   */
  onQuote(instrumentId: number, bid: number, ask: number, usdRate: number, tradable: boolean): TickOutcome {
    const state = this.instrument(instrumentId);
    // Until its first quote an instrument counted for nothing in its holders' equity; bands drawn at a
    // rate of exactly 1 (a USD quote) have no rate edges, so a move away from it concerns every holder.
    const everyHolder = !state.quoted || (state.usdRate === 1 && usdRate !== 1);
    state.bid = bid;
    state.ask = ask;
    state.usdRate = usdRate;
    state.quoted = true;
    const revisit = new Set<number>(everyHolder ? state.holders.userIds.subarray(0, state.holders.count) : state.nearLevel);
    if (!everyHolder) {
      const { bands } = state;
      for (const [column, price] of [
        ['bidLow', bid],
        ['askHigh', ask],
        ['rateLow', usdRate],
        ['rateHigh', usdRate],
      ] as const) {
        if (bands[column].reachedBy(price)) for (const userId of bands[column].takeReached(price)) revisit.add(userId);
      }
    }
    const stopOutCandidates: number[] = [];
    for (const userId of revisit) {
      const account = this.accounts.get(userId);
      if (!account) continue;
      this.evaluate(account);
      if (tradable && account.underwater) stopOutCandidates.push(userId);
    }
    const triggers: Trigger[] = [];
    if (!tradable) return { triggers, stopOutCandidates };
    for (const book of [state.bidRise, state.bidFall]) if (book.reachedBy(bid)) this.collect(book.takeReached(bid), triggers);
    for (const book of [state.askRise, state.askFall]) if (book.reachedBy(ask)) this.collect(book.takeReached(ask), triggers);
    return { triggers, stopOutCandidates };
  }

  /** The account's floating P&L at the current marks (an instrument not yet quoted counts for nothing). */
  private floatingOf(account: Account): number {
    let floating = 0;
    for (const instrumentId of account.instruments) {
      const state = this.instrument(instrumentId);
      const row = state.holders.rowFor(account.userId);
      if (state.quoted && row !== undefined) floating += pnlAt(state.holders, row, state.bid, state.ask, state.usdRate);
    }
    return floating;
  }

  /**
   * Screens the account at the current marks and sets its bands again. At or below the higher of the
   * margin-call and stop-out levels it is looked at on every tick of its instruments (and marked in
   * margin call, or underwater at the stop-out level); above it, its room (equity over that level) is
   * shared equally among its quoted instruments, and each gets the band within which its P&L cannot
   * lose more than its share — so no account reaches either level without being evaluated.
   */
  private evaluate(account: Account) {
    this.clearBands(account);
    const used = this.figures.usedMargin[account.slot]!;
    // Without margin in use there is nothing to stop out.
    if (!(used > 0)) {
      this.markMarginCall(account, false);
      return;
    }
    const equity = this.figures.balance[account.slot]! + this.floatingOf(account);
    const roomAbove = (level: number) => {
      const threshold = (level * used) / 100;
      return equity - (threshold + Math.abs(threshold) * RELATIVE_TOLERANCE);
    };
    this.markMarginCall(account, roomAbove(this.marginCallLevel) <= 0);
    const room = roomAbove(Math.max(this.stopOutLevel, this.marginCallLevel));
    if (room <= 0) {
      account.underwater = roomAbove(this.stopOutLevel) <= 0;
      for (const instrumentId of account.instruments) this.instrument(instrumentId).nearLevel.add(account.userId);
      return;
    }
    const quoted = account.instruments.filter((instrumentId) => this.instrument(instrumentId).quoted);
    const share = (room * ROOM_SHARED) / quoted.length;
    for (const instrumentId of account.instruments) {
      const state = this.instrument(instrumentId);
      if (state.quoted) this.placeBand(state, account.userId, share);
      // Not yet quoted, a holding counts for nothing (its first quote evaluates every holder again).
      else state.holders.floor[state.holders.rowFor(account.userId)!] = 0;
    }
  }

  /**
   * After a change of the account's holdings in `touched` instruments (or of its balance alone), keeps
   * the bands of the others where they still hold: with each untouched holding at its floor (the least
   * its band lets it come to) and each touched one at its P&L now, the account must still be above the
   * higher of its levels; if so, that room is shared among the touched holdings' new bands and the rest
   * stay as drawn (a close or a deposit redraws one or two bands instead of all). False when the account
   * is to be evaluated whole (near a level, a holding without a band, or no room left this way).
   */
  private redrawTouched(account: Account, touched: ReadonlySet<number>): boolean {
    const used = this.figures.usedMargin[account.slot]!;
    if (!(used > 0) || account.underwater) return false;
    let least = this.figures.balance[account.slot]!;
    const redrawn: InstrumentState[] = [];
    for (const instrumentId of account.instruments) {
      const state = this.instrument(instrumentId);
      const row = state.holders.rowFor(account.userId)!;
      if (!touched.has(instrumentId)) {
        const floor = state.holders.floor[row]!;
        if (Number.isNaN(floor)) return false;
        least += floor;
      } else if (state.quoted) {
        least += pnlAt(state.holders, row, state.bid, state.ask, state.usdRate);
        redrawn.push(state);
      } else state.holders.floor[row] = 0;
    }
    const threshold = (Math.max(this.stopOutLevel, this.marginCallLevel) * used) / 100;
    const room = least - (threshold + Math.abs(threshold) * RELATIVE_TOLERANCE);
    if (room <= 0) return false;
    this.markMarginCall(account, false);
    for (const state of redrawn) this.placeBand(state, account.userId, (room * ROOM_SHARED) / redrawn.length);
    return true;
  }

  /**
   * The band of one holding. With buy and sell quantities B and S (Q = B + S), quote-currency P&L P and
   * USD rate r, the bid falling and the ask rising by at most w and the rate moving by at most e·r
   * change the USD P&L by at most Q·w·r·(1 + e) + |P|·e·r. At a rate of exactly 1 (a USD quote, which
   * never moves) the whole share goes to the prices; otherwise half to them and half to the rate.
   */
  private placeBand(state: InstrumentState, userId: number, share: number) {
    const { holders, bands } = state;
    const row = holders.rowFor(userId)!;
    const buys = holders.buyQty[row]!;
    const sells = holders.sellQty[row]!;
    const rate = Math.abs(state.usdRate);
    if (buys + sells === 0 || rate === 0) {
      // Nothing held, or a rate of 0: the P&L cannot move.
      holders.floor[row] = pnlAt(holders, row, state.bid, state.ask, state.usdRate);
      return;
    }
    let priceShare = share;
    let rateShare = 0;
    if (state.usdRate !== 1) {
      priceShare = share / 2;
      const pnl = Math.abs(pnlAt(holders, row, state.bid, state.ask, 1));
      rateShare = pnl === 0 ? MAX_RATE_SHARE : Math.min(MAX_RATE_SHARE, priceShare / (pnl * rate));
    }
    const width = priceShare / ((buys + sells) * rate * (1 + rateShare));
    const edges: Record<BandColumn, number> = {
      bidLow: buys > 0 ? state.bid - width : Number.NaN,
      askHigh: sells > 0 ? state.ask + width : Number.NaN,
      rateLow: rateShare > 0 ? state.usdRate - rate * rateShare : Number.NaN,
      rateHigh: rateShare > 0 ? state.usdRate + rate * rateShare : Number.NaN,
    };
    holders.floor[row] = pnlAt(holders, row, state.bid, state.ask, state.usdRate) - share;
    if (rateShare > 0) holders.withRateBands();
    for (const column of holders.bandColumns) {
      holders.band[column][row] = edges[column];
      if (!Number.isNaN(edges[column])) bands[column].insert(userId);
    }
  }

  private markMarginCall(account: Account, inCall: boolean) {
    if (inCall) this.marginCallSet.add(account.userId);
    else this.marginCallSet.delete(account.userId);
  }

  /** Takes the account's bands out of the books and its every-tick marks off its instruments. */
  private clearBands(account: Account) {
    for (const instrumentId of account.instruments) this.clearBandOf(account, instrumentId);
    account.underwater = false;
  }

  /** Takes the account's band on one instrument out of the books, and its every-tick mark off it. */
  private clearBandOf(account: Account, instrumentId: number) {
    const state = this.instrument(instrumentId);
    state.nearLevel.delete(account.userId);
    const row = state.holders.rowFor(account.userId);
    if (row === undefined) return;
    state.holders.floor[row] = Number.NaN;
    for (const column of state.holders.bandColumns) {
      const edge = state.holders.band[column][row]!;
      if (Number.isNaN(edge)) continue;
      // Out of the book before its level changes: the book reads it from this column.
      state.bands[column].remove(account.userId);
      state.holders.band[column][row] = Number.NaN;
    }
  }

  private triggerOf(key: TriggerKey): Trigger {
    const slot = key >> 2;
    return { kind: KINDS[key & 3]!, orderId: this.orders.id[slot]!, userId: this.orders.userId[slot]! };
  }

  private collect(keys: TriggerKey[], into: Trigger[]) {
    for (const key of keys) into.push(this.triggerOf(key));
  }

  /** Screened figures of an account (floats), for diagnostics and tests. */
  screened(userId: number) {
    const account = this.accounts.get(userId);
    if (!account) return null;
    const { balance, usedMargin } = this.figures;
    return { balance: balance[account.slot]!, floating: this.floatingOf(account), usedMargin: usedMargin[account.slot]! };
  }

  /** Users holding positions in an instrument (to mark them for a FOREX_TRADE push). */
  holdersOf(instrumentId: number): number[] {
    const table = this.instruments.get(instrumentId)?.holders;
    return table ? Array.from(table.userIds.subarray(0, table.count)) : [];
  }
}

function pnlAt(table: ExposureTable, row: number, bid: number, ask: number, usdRate: number) {
  return (table.buyQty[row]! * bid - table.buyCost[row]! - (table.sellQty[row]! * ask - table.sellCost[row]!)) * usdRate;
}
