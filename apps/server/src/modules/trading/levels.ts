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
/**
 * Entries per node at most, rather than the package's 32: a node's array, grown by V8 as entries go in,
 * holds them about three quarters full instead of three fifths (15 MB of heap at a million orders).
 */
const NODE_SIZE = 64;
const STOP = { break: true } as const;

/** A book of objects that carry their level. */
export const ownLevel = (entry: { level: number }) => entry.level;

/**
 * Entries are their own keys, nothing wrapped around them: objects that carry their level, or plain
 * numbers (slots) whose level `levelOf` reads from columns elsewhere — which must not change while the
 * entry is in the book.
 */
export class LevelBook<E> {
  private readonly tree: InstanceType<typeof BTree<E, undefined>>;
  private readonly compareEntries: (a: E, b: E) => number;
  /** The nearest entry, kept at hand so that a quiet tick is one comparison. */
  private front: E | undefined;

  /** `compareSameLevel` orders entries of one level (and tells an entry from another at removal). */
  constructor(
    readonly crossing: Crossing,
    private readonly levelOf: (entry: E) => number,
    compareSameLevel: (a: E, b: E) => number,
  ) {
    // A rising book fires its lowest level first (price ≥ level), a falling one its highest (price ≤ level).
    const sign = crossing === 'rise' ? 1 : -1;
    this.compareEntries = (a, b) => {
      const levelA = levelOf(a);
      const levelB = levelOf(b);
      return levelA < levelB ? -sign : levelA > levelB ? sign : compareSameLevel(a, b);
    };
    this.tree = new BTree<E, undefined>(undefined, this.compareEntries, NODE_SIZE);
  }

  get size() {
    return this.tree.size;
  }

  insert(entry: E) {
    this.tree.set(entry, undefined);
    if (this.front === undefined || this.compareEntries(entry, this.front) < 0) this.front = entry;
  }

  /** Removes the entry equal to `entry` (its level and `compareSameLevel`); false if there is none. */
  remove(entry: E): boolean {
    if (!this.tree.delete(entry)) return false;
    if (this.front !== undefined && this.compareEntries(entry, this.front) === 0) this.front = this.tree.minKey();
    return true;
  }

  private reaches(price: number, level: number) {
    return this.crossing === 'rise' ? level <= price : level >= price;
  }

  /** Whether `price` reaches the nearest level (a constant-time check). */
  reachedBy(price: number): boolean {
    return this.front !== undefined && this.reaches(price, this.levelOf(this.front));
  }

  /** Removes and returns every entry whose level `price` reached, nearest first. */
  takeReached(price: number): E[] {
    if (!this.reachedBy(price)) return [];
    const reached: E[] = [];
    // One pass from the front that deletes as it goes and stops at the first level not reached.
    this.tree.editAll((entry) => {
      if (!this.reaches(price, this.levelOf(entry))) return STOP;
      reached.push(entry);
      return DELETE;
    });
    this.front = this.tree.minKey();
    return reached;
  }

  /** Entries in firing order (tests and diagnostics). */
  entries(): E[] {
    return this.tree.keysArray();
  }
}
