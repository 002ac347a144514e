import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { SOCKET_PATH, SocketTopic } from '@pipwise/domain';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Module } from '../context.js';
import type { Principal, TokenResolver } from '../http/auth.js';
import { clientAddress, proxyTrust, type ProxyTrust } from '../http/client-address.js';
import type { EventBus } from './bus.js';
import { LoginGuard, type LoginGuardOptions } from './login-guard.js';

/**
 * Socket delivery goes through the bus so that any process (the engine, another gateway) can push to
 * the sockets this process holds. The hub below subscribes to both events.
 */
declare module './bus.js' {
  interface BusEvents {
    /** To every connection subscribed to `topic` (DAY_MARKET, KLINE.<code>). */
    'realtime.topic': { topic: string; data: unknown };
    /** To the connections logged in as `userId` and subscribed to `topic` (FOREX_TRADE, FOREX_CLOSED, FOREX_FILLED). */
    'realtime.user': { userId: number; topic: string; data: unknown };
  }
}

export interface HubOptions {
  /** Largest client frame; clients send only small control messages. */
  maxPayload: number;
  maxSubscriptions: number;
  maxConnections: number;
  /** Above this many unsent bytes a connection is congested: frames wait, latest per topic. */
  highWaterBytes: number;
  /** A connection that sent nothing (no message, no pong) for longer is terminated. */
  silentLimitMs: number;
  /** Silence after which the server pings (two unanswered pings fit in the silent limit). */
  pingAfterMs: number;
  sweepIntervalMs: number;
  drainIntervalMs: number;
  /** Messages that may wait behind a login or logout (a database look-up) before further ones are dropped. */
  maxBacklog: number;
  /** Sockets one address may hold open at once (SOCKETS_PER_ADDRESS unless given here). */
  maxConnectionsPerAddress: number;
  /**
   * A connection may send this many messages per second on average, in bursts up to `messageBurst` (a
   * reconnect re-sends the login and every subscription at once); beyond, it is closed.
   */
  messagesPerSecond: number;
  messageBurst: number;
  /** Failed logins after which a connection is closed: a client with a stale token fails once. */
  maxFailedLogins: number;
  loginGuard: Partial<LoginGuardOptions>;
}

export const DEFAULT_HUB_OPTIONS: HubOptions = {
  maxPayload: 4 * 1024,
  maxSubscriptions: 64,
  maxConnections: 50_000,
  highWaterBytes: 64 * 1024,
  silentLimitMs: 30_000,
  pingAfterMs: 10_000,
  sweepIntervalMs: 5_000,
  drainIntervalMs: 50,
  maxBacklog: 64,
  maxConnectionsPerAddress: 100,
  messagesPerSecond: 20,
  messageBurst: 100,
  maxFailedLogins: 3,
  loginGuard: {},
};

/** Close code for a client that broke the rules (flooding, repeated bad logins). */
export const POLICY_VIOLATION = 1008;

/** Topics whose payload is a list that a slow consumer must receive whole: pending lists are merged. */
const ACCUMULATING_TOPICS = new Set<string>([SocketTopic.forexClosed, SocketTopic.forexFilled]);
const MAX_ACCUMULATED_ITEMS = 1000;
const TOPIC_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_LOGGED_BAD_FRAMES = 3;
const TEXT = { binary: false } as const;

type ClientMessage = { type: string; token?: unknown; topic?: unknown };

interface PendingFrame {
  topic: string;
  frame?: Buffer;
  items?: unknown[];
}

class Connection {
  readonly subscriptions = new Set<string>();
  principal: Principal | null = null;
  token: string | null = null;
  lastSeen: number;
  lastPing = 0;
  badFrames = 0;
  failedLogins = 0;
  /** Message allowance of the rate limit (a token bucket refilled by elapsed time). */
  allowance: number;
  allowanceAt = performance.now();
  /** Closed for a violation: whatever else it sends is ignored. */
  refused = false;
  /** Messages that arrived while a login or logout was being looked up; handled in order after it. */
  readonly backlog: ClientMessage[] = [];
  busy = false;
  /** Frames held back while congested: one per coalescing key, oldest first. */
  readonly pending = new Map<string, PendingFrame>();

  constructor(
    readonly ws: WebSocket,
    readonly address: string,
    now: number,
    burst: number,
  ) {
    this.lastSeen = now;
    this.allowance = burst;
  }
}

export interface HubStats {
  connections: number;
  loggedIn: number;
  congested: number;
  pendingFrames: number;
  maxPendingFrames: number;
  maxBufferedAmount: number;
}

