/**
 * Trigger levels of one instrument for one comparison, kept sorted so that a tick looks at the front
 * only: O(1) when nothing fires, O(log n + fired) when something does; insert and remove are a binary
 * search plus an array move.
 *
 * Levels are JS numbers parsed from the decimal text of the stored price. That keeps the index small
 * and fast; it only *selects* candidates — the action re-checks the rule in Decimal inside its
 * transaction, so a float never decides about money. Parsing is monotone, so the order of distinct
 * prices (≤ 16 significant digits) is exact.
 */
export type Crossing = 'rise' | 'fall';

export class LevelBook<K> {
  /** Sort keys: the level for 'rise' (fires when price ≥ level), the negated level for 'fall' (price ≤ level). */
  private readonly sortKeys: number[] = [];
  private readonly items: K[] = [];

  constructor(
    readonly crossing: Crossing,
    private readonly compareItems: (a: K, b: K) => number,
  ) {}

  get size() {
    return this.items.length;
  }

  private keyOf(level: number) {
    return this.crossing === 'rise' ? level : -level;
  }

  /** First index whose (key, item) is not less than the given one. */
  private lowerBound(key: number, item: K) {
    let low = 0;
    let high = this.sortKeys.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const midKey = this.sortKeys[mid]!;
      if (midKey < key || (midKey === key && this.compareItems(this.items[mid]!, item) < 0)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  insert(level: number, item: K) {
    const key = this.keyOf(level);
    const at = this.lowerBound(key, item);
    this.sortKeys.splice(at, 0, key);
    this.items.splice(at, 0, item);
  }

  remove(level: number, item: K): boolean {
    const key = this.keyOf(level);
    const at = this.lowerBound(key, item);
    if (at < this.items.length && this.sortKeys[at] === key && this.compareItems(this.items[at]!, item) === 0) {
      this.sortKeys.splice(at, 1);
      this.items.splice(at, 1);
      return true;
    }
    return false;
  }

  /** Whether `price` reaches the nearest level (a constant-time check). */
  reachedBy(price: number): boolean {
    const first = this.sortKeys[0];
    return first !== undefined && first <= this.keyOf(price);
  }

  /** Removes and returns every item whose level `price` reached. */
  takeReached(price: number): K[] {
    if (!this.reachedBy(price)) return [];
    const limit = this.keyOf(price);
    let low = 0;
    let high = this.sortKeys.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.sortKeys[mid]! <= limit) low = mid + 1;
      else high = mid;
    }
    this.sortKeys.splice(0, low);
    return this.items.splice(0, low);
  }

  /** Levels in firing order (tests and diagnostics). */
  entries(): { level: number; item: K }[] {
    return this.items.map((item, i) => ({ level: this.crossing === 'rise' ? this.sortKeys[i]! : -this.sortKeys[i]!, item }));
  }
}
