import { newIdempotencyKey, outcomeUnknown } from './http';

interface Held {
  payload: string;
  key: string;
  sending: boolean;
}

/**
 * One Idempotency-Key per intent of the user (issue 10: one intent, one order). A slot is one thing the
 * user acts on (the order ticket, one position); its key is made when the user first asks and kept while
 * the outcome is unknown (the answer was lost), so asking again for the same thing cannot act twice: the
 * server answers with what the first request did. Once the server has answered, or the user asks for
 * something else, the next request is a new intent with a new key. While a slot is sending, a second
 * request from it (a double tap) is not sent at all.
 */
export class IntentKeys {
  private readonly held = new Map<string, Held>();

  /** The key to send `payload` from `slot` with, or null while that slot's previous request is on its way. */
  begin(slot: string, payload: unknown): string | null {
    const body = JSON.stringify(payload);
    const current = this.held.get(slot);
    if (current?.sending) return null;
    const key = current?.payload === body ? current.key : newIdempotencyKey();
    this.held.set(slot, { payload: body, key, sending: true });
    return key;
  }

  /** The request from `slot` ended: its key is kept only if the server may have acted without our knowing. */
  settle(slot: string, error: unknown) {
    const current = this.held.get(slot);
    if (!current) return;
    if (error && outcomeUnknown(error)) current.sending = false;
    else this.held.delete(slot);
  }

  sending(slot: string) {
    return this.held.get(slot)?.sending ?? false;
  }
}
