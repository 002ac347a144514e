import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdIndex } from './id-index.js';

/** An index over a column of ids, row by row, as OrderColumns and ExposureTable hold them. */
const indexed = () => {
  const ids: number[] = [];
  return { ids, index: new IdIndex((row) => ids[row]!) };
};

describe('id index', () => {
  it('finds, repoints and deletes ids, and grows past its first table', () => {
    const { ids, index } = indexed();
    for (let row = 0; row < 1000; row++) {
      ids[row] = 5_000_000_000 + row * 7;
      index.set(ids[row]!, row);
    }
    expect(index.size).toBe(1000);
    expect(index.get(5_000_000_000 + 7 * 500)).toBe(500);
    expect(index.get(5_000_000_001)).toBeUndefined();
    // The last row moving into row 3, as a table's rows do.
    const moved = ids[999]!;
    ids[3] = moved;
    index.set(moved, 3);
    expect(index.get(moved)).toBe(3);
    expect(index.size).toBe(1000);
    expect(index.delete(5_000_000_000)).toBe(true);
    expect(index.delete(5_000_000_000)).toBe(false);
    expect(index.has(5_000_000_000)).toBe(false);
    expect(index.size).toBe(999);
  });

  it('keeps every entry reachable when ids share a home and deletions leave holes', () => {
    const { ids, index } = indexed();
    // Ids equal in their low 32 bits and differing above them, and small ids beside them.
    const wide = Array.from({ length: 40 }, (_, row) => row * 2 ** 32 + 12345);
    const all = [...wide, ...Array.from({ length: 40 }, (_, row) => row + 1)];
    all.forEach((id, row) => {
      ids[row] = id;
      index.set(id, row);
    });
    all.forEach((id, row) => {
      if (row % 3 === 0) index.delete(id);
    });
    all.forEach((id, row) => expect(index.get(id)).toBe(row % 3 === 0 ? undefined : row));
  });

  it('agrees with a Map over many random operations, clusters wrapping round the table’s end', () => {
    const { ids, index } = indexed();
    const model = new Map<number, number>();
    // A fixed-seed generator: the same hundred thousand operations every run.
    let seed = 22;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let step = 0; step < 100_000; step++) {
      const id = Math.floor(random() * 3000) * (random() < 0.2 ? 2 ** 35 : 1);
      if (random() < 0.45) {
        expect(index.delete(id)).toBe(model.delete(id));
      } else {
        ids.push(id);
        index.set(id, ids.length - 1);
        model.set(id, ids.length - 1);
      }
      if (step % 1000 === 0) expect([...model].every(([each, row]) => index.get(each) === row)).toBe(true);
    }
    expect(index.size).toBe(model.size);
    for (const [id, row] of model) expect(index.get(id)).toBe(row);
  });

  it('agrees with a Map for any inserts, moves and deletions', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('set', 'set', 'delete'),
            // A small range, so that operations meet the same ids; some past 2^32.
            fc.oneof(
              fc.integer({ min: 1, max: 300 }),
              fc.integer({ min: 1, max: 30 }).map((n) => n * 2 ** 33 + 1),
            ),
          ),
          { maxLength: 400 },
        ),
        (operations) => {
          const { ids, index } = indexed();
          const model = new Map<number, number>();
          for (const [operation, id] of operations) {
            if (operation === 'delete') {
              expect(index.delete(id)).toBe(model.has(id));
              model.delete(id);
            } else {
              // A new row for the id: a new id, or a row moving as a table's last row moves into a freed one.
              ids.push(id);
              index.set(id, ids.length - 1);
              model.set(id, ids.length - 1);
            }
            expect(index.size).toBe(model.size);
          }
          for (const [id, row] of model) expect(index.get(id)).toBe(row);
          for (const [, id] of operations) if (!model.has(id)) expect(index.get(id)).toBeUndefined();
        },
      ),
    );
  });
});
