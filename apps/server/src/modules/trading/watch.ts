import { OrderSide, OrderStatus, type FillDirection, type OrderSideValue } from '@pipwise/domain';
import { AccountSlots, ExposureTable } from './exposure.js';
import { LevelBook } from './levels.js';

/**
 * The risk engine's in-memory picture of every open order and of the accounts that hold them — a pure
 * data structure (no I/O, no clock) so it can be tested and benchmarked on its own.
 *
 * - TP, SL and pending targets sit in sorted level books per instrument and price side, so a tick
 *   that triggers nothing costs a look at the front of four books.
 * - Each account's floating P&L is tracked per instrument from aggregated exposure (Σ lots × contract
 *   and Σ lots × contract × entry per side), so a tick updates one number per account holding that
 *   instrument and compares equity with the stop-out level — never a walk over positions.
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
  lots: string;
  contractSize: string;
  margin: string;
  openPrice: string | null;
  targetPrice: string | null;
  fillDirection: FillDirection | null;
  takeProfit: string | null;
  stopLoss: string | null;
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

interface BookItem {
  orderId: number;
  userId: number;
  kind: TriggerKind;
}

interface Placement {
  book: LevelBook<BookItem>;
  level: number;
  item: BookItem;
}

interface Account {
  userId: number;
  slot: number;
  balanceText: string;
  /** Instruments the account holds positions in (a row in each one's exposure table). */
  instruments: number[];
  orders: Map<number, WatchedOrder>;
  placements: Placement[];
}

interface InstrumentState {
  bidRise: LevelBook<BookItem>;
  bidFall: LevelBook<BookItem>;
  askRise: LevelBook<BookItem>;
  askFall: LevelBook<BookItem>;
  holders: ExposureTable;
  bid: number;
  ask: number;
  usdRate: number;
  quoted: boolean;
}

const compareItems = (a: BookItem, b: BookItem) => a.orderId - b.orderId || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);

/** Screening tolerance: equity within this share of the threshold counts as a candidate. */
const RELATIVE_TOLERANCE = 1e-9;

export class PositionWatch {
  private readonly instruments = new Map<number, InstrumentState>();
  private readonly accounts = new Map<number, Account>();
  private readonly figures = new AccountSlots();
  private stopOutLevel: number;

  constructor(stopOutLevel: number) {
    this.stopOutLevel = stopOutLevel;
  }

  setStopOutLevel(level: number) {
    this.stopOutLevel = level;
  }

  get accountCount() {
    return this.accounts.size;
  }

  get orderCount() {
    let count = 0;
    for (const account of this.accounts.values()) count += account.orders.size;
    return count;
  }

  /** Every order of the book, for tests. */
  levels(instrumentId: number) {
    const state = this.instruments.get(instrumentId);
    if (!state) return null;
    return {
      bidRise: state.bidRise.entries(),
      bidFall: state.bidFall.entries(),
      askRise: state.askRise.entries(),
      askFall: state.askFall.entries(),
    };
  }

