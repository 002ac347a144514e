import { describe, expect, it } from 'vitest';
import type { Quote } from '../market/api.js';
import type { EngineAction } from './action-batch.js';
import { nextBatchSize, writingOf } from './engine-actions.js';

const quote = {} as Quote;
const stopOut = (userId: number): EngineAction => ({ kind: 'stop_out', userId });
const level = (kind: 'stop_loss' | 'take_profit' | 'fill', userId: number): EngineAction => ({
  kind,
  userId,
  orderId: userId * 10,
  quote,
});

/** Which actions a batch may take beside those being written: none may overtake one asked for before it. */
describe('engine action batches in flight', () => {
  it('takes up to the limit from the front when nothing is being written, whatever the classes', () => {
    const queue = [stopOut(1), level('stop_loss', 2), level('take_profit', 3)];
    expect(nextBatchSize(queue, [], 2)).toBe(2);
    expect(nextBatchSize(queue, [], 500)).toBe(3);
  });

  it('beside a batch of one class, takes the front run of that class on none of its accounts', () => {
    const writing = [writingOf([level('stop_loss', 1), level('stop_loss', 2)])];
    const queue = [level('stop_loss', 3), level('stop_loss', 4), level('stop_loss', 1), level('stop_loss', 5)];
    // Account 1's next action waits for its batch, and so does everything behind it.
    expect(nextBatchSize(queue, writing, 500)).toBe(2);
    expect(nextBatchSize(queue, writing, 1)).toBe(1);
    // Take-profits and fills are one class.
    expect(nextBatchSize([level('fill', 7), level('take_profit', 8)], [writingOf([level('take_profit', 6)])], 500)).toBe(2);
  });

  it('starts nothing beside a batch of another class, nor beside one of several classes', () => {
    // A stop-out asked for after these stop-losses is not written before them, nor a take-profit.
    const stopLosses = [writingOf([level('stop_loss', 1)])];
    expect(nextBatchSize([stopOut(2)], stopLosses, 500)).toBe(0);
    expect(nextBatchSize([level('take_profit', 3)], stopLosses, 500)).toBe(0);
    const mixed = [writingOf([stopOut(1), level('stop_loss', 2)])];
    expect(nextBatchSize([level('stop_loss', 3)], mixed, 500)).toBe(0);
    expect(nextBatchSize([stopOut(4)], mixed, 500)).toBe(0);
    // Beside two batches of one class, on neither's accounts.
    const two = [writingOf([stopOut(1)]), writingOf([stopOut(2)])];
    expect(nextBatchSize([stopOut(3), stopOut(2)], two, 500)).toBe(1);
  });
});
