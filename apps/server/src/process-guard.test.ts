import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { guardProcess } from './process-guard.js';

describe('process guard', () => {
  it('logs an uncaught exception and an unhandled rejection instead of letting them end the process', () => {
    const target = new EventEmitter();
    const logged: unknown[] = [];
    guardProcess(target, { error: (fields: unknown) => logged.push(fields) });
    // Without a listener, Node ends the process on these events.
    expect(target.listenerCount('uncaughtException')).toBe(1);
    expect(target.listenerCount('unhandledRejection')).toBe(1);
    const fault = new TypeError('value.trim is not a function');
    target.emit('uncaughtException', fault, 'uncaughtException');
    target.emit('unhandledRejection', new Error('late'));
    expect(logged).toEqual([{ err: fault, origin: 'uncaughtException' }, { err: expect.objectContaining({ message: 'late' }) }]);
  });
});