  private instrument(id: number): InstrumentState {
    let state = this.instruments.get(id);
    if (!state) {
      state = {
        bidRise: new LevelBook('rise', compareItems),
        bidFall: new LevelBook('fall', compareItems),
        askRise: new LevelBook('rise', compareItems),
        askFall: new LevelBook('fall', compareItems),
        holders: new ExposureTable(),
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
    const account: Account = { userId, slot, balanceText: balance, instruments: [], orders: new Map(), placements: [] };
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
    for (const [instrumentId, exposure] of exposures) {
      const state = this.instrument(instrumentId);
      const row = state.holders.add(userId, slot, exposure);
      account.instruments.push(instrumentId);
      if (state.quoted) {
        const pnl = pnlAt(state.holders, row, state.bid, state.ask, state.usdRate);
        state.holders.pnl[row] = pnl;
        this.figures.floating[slot]! += pnl;
      }
    }
  }

  /**
   * New orders of an account and its balance after them, added to what is watched without rebuilding
   * the account: an order costs the same however many positions its account already holds.
   */
  addOrders(userId: number, balance: string, orders: WatchedOrder[]) {
    const account = this.accounts.get(userId);
    if (!account || orders.some((order) => account.orders.has(order.id))) {
      this.setAccount(userId, balance, [...(account?.orders.values() ?? []), ...orders]);
      return;
    }
    this.setBalance(userId, balance);
    for (const order of orders) {
      const position = this.addOrder(account, order);
      if (!position) continue;
      const state = this.instrument(order.instrumentId);
      const buy = order.side === OrderSide.buy;
      let row = state.holders.rowFor(userId);
      if (row === undefined) {
        row = state.holders.add(userId, account.slot, { buyQty: 0, buyCost: 0, sellQty: 0, sellCost: 0 });
        account.instruments.push(order.instrumentId);
      }
      const holders = state.holders;
      (buy ? holders.buyQty : holders.sellQty)[row]! += position.quantity;
      (buy ? holders.buyCost : holders.sellCost)[row]! += position.cost;
      if (state.quoted) {
        const pnl = pnlAt(holders, row, state.bid, state.ask, state.usdRate);
        this.figures.floating[account.slot]! += pnl - holders.pnl[row]!;
        holders.pnl[row] = pnl;
      }
    }
  }

  /** A new cash balance (a deposit, a close) without a change of orders. */
  setBalance(userId: number, balance: string) {
    const account = this.accounts.get(userId);
    if (!account) return;
    this.figures.balance[account.slot] = Number(balance);
    account.balanceText = balance;
  }

  /** The cash balance as last loaded (exact text), or null for an account without open orders. */
  balanceOf(userId: number): string | null {
    return this.accounts.get(userId)?.balanceText ?? null;
  }

  removeAccount(userId: number) {
    const account = this.accounts.get(userId);
    if (!account) return;
    for (const placement of account.placements) placement.book.remove(placement.level, placement.item);
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
    return [...(this.accounts.get(userId)?.orders.values() ?? [])];
  }

  private place(account: Account, book: LevelBook<BookItem>, price: string, order: WatchedOrder, kind: TriggerKind) {
    const placement = { book, level: Number(price), item: { orderId: order.id, userId: order.userId, kind } };
    book.insert(placement.level, placement.item);
    account.placements.push(placement);
  }

  /** Puts the order's levels in the books; for a position, returns its quantity and cost. */
  private addOrder(account: Account, order: WatchedOrder): { quantity: number; cost: number } | null {
    account.orders.set(order.id, order);
    const state = this.instrument(order.instrumentId);
    const buy = order.side === OrderSide.buy;
    if (order.status === OrderStatus.pending) {
      if (order.targetPrice === null || order.fillDirection === null) return null;
      // A buy fills at the ask, a sell at the bid.
      const book = buy
        ? order.fillDirection === 'rise'
          ? state.askRise
          : state.askFall
        : order.fillDirection === 'rise'
          ? state.bidRise
          : state.bidFall;
      this.place(account, book, order.targetPrice, order, 'fill');
      return null;
    }
    // A buy closes at the bid (TP above, SL below); a sell closes at the ask (TP below, SL above).
    if (order.takeProfit !== null)
      this.place(account, buy ? state.bidRise : state.askFall, order.takeProfit, order, 'take_profit');
    if (order.stopLoss !== null) this.place(account, buy ? state.bidFall : state.askRise, order.stopLoss, order, 'stop_loss');
    if (order.openPrice === null) return null;
    this.figures.usedMargin[account.slot]! += Number(order.margin);
    const quantity = Number(order.lots) * Number(order.contractSize);
    return { quantity, cost: quantity * Number(order.openPrice) };
  }

  /**
   * A tick of one instrument. Returns the orders whose level it reached (removed from the books: the
   * caller acts on them and reloads the account, which puts back whatever is still open) and the
   * accounts to check for stop-out. With `tradable` false (market closed) only the marks move.
   */
  onQuote(instrumentId: number, bid: number, ask: number, usdRate: number, tradable: boolean): TickOutcome {
    const state = this.instrument(instrumentId);
    state.bid = bid;
    state.ask = ask;
    state.usdRate = usdRate;
    state.quoted = true;
    const triggers: Trigger[] = [];
    const stopOutCandidates: number[] = [];
    const table = state.holders;
    const { balance, usedMargin, floating } = this.figures;
    const { slots, buyQty, buyCost, sellQty, sellCost, pnl: pnls, userIds } = table;
    const level = this.stopOutLevel;
    for (let row = 0; row < table.count; row++) {
      const pnl = (buyQty[row]! * bid - buyCost[row]! - (sellQty[row]! * ask - sellCost[row]!)) * usdRate;
      const slot = slots[row]!;
      const equity = balance[slot]! + (floating[slot]! += pnl - pnls[row]!);
      pnls[row] = pnl;
      const used = usedMargin[slot]!;
      if (tradable && used > 0) {
        const threshold = level * used;
        if (equity * 100 <= threshold + Math.abs(threshold) * RELATIVE_TOLERANCE) stopOutCandidates.push(userIds[row]!);
      }
    }
    if (!tradable) return { triggers, stopOutCandidates };
    for (const book of [state.bidRise, state.bidFall]) if (book.reachedBy(bid)) this.collect(book.takeReached(bid), triggers);
    for (const book of [state.askRise, state.askFall]) if (book.reachedBy(ask)) this.collect(book.takeReached(ask), triggers);
    return { triggers, stopOutCandidates };
  }

  private collect(items: BookItem[], into: Trigger[]) {
    for (const item of items) {
      into.push({ kind: item.kind, orderId: item.orderId, userId: item.userId });
      const account = this.accounts.get(item.userId);
      if (account) account.placements = account.placements.filter((p) => p.item !== item);
    }
  }

  /** Screened figures of an account (floats), for diagnostics and tests. */
  screened(userId: number) {
    const account = this.accounts.get(userId);
    if (!account) return null;
    const { balance, floating, usedMargin } = this.figures;
    return { balance: balance[account.slot]!, floating: floating[account.slot]!, usedMargin: usedMargin[account.slot]! };
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