export interface HubDeps {
  bus: EventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  resolveToken: TokenResolver;
  /** The accounts service's logout: revokes the token for HTTP and every socket. */
  revokeToken: (token: string) => Promise<void>;
  config: Pick<Config, 'trustProxy' | 'allowedOrigins' | 'socketsPerAddress'>;
}

/**
 * The WebSocket hub (docs/architecture.md, "Socket"). A broadcast serialises its frame once and hands the same buffer to
 * every subscriber; a congested connection keeps only the latest frame per topic until its buffer
 * drains, so memory per connection is bounded by its subscriptions, never by the feed's rate.
 */
export class Hub {
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<Connection>();
  private readonly topics = new Map<string, Set<Connection>>();
  private readonly users = new Map<number, Set<Connection>>();
  private readonly congested = new Set<Connection>();
  private readonly perAddress = new Map<string, number>();
  private readonly loginGuard: LoginGuard;
  private readonly allowedOrigins: Set<string>;
  private readonly corked = new Set<Connection>();
  private readonly unsubscribers: (() => void)[] = [];
  private sweepTimer: NodeJS.Timeout | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  private closing = false;
  private readonly options: HubOptions;
  private readonly trust: ProxyTrust;

  constructor(
    private readonly deps: HubDeps,
    options: Partial<HubOptions> = {},
  ) {
    this.options = { ...DEFAULT_HUB_OPTIONS, maxConnectionsPerAddress: deps.config.socketsPerAddress, ...options };
    this.loginGuard = new LoginGuard(deps.clock, this.options.loginGuard);
    this.allowedOrigins = new Set(deps.config.allowedOrigins);
    this.trust = proxyTrust(deps.config.trustProxy);
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.options.maxPayload,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.unsubscribers.push(
      deps.bus.subscribe('realtime.topic', ({ topic, data }) => this.broadcast(topic, data)),
      deps.bus.subscribe('realtime.user', ({ userId, topic, data }) => this.sendToUser(userId, topic, data)),
      deps.bus.subscribe('session.revoked', ({ sessionIds }) => this.dropSessions(sessionIds)),
    );
  }

  /**
   * Liveness runs on monotonic time, as the rate limit does: a step of the wall clock (an NTP correction,
   * a resumed VM) must not make every socket look silent at once.
   */
  private now() {
    return performance.now();
  }

