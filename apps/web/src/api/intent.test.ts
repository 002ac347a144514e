import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR, PRICES_NOT_LIVE } from './http';
import { IntentKeys } from './intent';

const lost = new ApiError(NETWORK_ERROR, 'network', 0);
const refused = new ApiError(1002, 'margin short', 200);
const order = { type: 1, cont: '0.01', forex_id: 1 };

describe('IntentKeys: one key per intent', () => {
  it('sends nothing for a second tap while the first request is on its way', () => {
    const intents = new IntentKeys();
    expect(intents.begin('ticket', order)).toMatch(/^[0-9a-f]{32}$/);
    expect(intents.begin('ticket', order)).toBeNull();
    expect(intents.sending('ticket')).toBe(true);
  });

  it('keeps the key after a lost answer, so asking again for the same order cannot place it twice', () => {
    const intents = new IntentKeys();
    const first = intents.begin('ticket', order);
    intents.settle('ticket', lost);
    expect(intents.sending('ticket')).toBe(false);
    expect(intents.begin('ticket', { ...order })).toBe(first);
  });

  it('starts a new intent once the server answered, or when the user asks for something else', () => {
    const intents = new IntentKeys();
    const placed = intents.begin('ticket', order);
    intents.settle('ticket', undefined);
    const next = intents.begin('ticket', order);
    expect(next).not.toBe(placed);
    intents.settle('ticket', refused);
    const afterRefusal = intents.begin('ticket', order);
    expect(afterRefusal).not.toBe(next);
    intents.settle('ticket', lost);
    expect(intents.begin('ticket', { ...order, cont: '0.02' })).not.toBe(afterRefusal);
    intents.settle('ticket', new ApiError(PRICES_NOT_LIVE, 'offline', 0));
    expect(intents.sending('ticket')).toBe(false);
  });

  it("keeps one slot's intent apart from another's", () => {
    const intents = new IntentKeys();
    const one = intents.begin('close:1', 1);
    const two = intents.begin('close:2', 2);
    expect(one).not.toBeNull();
    expect(two).not.toBeNull();
    expect(one).not.toBe(two);
  });
});
