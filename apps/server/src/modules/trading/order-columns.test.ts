import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { NO_SLOT, OrderColumns } from './order-columns.js';
import type { WatchedOrder } from './watch.js';

const order = (patch: Partial<WatchedOrder> & Pick<WatchedOrder, 'id'>): WatchedOrder => ({
  userId: 7,
  instrumentId: 3,
  side: 1,
  status: 1,
  lots: '0.10',
  margin: '110.00',
  openPrice: '1.10000',
  contractSize: 100_000,
  targetPrice: null,
  fillDirection: null,
  takeProfit: 1.2,
  stopLoss: null,
  ...patch,
});

describe('order columns', () => {
  it('gives back every order with the same values, and texts past a double’s digits exactly', () => {
    const columns = new OrderColumns();
    const plain = order({ id: 1 });
    const long = order({ id: 2, margin: '123456789012.345678', openPrice: '98765.4321098765432' });
    const pending = order({ id: 3, status: 0, openPrice: null, targetPrice: 1.05, fillDirection: 'fall', takeProfit: null });
    let head = NO_SLOT;
    const slots = [plain, long, pending].map((each) => (head = columns.store(each, head)));

    const back = slots.map((slot) => columns.read(slot));
    expect(back[0]).toEqual({ ...plain, margin: '110', openPrice: '1.1' });
    expect(new Decimal(back[0]!.margin).eq(plain.margin)).toBe(true);
    expect(back[1]).toEqual(long);
    expect(back[2]).toEqual({ ...pending, margin: '110' });
    expect(columns.lotsOf(slots[0]!)).toBe('0.10');
    expect(columns.lotsValue(slots[0]!)).toBe(0.1);
  });

  it('keeps each account’s list linked as slots are freed and reused', () => {
    const columns = new OrderColumns();
    let head = NO_SLOT;
    const slots = [1, 2, 3, 4].map((id) => (head = columns.store(order({ id }), head)));
    const ids = () => Array.from(columns.list(head), (slot) => columns.id[slot]);
    expect(ids()).toEqual([4, 3, 2, 1]);
    head = columns.release(slots[3]!, head);
    head = columns.release(slots[1]!, head);
    expect(ids()).toEqual([3, 1]);
    expect(columns.slotOfOrder(2)).toBeUndefined();
    head = columns.store(order({ id: 5, margin: '1.2345678901234567' }), head);
    expect(ids()).toEqual([5, 3, 1]);
    expect(columns.read(columns.slotOfOrder(5)!).margin).toBe('1.2345678901234567');
    expect(columns.size).toBe(3);
  });
});
