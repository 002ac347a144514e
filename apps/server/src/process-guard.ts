import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';

/**
 * Keeps the server answering after a fault that escaped every handler: one request (however it got
 * there) must not take down every trader's session and the engine with it. The fault is logged in full
 * for the operators; money paths are transactions, so a request that failed half-way changed nothing.
 */
export function guardProcess(target: EventEmitter, log: Pick<Logger, 'error'>) {
  target.on('uncaughtException', (error: unknown, origin: unknown) => {
    log.error({ err: error, origin }, 'an uncaught exception was caught by the process guard; still serving');
  });
  target.on('unhandledRejection', (reason: unknown) => {
    log.error({ err: reason }, 'an unhandled rejection was caught by the process guard; still serving');
  });
}
