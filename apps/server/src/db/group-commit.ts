import { groupCommitBatchSize } from '../observability/metrics.js';

/** What one item of a batch came to: its own value or its own error. */
export type ItemOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items that arrive while a batch is being written wait and go together into the next
 * one, so under load many callers share one transaction's round trips, and a lone caller waits for
 * nothing (its batch of one starts at once). `write` answers every item of its batch; if it throws,
 * every item of that batch fails with that error.
 */
export class GroupCommit<T, R> {
  private readonly queue: Waiting<T, R>[] = [];
  private running = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<ItemOutcome<R>[]>,
    private readonly options: { maxBatch: number; concurrency: number },
  ) {}

  /** Batches being written, and items waiting for the next. */
  get state(): { writing: number; waiting: number } {
    return { writing: this.running, waiting: this.queue.length };
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.startBatches();
    });
  }

  private startBatches() {
    while (this.running < this.options.concurrency && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      groupCommitBatchSize.observe(batch.length);
      this.running += 1;
      void this.writeBatch(batch);
    }
  }

  private async writeBatch(batch: Waiting<T, R>[]) {
    let answer: () => void;
    try {
      const outcomes = await this.write(batch.map((waiting) => waiting.item));
      answer = () =>
        batch.forEach((waiting, index) => {
          const outcome = outcomes[index];
          if (!outcome) waiting.reject(new Error('group commit: the batch left an item unanswered'));
          else if (outcome.ok) waiting.resolve(outcome.value);
          else waiting.reject(outcome.error);
        });
    } catch (error) {
      answer = () => {
        for (const waiting of batch) waiting.reject(error);
      };
    }
    this.running -= 1;
    this.startBatches();
    // Answered after the next batch is on its way: its round trip then overlaps the work of answering.
    setImmediate(answer);
  }
}
