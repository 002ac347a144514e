import type { Executor } from '../../db/client.js';
import { IdempotencyStore, type IdempotentRequest } from '../../db/idempotency.js';
import type { OrderOutcome, TradingCore } from './core.js';

export { isUniqueViolation, requestHash } from '../../db/idempotency.js';

/** The order calls' view of the Idempotency-Key store: a key answers with its order, as it is now. */
export class IdempotencyKeys {
  private readonly store: IdempotencyStore;

  constructor(private readonly core: TradingCore) {
    this.store = new IdempotencyStore(core.db);
  }

  async once(
    userId: number,
    idempotency: IdempotentRequest | undefined,
    route: string,
    run: (tx: Executor) => Promise<OrderOutcome>,
  ): Promise<OrderOutcome & { replayed: boolean }> {
    const outcome = await this.store.once(
      userId,
      idempotency,
      route,
      async (tx) => {
        const result = await run(tx);
        return { ...result, refId: result.order.id };
      },
      (orderId) => this.core.owned(userId, orderId),
    );
    if (outcome.replayed) return { order: outcome.replayed.record, msgKey: outcome.replayed.msgKey, replayed: true };
    return { order: outcome.first.order, msgKey: outcome.first.msgKey, replayed: false };
  }

  used(pairs: { userId: number; key: string }[]) {
    return this.store.used(pairs);
  }

  async replay(
    userId: number,
    idempotency: IdempotentRequest,
    route: string,
  ): Promise<(OrderOutcome & { replayed: true }) | null> {
    const replayed = await this.store.replay(userId, idempotency, route, (orderId) => this.core.owned(userId, orderId));
    return replayed ? { order: replayed.record, msgKey: replayed.msgKey, replayed: true } : null;
  }
}
