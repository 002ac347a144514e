import { WebSocket, type RawData } from 'ws';
import { monotonicNow, type ClientMessage, type Connection } from './connection.js';
import type { Delivery } from './delivery.js';
import type { HubDeps, HubOptions } from './hub.js';
import type { LoginGuard } from './login-guard.js';
import type { Subscriptions } from './subscriptions.js';

/** Close code for a client that broke the rules (flooding, repeated bad logins). */
export const POLICY_VIOLATION = 1008;

const TOPIC_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_LOGGED_BAD_FRAMES = 3;

/**
 * What clients send (`login`, `logout`, `sub`, `unsub`, `ping`): rate-limited per connection, handled
 * in order, malformed frames ignored and counted, a connection that breaks a rule closed with 1008.
 */
export class ClientMessages {
  constructor(
    private readonly deps: Pick<HubDeps, 'log' | 'resolveToken' | 'revokeToken'>,
    private readonly options: Pick<
      HubOptions,
      'messagesPerSecond' | 'messageBurst' | 'maxBacklog' | 'maxSubscriptions' | 'maxFailedLogins'
    >,
    private readonly loginGuard: LoginGuard,
    private readonly subscriptions: Subscriptions,
    private readonly delivery: Delivery,
  ) {}

  receive(conn: Connection, raw: RawData, isBinary: boolean) {
    if (conn.refused) return;
    conn.lastSeen = monotonicNow();
    if (!this.withinRate(conn)) return this.refuse(conn, 'too many messages');
    if (isBinary) return this.bad(conn, 'binary frame');
    let message: unknown;
    try {
      message = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : Buffer.concat(raw as Buffer[]).toString('utf8'));
    } catch {
      return this.bad(conn, 'not JSON');
    }
    if (!message || typeof message !== 'object' || typeof (message as ClientMessage).type !== 'string') {
      return this.bad(conn, 'no type');
    }
    if (conn.backlog.length >= this.options.maxBacklog) return this.bad(conn, 'too many messages behind a login');
    conn.backlog.push(message as ClientMessage);
    if (!conn.busy) void this.process(conn);
  }

  private bad(conn: Connection, reason: string) {
    conn.badFrames++;
    if (conn.badFrames <= MAX_LOGGED_BAD_FRAMES) this.deps.log.warn({ reason }, 'ignored a malformed socket message');
  }

  /** Closes a connection that broke a rule; anything it sends meanwhile is ignored. */
  private refuse(conn: Connection, reason: string) {
    if (conn.refused) return;
    conn.refused = true;
    conn.backlog.length = 0;
    this.deps.log.info({ address: conn.address, reason }, 'closed a socket');
    conn.ws.close(POLICY_VIOLATION, reason);
  }

  /** Token bucket: refilled by elapsed (monotonic) time, one token per message. */
  private withinRate(conn: Connection): boolean {
    const now = performance.now();
    const { messagesPerSecond, messageBurst } = this.options;
    conn.allowance = Math.min(messageBurst, conn.allowance + ((now - conn.allowanceAt) / 1000) * messagesPerSecond);
    conn.allowanceAt = now;
    if (conn.allowance < 1) return false;
    conn.allowance--;
    return true;
  }

  /**
   * Handles a connection's messages in order: most at once; while a login or logout waits for the
   * database the rest wait behind it, so a ping sent after a login is answered after the login.
   */
  private async process(conn: Connection) {
    conn.busy = true;
    try {
      for (let message = conn.backlog.shift(); message; message = conn.backlog.shift()) {
        const pending = this.handle(conn, message);
        if (pending) await pending;
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'socket message failed');
    } finally {
      conn.busy = false;
    }
    if (conn.backlog.length > 0) void this.process(conn);
  }

  private handle(conn: Connection, message: ClientMessage): Promise<void> | void {
    switch (message.type) {
      case 'ping':
        return this.delivery.sendNow(conn, { type: 'pong' });
      case 'login':
        return this.login(conn, message.token);
      case 'logout':
        return this.logout(conn);
      case 'sub':
        return this.subscribe(conn, message.topic);
      case 'unsub':
        return this.unsubscribe(conn, message.topic);
      default:
        return this.bad(conn, `unknown type ${message.type.slice(0, 32)}`);
    }
  }

  private login(conn: Connection, token: unknown): Promise<void> | void {
    if (conn.principal) return;
    if (typeof token !== 'string' || token.length === 0 || token.length > 256) {
      this.bad(conn, 'login without token');
      return this.failedLogin(conn);
    }
    if (this.loginGuard.blockedFor(conn.address) > 0) return this.refuse(conn, 'too many failed logins');
    const raw = token.replace(/^Bearer\s+/i, '').trim();
    if (this.loginGuard.isRejected(raw)) return this.failedLogin(conn);
    return this.lookUp(conn, raw);
  }

  private async lookUp(conn: Connection, raw: string) {
    // Failures other gateways counted for this address (when the budget is shared) stop it here too.
    if ((await this.loginGuard.check(conn.address)) > 0) return this.refuse(conn, 'too many failed logins');
    const principal = await this.deps.resolveToken(raw);
    if (!principal) {
      this.loginGuard.rememberRejected(raw);
      await this.loginGuard.recordFailure(conn.address);
      return this.failedLogin(conn);
    }
    if (conn.ws.readyState !== WebSocket.OPEN) return;
    this.subscriptions.logIn(conn, principal, raw);
  }

  /**
   * Every failure counts against the connection; only database look-ups count against the address (its
   * budget bounds what the database pays), so clients behind one address retrying a stale token from
   * memory do not lock each other out. Either running out closes the connection.
   */
  private failedLogin(conn: Connection) {
    conn.failedLogins++;
    if (conn.failedLogins >= this.options.maxFailedLogins || this.loginGuard.blockedFor(conn.address) > 0) {
      this.refuse(conn, 'too many failed logins');
    }
  }

  private logout(conn: Connection): Promise<void> | void {
    const token = conn.token;
    this.subscriptions.dropLogin(conn);
    if (token) return this.deps.revokeToken(token);
  }

  private subscribe(conn: Connection, topic: unknown) {
    if (typeof topic !== 'string' || !TOPIC_PATTERN.test(topic)) return this.bad(conn, 'sub without a valid topic');
    if (conn.subscriptions.has(topic)) return;
    if (conn.subscriptions.size >= this.options.maxSubscriptions) return this.bad(conn, 'subscription limit reached');
    this.subscriptions.subscribe(conn, topic);
  }

  private unsubscribe(conn: Connection, topic: unknown) {
    if (typeof topic !== 'string') return this.bad(conn, 'unsub without a topic');
    this.subscriptions.unsubscribe(conn, topic);
  }
}
