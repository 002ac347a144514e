const EMPTY = -1;
/** Grown past three quarters full: linear probing stays short below that. */
const MAX_LOAD = 0.75;
const TWO_TO_32 = 2 ** 32;

/**
 * An index from integer ids (safe integers, as the database's bigints are read) to rows of columns that
 * already hold each row's id: an open-addressing table of rows only (an Int32Array, linear probing),
 * which reads a candidate's id from the caller's column. An entry costs 4 to 8 bytes of typed array
 * where a JS Map's costs about 28 of heap, and growing it leaves no large garbage array behind in the
 * heap. Deletion shifts the following entries back, so no tombstones accumulate.
 */
export class IdIndex {
  private table = new Int32Array(16).fill(EMPTY);
  /** 32 − log2 of the table's length: the hash keeps its top bits. */
  private shift = 28;
  private count = 0;

  /** `idAt(row)` is the id held by a row in the index; it must stay so until the row's entry is deleted or moved. */
  constructor(private readonly idAt: (row: number) => number) {}

  get size() {
    return this.count;
  }

  get(id: number): number | undefined {
    const { table } = this;
    const mask = table.length - 1;
    for (let at = this.home(id); ; at = (at + 1) & mask) {
      const row = table[at]!;
      if (row === EMPTY) return undefined;
      if (this.idAt(row) === id) return row;
    }
  }

  has(id: number) {
    return this.get(id) !== undefined;
  }

  /** Points the id at `row`, whether or not it was in the index. */
  set(id: number, row: number) {
    if (this.count + 1 > this.table.length * MAX_LOAD) this.resize(this.table.length * 2);
    const { table } = this;
    const mask = table.length - 1;
    let at = this.home(id);
    for (; table[at] !== EMPTY; at = (at + 1) & mask) {
      if (this.idAt(table[at]!) === id) {
        table[at] = row;
        return;
      }
    }
    table[at] = row;
    this.count++;
  }

  delete(id: number): boolean {
    const { table } = this;
    const mask = table.length - 1;
    let hole = this.home(id);
    for (; ; hole = (hole + 1) & mask) {
      const row = table[hole]!;
      if (row === EMPTY) return false;
      if (this.idAt(row) === id) break;
    }
    // Each entry after the hole, up to the next empty place, moves into it unless its home lies
    // cyclically after the hole (then it is already as near its home as the hole would put it).
    for (let at = (hole + 1) & mask; table[at] !== EMPTY; at = (at + 1) & mask) {
      const home = this.home(this.idAt(table[at]!));
      const homeAfterHole = hole <= at ? hole < home && home <= at : hole < home || home <= at;
      if (homeAfterHole) continue;
      table[hole] = table[at]!;
      hole = at;
    }
    table[hole] = EMPTY;
    this.count--;
    return true;
  }

  /** Fibonacci hashing of the id's two 32-bit halves: consecutive ids spread over the whole table. */
  private home(id: number) {
    const low = id >>> 0;
    const high = (id - low) / TWO_TO_32;
    return Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }

  private resize(length: number) {
    const old = this.table;
    this.table = new Int32Array(length).fill(EMPTY);
    this.shift = 32 - Math.log2(length);
    const mask = length - 1;
    for (const row of old) {
      if (row === EMPTY) continue;
      let at = this.home(this.idAt(row));
      while (this.table[at] !== EMPTY) at = (at + 1) & mask;
      this.table[at] = row;
    }
  }
}
