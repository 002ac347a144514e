import { monotonicNow, type Connection } from './connection.js';
import type { HubOptions } from './hub.js';
import type { LoginGuard } from './login-guard.js';

/**
 * Dead sockets: every sweep pings the quiet connections and terminates those silent past the limit
 * (two pings unanswered). A pong or any message counts as a sign of life.
 */
export class Liveness {
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: Pick<HubOptions, 'silentLimitMs' | 'pingAfterMs' | 'sweepIntervalMs'>,
    private readonly loginGuard: LoginGuard,
    private readonly connections: ReadonlySet<Connection>,
    /** Drops a terminated connection from the hub at once, not when its close event comes. */
    private readonly forget: (conn: Connection) => void,
  ) {}

  start() {
    this.sweepTimer = setInterval(() => this.sweep(), this.options.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  stop() {
    clearInterval(this.sweepTimer);
  }

  seen(conn: Connection) {
    conn.lastSeen = monotonicNow();
  }

  /** Terminates connections silent past the limit (two pings unanswered) and pings the quiet ones. */
  sweep() {
    this.loginGuard.sweep();
    const now = monotonicNow();
    for (const conn of this.connections) {
      const silent = now - conn.lastSeen;
      if (silent > this.options.silentLimitMs) {
        conn.ws.terminate();
        this.forget(conn);
      } else if (silent > this.options.pingAfterMs && now - conn.lastPing >= this.options.pingAfterMs) {
        conn.lastPing = now;
        conn.ws.ping();
      }
    }
  }
}
