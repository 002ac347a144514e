import { createRequire } from 'node:module';
import type sortedBtree from 'sorted-btree';

/**
 * Trigger levels of one instrument for one comparison, kept in a B+ tree so that a tick looks at the
 * front only: O(1) when nothing fires, O(log n + fired) when something does; insert and remove are
 * O(log n), where a sorted array shifted every element behind the change (at a million positions that
 * was most of the load and of the reloads after a flash move).
 *
 * Levels are JS numbers parsed from the decimal text of the stored price. That keeps the index small
 * and fast; it only *selects* candidates — the action re-checks the rule in Decimal inside its
 * transaction, so a float never decides about money. Parsing is monotone, so the order of distinct
 * prices (≤ 16 significant digits) is exact.
 */
export type Crossing = 'rise' | 'fall';

/**
 * The package is CommonJS with an `exports.default`: imported, Node hands over `module.exports` and
 * Vitest the class, so it is required, which means the same everywhere.
 */
const { default: BTree } = createRequire(import.meta.url)('sorted-btree') as typeof sortedBtree;

const DELETE = { delete: true } as const;
const STOP = { break: true } as const;

interface Entry<K> {
  /** The level for 'rise' (fires when price ≥ level), the negated level for 'fall' (price ≤ level). */
  key: number;
  item: K;
}

export class LevelBook<K> {
  private readonly tree: InstanceType<typeof BTree<Entry<K>, undefined>>;
  private readonly compareEntries: (a: Entry<K>, b: Entry<K>) => number;
  /** The nearest level, kept at hand so that a quiet tick is one comparison. */
  private front: Entry<K> | undefined;

  constructor(
    readonly crossing: Crossing,
    compareItems: (a: K, b: K) => number,
  ) {
    this.compareEntries = (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : compareItems(a.item, b.item));
    this.tree = new BTree<Entry<K>, undefined>(undefined, this.compareEntries);
  }

  get size() {
    return this.tree.size;
  }

  private keyOf(level: number) {
    return this.crossing === 'rise' ? level : -level;
  }

  insert(level: number, item: K) {
    const entry = { key: this.keyOf(level), item };
    this.tree.set(entry, undefined);
    if (this.front === undefined || this.compareEntries(entry, this.front) < 0) this.front = entry;
  }

  remove(level: number, item: K): boolean {
    const entry = { key: this.keyOf(level), item };
    if (!this.tree.delete(entry)) return false;
    if (this.front !== undefined && this.compareEntries(entry, this.front) === 0) this.front = this.tree.minKey();
    return true;
  }

  /** Whether `price` reaches the nearest level (a constant-time check). */
  reachedBy(price: number): boolean {
    return this.front !== undefined && this.front.key <= this.keyOf(price);
  }

  /** Removes and returns every item whose level `price` reached. */
  takeReached(price: number): K[] {
    if (!this.reachedBy(price)) return [];
    const limit = this.keyOf(price);
    const reached: K[] = [];
    // One pass from the front that deletes as it goes and stops at the first level not reached.
    this.tree.editAll((entry) => {
      if (entry.key > limit) return STOP;
      reached.push(entry.item);
      return DELETE;
    });
    this.front = this.tree.minKey();
    return reached;
  }

  /** Levels in firing order (tests and diagnostics). */
  entries(): { level: number; item: K }[] {
    return this.tree.keysArray().map(({ key, item }) => ({ level: this.crossing === 'rise' ? key : -key, item }));
  }
}
