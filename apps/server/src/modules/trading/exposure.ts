/**
 * Flat, typed-array storage for the risk engine's per-tick arithmetic. A tick of one instrument walks
 * every account holding it; keeping the numbers in parallel Float64Arrays (not one object per account)
 * makes that walk a tight loop over contiguous memory without allocation — thousands of accounts in
 * tens of microseconds.
 */
const grow = <T extends Float64Array | Int32Array>(array: T, capacity: number): T => {
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array);
  return next;
};

/** Per-account cash, used margin and floating P&L, addressed by a reusable slot number. */
export class AccountSlots {
  balance = new Float64Array(64);
  usedMargin = new Float64Array(64);
  floating = new Float64Array(64);
  private next = 0;
  private readonly free: number[] = [];

  allocate(): number {
    const slot = this.free.pop() ?? this.next++;
    if (slot >= this.balance.length) {
      const capacity = this.balance.length * 2;
      this.balance = grow(this.balance, capacity);
      this.usedMargin = grow(this.usedMargin, capacity);
      this.floating = grow(this.floating, capacity);
    }
    this.balance[slot] = 0;
    this.usedMargin[slot] = 0;
    this.floating[slot] = 0;
    return slot;
  }

  release(slot: number) {
    this.free.push(slot);
  }
}

/**
 * The accounts holding one instrument: per account the summed quantity (lots × contract) and cost
 * (quantity × entry) of its buys and of its sells, and the P&L last computed from them.
 */
export class ExposureTable {
  count = 0;
  userIds = new Float64Array(16);
  slots = new Int32Array(16);
  buyQty = new Float64Array(16);
  buyCost = new Float64Array(16);
  sellQty = new Float64Array(16);
  sellCost = new Float64Array(16);
  pnl = new Float64Array(16);
  private readonly rowOf = new Map<number, number>();

  add(userId: number, slot: number, exposure: { buyQty: number; buyCost: number; sellQty: number; sellCost: number }) {
    if (this.rowOf.has(userId)) this.remove(userId);
    if (this.count === this.userIds.length) {
      const capacity = this.count * 2;
      this.userIds = grow(this.userIds, capacity);
      this.slots = grow(this.slots, capacity);
      this.buyQty = grow(this.buyQty, capacity);
      this.buyCost = grow(this.buyCost, capacity);
      this.sellQty = grow(this.sellQty, capacity);
      this.sellCost = grow(this.sellCost, capacity);
      this.pnl = grow(this.pnl, capacity);
    }
    const row = this.count++;
    this.rowOf.set(userId, row);
    this.userIds[row] = userId;
    this.slots[row] = slot;
    this.buyQty[row] = exposure.buyQty;
    this.buyCost[row] = exposure.buyCost;
    this.sellQty[row] = exposure.sellQty;
    this.sellCost[row] = exposure.sellCost;
    this.pnl[row] = 0;
    return row;
  }

  /** Removes the account's row (the last row moves into its place); returns the P&L it carried. */
  remove(userId: number): number {
    const row = this.rowOf.get(userId);
    if (row === undefined) return 0;
    const carried = this.pnl[row]!;
    const last = --this.count;
    this.rowOf.delete(userId);
    if (row !== last) {
      const movedUser = this.userIds[last]!;
      this.userIds[row] = movedUser;
      this.slots[row] = this.slots[last]!;
      this.buyQty[row] = this.buyQty[last]!;
      this.buyCost[row] = this.buyCost[last]!;
      this.sellQty[row] = this.sellQty[last]!;
      this.sellCost[row] = this.sellCost[last]!;
      this.pnl[row] = this.pnl[last]!;
      this.rowOf.set(movedUser, row);
    }
    return carried;
  }

  rowFor(userId: number) {
    return this.rowOf.get(userId);
  }
}
