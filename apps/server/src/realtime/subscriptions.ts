import type { Principal } from '../http/auth.js';
import type { EventBus } from './bus.js';
import type { Connection } from './connection.js';

/**
 * Who receives what: the connections subscribed to each topic, and the logged-in connections of each
 * user. The first socket a user logs in with, and the last one leaving, are published as presence.
 */
export class Subscriptions {
  private readonly topics = new Map<string, Set<Connection>>();
  private readonly users = new Map<number, Set<Connection>>();

  constructor(private readonly bus: EventBus) {}

  subscribersOf(topic: string): ReadonlySet<Connection> | undefined {
    return this.topics.get(topic);
  }

  connectionsOf(userId: number): ReadonlySet<Connection> | undefined {
    return this.users.get(userId);
  }

  subscribe(conn: Connection, topic: string) {
    conn.subscriptions.add(topic);
    const set = this.topics.get(topic) ?? new Set();
    set.add(conn);
    this.topics.set(topic, set);
  }

  /** Also drops the frames the connection still holds for the topic. */
  unsubscribe(conn: Connection, topic: string) {
    if (!conn.subscriptions.delete(topic)) return;
    const set = this.topics.get(topic);
    set?.delete(conn);
    if (set?.size === 0) this.topics.delete(topic);
    for (const [key, pending] of conn.pending ?? []) if (pending.topic === topic) conn.pending?.delete(key);
  }

  logIn(conn: Connection, principal: Principal, token: string) {
    conn.principal = principal;
    conn.token = token;
    const set = this.users.get(principal.userId) ?? new Set();
    set.add(conn);
    this.users.set(principal.userId, set);
    // The risk engine pushes FOREX_TRADE only to users with a logged-in socket somewhere.
    if (set.size === 1) this.bus.publish('realtime.presence', { userId: principal.userId, online: true });
  }

  dropLogin(conn: Connection) {
    if (conn.principal) {
      const set = this.users.get(conn.principal.userId);
      if (set?.delete(conn) && set.size === 0) {
        this.users.delete(conn.principal.userId);
        this.bus.publish('realtime.presence', { userId: conn.principal.userId, online: false });
      }
    }
    conn.principal = null;
    conn.token = null;
  }

  /** Logs out the connections of these sessions (revoked elsewhere); the sockets stay open. */
  dropSessions(connections: Iterable<Connection>, sessionIds: number[]) {
    const revoked = new Set(sessionIds);
    for (const conn of connections) {
      if (conn.principal && revoked.has(conn.principal.sessionId)) this.dropLogin(conn);
    }
  }

  /** A closed connection: out of every topic and its user's set. */
  forget(conn: Connection) {
    this.dropLogin(conn);
    for (const topic of conn.subscriptions) {
      const set = this.topics.get(topic);
      set?.delete(conn);
      if (set?.size === 0) this.topics.delete(topic);
    }
    conn.subscriptions.clear();
  }
}
