import { IdIndex } from './id-index.js';

/**
 * Flat, typed-array storage for the risk engine's screening arithmetic: the numbers live in parallel
 * Float64Arrays (not one object per account), contiguous and without allocation per tick.
 */
/** A copy of a typed array with room for `capacity` elements. */
export const grow = <T extends Float64Array | Int32Array | Uint8Array>(array: T, capacity: number): T => {
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array);
  return next;
};

/** Per-account cash and used margin, addressed by a reusable slot number. */
export class AccountSlots {
  balance = new Float64Array(64);
  usedMargin = new Float64Array(64);
  private next = 0;
  private readonly free: number[] = [];

  allocate(): number {
    const slot = this.free.pop() ?? this.next++;
    if (slot >= this.balance.length) {
      const capacity = this.balance.length * 2;
      this.balance = grow(this.balance, capacity);
      this.usedMargin = grow(this.usedMargin, capacity);
    }
    this.balance[slot] = 0;
    this.usedMargin[slot] = 0;
    return slot;
  }

  release(slot: number) {
    this.free.push(slot);
  }
}

/**
 * The edges of an exposure table's stop-out band (see PositionWatch), NaN where a row has none: only the
 * adverse side of each price (the bid falling hurts buys, the ask rising hurts sells), and the USD rate
 * both ways where it can move.
 */
export const BAND_COLUMNS = ['bidLow', 'askHigh', 'rateLow', 'rateHigh'] as const;
export type BandColumn = (typeof BAND_COLUMNS)[number];
const PRICE_COLUMNS: readonly BandColumn[] = ['bidLow', 'askHigh'];
/** The rate columns' place until an instrument's rate moves off 1: no row holds a rate edge before. */
const NO_ROWS = new Float64Array(0);

/**
 * The accounts holding one instrument: per account the summed quantity (lots × contract) and cost
 * (quantity × entry) of its buys and of its sells, and the band of prices and USD rates within which
 * this instrument alone cannot bring the account to its stop-out level.
 */
export class ExposureTable {
  count = 0;
  userIds = new Float64Array(16);
  buyQty = new Float64Array(16);
  buyCost = new Float64Array(16);
  sellQty = new Float64Array(16);
  sellCost = new Float64Array(16);
  /**
   * The least USD P&L the row can come to while the prices and rate stay within its band (its P&L when
   * the band was drawn, less the share of room it was given); NaN without a band.
   */
  floor = new Float64Array(16);
  readonly band: Record<BandColumn, Float64Array> = {
    bidLow: new Float64Array(16),
    askHigh: new Float64Array(16),
    rateLow: NO_ROWS,
    rateHigh: NO_ROWS,
  };
  /**
   * The band columns the table has: the rate's only once the instrument has been quoted off USD (an
   * instrument quoted in USD never has a rate edge, and most of a book's rows are on such instruments).
   */
  bandColumns = PRICE_COLUMNS;
  private readonly rowOf = new IdIndex((row) => this.userIds[row]!);

  /** Gives every row the rate columns (without edges), before the first rate edge is drawn. */
  withRateBands() {
    if (this.bandColumns === BAND_COLUMNS) return;
    this.band.rateLow = new Float64Array(this.userIds.length).fill(Number.NaN);
    this.band.rateHigh = new Float64Array(this.userIds.length).fill(Number.NaN);
    this.bandColumns = BAND_COLUMNS;
  }

  add(userId: number, exposure: { buyQty: number; buyCost: number; sellQty: number; sellCost: number }) {
    if (this.rowOf.has(userId)) this.remove(userId);
    if (this.count === this.userIds.length) {
      const capacity = this.count * 2;
      this.userIds = grow(this.userIds, capacity);
      this.buyQty = grow(this.buyQty, capacity);
      this.buyCost = grow(this.buyCost, capacity);
      this.sellQty = grow(this.sellQty, capacity);
      this.sellCost = grow(this.sellCost, capacity);
      this.floor = grow(this.floor, capacity);
      for (const column of this.bandColumns) this.band[column] = grow(this.band[column], capacity);
    }
    const row = this.count++;
    this.userIds[row] = userId;
    this.rowOf.set(userId, row);
    this.buyQty[row] = exposure.buyQty;
    this.buyCost[row] = exposure.buyCost;
    this.sellQty[row] = exposure.sellQty;
    this.sellCost[row] = exposure.sellCost;
    this.floor[row] = Number.NaN;
    for (const column of this.bandColumns) this.band[column][row] = Number.NaN;
    return row;
  }

  /** Removes the account's row (the last row moves into its place). */
  remove(userId: number) {
    const row = this.rowOf.get(userId);
    if (row === undefined) return;
    const last = --this.count;
    this.rowOf.delete(userId);
    if (row !== last) {
      const movedUser = this.userIds[last]!;
      this.userIds[row] = movedUser;
      this.buyQty[row] = this.buyQty[last]!;
      this.buyCost[row] = this.buyCost[last]!;
      this.sellQty[row] = this.sellQty[last]!;
      this.sellCost[row] = this.sellCost[last]!;
      this.floor[row] = this.floor[last]!;
      for (const column of this.bandColumns) this.band[column][row] = this.band[column][last]!;
      this.rowOf.set(movedUser, row);
    }
  }

  rowFor(userId: number) {
    return this.rowOf.get(userId);
  }

  /** The row's edge in a band column: NaN where it has none. */
  edge(column: BandColumn, row: number) {
    return this.band[column][row] ?? Number.NaN;
  }
}
