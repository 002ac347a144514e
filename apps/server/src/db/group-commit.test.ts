import { describe, expect, it } from 'vitest';
import { GroupCommit, type ItemOutcome } from './group-commit.js';

/** A writer whose batches finish only when the test says so, recording what each batch held. */
function controlledWriter() {
  const batches: number[][] = [];
  const finish: (() => void)[] = [];
  const write = (items: number[]) =>
    new Promise<ItemOutcome<number>[]>((resolve) => {
      batches.push(items);
      finish.push(() =>
        resolve(
          items.map((item) => (item < 0 ? { ok: false, error: new Error(`bad ${item}`) } : { ok: true, value: item * 10 })),
        ),
      );
    });
  return { batches, finish, write };
}

const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: (error as Error).message }),
  );

describe('group commit', () => {
  it('starts a lone item at once and gathers what arrives meanwhile into the next batch', async () => {
    const { batches, finish, write } = controlledWriter();
    const commit = new GroupCommit(write, { maxBatch: 3, concurrency: 1 });
    const first = commit.submit(1);
    expect(batches).toEqual([[1]]);
    const waiting = [2, 3, 4, 5].map((item) => commit.submit(item));
    expect(batches).toEqual([[1]]);

    finish.shift()!();
    expect(await first).toBe(10);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    finish.shift()!();
    await waiting[2];
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
    finish.shift()!();
    expect(await Promise.all(waiting)).toEqual([20, 30, 40, 50]);
  });

  it("answers each item with its own outcome, and a batch's failure fails only that batch", async () => {
    let calls = 0;
    const commit = new GroupCommit<number, number>(
      async (items) => {
        calls += 1;
        if (items.includes(0)) throw new Error('lost connection');
        return items.map((item) => (item < 0 ? { ok: false, error: new Error(`bad ${item}`) } : { ok: true, value: item }));
      },
      { maxBatch: 10, concurrency: 1 },
    );
    const lone = settle(commit.submit(0));
    const together = [7, -1, 8].map((item) => settle(commit.submit(item)));
    expect(await lone).toEqual({ error: 'lost connection' });
    expect(await Promise.all(together)).toEqual([{ value: 7 }, { error: 'bad -1' }, { value: 8 }]);
    expect(calls).toBe(2);
  });
});