  /** Takes over upgrades of the socket path on the Fastify server; closes every socket on shutdown. */
  attach(app: FastifyInstance) {
    app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.handleUpgrade(request, socket, head),
    );
    app.addHook('preClose', async () => this.closeAll());
  }

  private handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    const refuse = (status: string, extra = '') =>
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n${extra}Content-Length: 0\r\n\r\n`);
    const pathname = (request.url ?? '/').split('?')[0];
    if (pathname !== SOCKET_PATH) return refuse('404 Not Found');
    // Another site's page must not ride on the visitor's connection (cross-site WebSocket hijacking).
    if (!this.originAllowed(request)) return refuse('403 Forbidden');
    if (this.closing || this.connections.size >= this.options.maxConnections) return refuse('503 Service Unavailable');
    const address = clientAddress(request, this.trust);
    const blockedFor = this.loginGuard.blockedFor(address);
    if (blockedFor > 0) return refuse('429 Too Many Requests', `Retry-After: ${blockedFor}\r\n`);
    if ((this.perAddress.get(address) ?? 0) >= this.options.maxConnectionsPerAddress) return refuse('429 Too Many Requests');
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, address));
  }

  /**
   * Browsers always send Origin on a WebSocket upgrade: it must be this server's own (the Host the page
   * was loaded from) or a configured one. Other clients send none and are let through: without a
   * browser's cookies or stored token there is nothing of the visitor's to ride on.
   */
  private originAllowed(request: IncomingMessage): boolean {
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    if (this.allowedOrigins.has(origin)) return true;
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return false;
    }
    // As Fastify's request.host: the nearest proxy's X-Forwarded-Host when that proxy is trusted.
    const peer = request.socket.remoteAddress;
    const forwarded = peer !== undefined && this.trust(peer, 0) ? lastValue(request.headers['x-forwarded-host']) : undefined;
    return host === (forwarded ?? request.headers.host)?.toLowerCase();
  }

  private accept(ws: WebSocket, address: string) {
    const conn = new Connection(ws, address, this.now(), this.options.messageBurst);
    this.connections.add(conn);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    ws.on('message', (raw, isBinary) => this.receive(conn, raw, isBinary));
    ws.on('pong', () => {
      conn.lastSeen = this.now();
    });
    ws.on('error', (error) => this.deps.log.debug({ err: error }, 'socket error'));
    ws.on('close', () => this.forget(conn));
  }

  start() {
    this.sweepTimer = setInterval(() => this.sweep(), this.options.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  async stop() {
    clearInterval(this.sweepTimer);
    clearInterval(this.drainTimer);
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    await this.closeAll();
  }

  // ── client messages ───────────────────────────────────────────────────────────────────────────────

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

  private receive(conn: Connection, raw: RawData, isBinary: boolean) {
    if (conn.refused) return;
    conn.lastSeen = this.now();
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
        return this.sendNow(conn, { type: 'pong' });
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
    return this.deps.resolveToken(raw).then((principal) => {
      if (!principal) {
        this.loginGuard.rememberRejected(raw);
        this.loginGuard.recordFailure(conn.address);
        return this.failedLogin(conn);
      }
      if (conn.ws.readyState !== WebSocket.OPEN) return;
      conn.principal = principal;
      conn.token = raw;
      const set = this.users.get(principal.userId) ?? new Set();
      set.add(conn);
      this.users.set(principal.userId, set);
      // The risk engine pushes FOREX_TRADE only to users with a logged-in socket somewhere.
      if (set.size === 1) this.deps.bus.publish('realtime.presence', { userId: principal.userId, online: true });
    });
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
    this.dropLogin(conn);
    if (token) return this.deps.revokeToken(token);
  }

  private dropLogin(conn: Connection) {
    if (conn.principal) {
      const set = this.users.get(conn.principal.userId);
      if (set?.delete(conn) && set.size === 0) {
        this.users.delete(conn.principal.userId);
        this.deps.bus.publish('realtime.presence', { userId: conn.principal.userId, online: false });
      }
    }
    conn.principal = null;
    conn.token = null;
  }

  private dropSessions(sessionIds: number[]) {
    const revoked = new Set(sessionIds);
    for (const conn of this.connections) {
      if (conn.principal && revoked.has(conn.principal.sessionId)) this.dropLogin(conn);
    }
  }

  private subscribe(conn: Connection, topic: unknown) {
    if (typeof topic !== 'string' || !TOPIC_PATTERN.test(topic)) return this.bad(conn, 'sub without a valid topic');
    if (conn.subscriptions.has(topic)) return;
    if (conn.subscriptions.size >= this.options.maxSubscriptions) return this.bad(conn, 'subscription limit reached');
    conn.subscriptions.add(topic);
    const set = this.topics.get(topic) ?? new Set();
    set.add(conn);
    this.topics.set(topic, set);
  }

  private unsubscribe(conn: Connection, topic: unknown) {
    if (typeof topic !== 'string') return this.bad(conn, 'unsub without a topic');
    if (!conn.subscriptions.delete(topic)) return;
    const set = this.topics.get(topic);
    set?.delete(conn);
    if (set?.size === 0) this.topics.delete(topic);
    for (const [key, pending] of conn.pending) if (pending.topic === topic) conn.pending.delete(key);
  }

  private forget(conn: Connection) {
    if (!this.connections.delete(conn)) return;
    const count = (this.perAddress.get(conn.address) ?? 1) - 1;
    if (count > 0) this.perAddress.set(conn.address, count);
    else this.perAddress.delete(conn.address);
    this.congested.delete(conn);
    this.dropLogin(conn);
    for (const topic of conn.subscriptions) {
      const set = this.topics.get(topic);
      set?.delete(conn);
      if (set?.size === 0) this.topics.delete(topic);
    }
    conn.subscriptions.clear();
    conn.pending.clear();
  }

  // ── delivery ──────────────────────────────────────────────────────────────────────────────────────

  /** To every subscriber of `topic`; the frame is serialised once for all of them. */
  broadcast(topic: string, data: unknown) {
    const subscribers = this.topics.get(topic);
    if (!subscribers || subscribers.size === 0) return;
    const frame = Buffer.from(JSON.stringify({ type: topic, data }));
    const key = coalescingKey(topic, data);
    for (const conn of subscribers) this.deliver(conn, key, topic, frame, data);
  }

  /** To `userId`'s logged-in connections that subscribed to `topic`. */
  sendToUser(userId: number, topic: string, data: unknown) {
    const connections = this.users.get(userId);
    if (!connections) return;
    let frame: Buffer | undefined;
    const key = coalescingKey(topic, data);
    for (const conn of connections) {
      if (!conn.subscriptions.has(topic)) continue;
      frame ??= Buffer.from(JSON.stringify({ type: topic, data }));
      this.deliver(conn, key, topic, frame, data);
    }
  }

  private deliver(conn: Connection, key: string, topic: string, frame: Buffer, data: unknown) {
    const { ws } = conn;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (conn.pending.size === 0 && ws.bufferedAmount <= this.options.highWaterBytes) {
      this.cork(conn);
      ws.send(frame, TEXT);
      return;
    }
    this.hold(conn, key, topic, frame, data);
  }

  /**
   * A feed step broadcasts several frames in one synchronous burst; holding each socket's writes until
   * the burst ends sends them in one system call per client instead of one per frame. `ws` has no
   * public handle on its socket, so this reaches for `_socket` and does nothing without it.
   */
  private cork(conn: Connection) {
    if (this.corked.has(conn)) return;
    const socket = (conn.ws as unknown as { _socket?: Duplex })._socket;
    if (!socket) return;
    socket.cork();
    this.corked.add(conn);
    if (this.corked.size === 1) process.nextTick(() => this.uncorkAll());
  }

  private uncorkAll() {
    for (const conn of this.corked) (conn.ws as unknown as { _socket?: Duplex })._socket?.uncork();
    this.corked.clear();
  }

  /** Keeps the latest frame per key (lists of accumulating topics are merged), oldest key dropped past the cap. */
  private hold(conn: Connection, key: string, topic: string, frame: Buffer, data: unknown) {
    const previous = conn.pending.get(key);
    conn.pending.delete(key);
    if (ACCUMULATING_TOPICS.has(topic) && Array.isArray(data)) {
      const items = [...(previous?.items ?? []), ...(data as unknown[])];
      conn.pending.set(key, { topic, items: [...new Set(items)].slice(-MAX_ACCUMULATED_ITEMS) });
    } else {
      conn.pending.set(key, { topic, frame });
    }
    if (conn.pending.size > this.options.maxSubscriptions * 8) {
      const oldest = conn.pending.keys().next().value;
      if (oldest !== undefined) conn.pending.delete(oldest);
    }
    this.congested.add(conn);
    this.drainTimer ??= setInterval(() => this.drain(), this.options.drainIntervalMs);
  }

  private drain() {
    for (const conn of this.congested) {
      const { ws } = conn;
      if (ws.readyState !== WebSocket.OPEN) {
        this.congested.delete(conn);
        conn.pending.clear();
        continue;
      }
      if (ws.bufferedAmount > this.options.highWaterBytes / 2) continue;
      for (const pending of conn.pending.values()) {
        ws.send(pending.frame ?? Buffer.from(JSON.stringify({ type: pending.topic, data: pending.items })), TEXT);
      }
      conn.pending.clear();
      this.congested.delete(conn);
    }
    if (this.congested.size === 0) {
      clearInterval(this.drainTimer);
      this.drainTimer = undefined;
    }
  }

  private sendNow(conn: Connection, message: unknown) {
    if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify(message));
  }

  // ── liveness and shutdown ─────────────────────────────────────────────────────────────────────────

  /** Terminates connections silent past the limit (two pings unanswered) and pings the quiet ones. */
  sweep() {
    this.loginGuard.sweep();
    const now = this.now();
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

  /** Sends a going-away close to every socket and terminates those that have not closed within a second. */
  async closeAll() {
    this.closing = true;
    const open = [...this.connections];
    for (const conn of open) conn.ws.close(1001, 'server shutting down');
    for (let waited = 0; this.connections.size > 0 && waited < 1_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const conn of [...this.connections]) {
      conn.ws.terminate();
      this.forget(conn);
    }
  }

  stats(): HubStats {
    let pendingFrames = 0;
    let maxPendingFrames = 0;
    let maxBufferedAmount = 0;
    let loggedIn = 0;
    for (const conn of this.connections) {
      pendingFrames += conn.pending.size;
      maxPendingFrames = Math.max(maxPendingFrames, conn.pending.size);
      maxBufferedAmount = Math.max(maxBufferedAmount, conn.ws.bufferedAmount);
      if (conn.principal) loggedIn++;
    }
    return {
      connections: this.connections.size,
      loggedIn,
      congested: this.congested.size,
      pendingFrames,
      maxPendingFrames,
      maxBufferedAmount,
    };
  }
}

function lastValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.at(-1) : header;
  return value?.split(',').at(-1)?.trim().toLowerCase() || undefined;
}

/** KLINE frames carry every period on one topic: the latest bar of each period is kept, not just one. */
function coalescingKey(topic: string, data: unknown): string {
  const period = data && typeof data === 'object' ? (data as { Period?: unknown }).Period : undefined;
  return typeof period === 'string' ? `${topic}|${period}` : topic;
}

export function createRealtimeModule(deps: HubDeps, options?: Partial<HubOptions>) {
  const hub = new Hub(deps, options);
  const module: Module = {
    name: 'realtime',
    attach: (app) => hub.attach(app),
    start: async () => hub.start(),
    stop: () => hub.stop(),
  };
  return { hub, module };
}
