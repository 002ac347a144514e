import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Module } from '../context.js';
import type { TokenResolver } from '../http/auth.js';
import { SharedLimits } from '../security/shared-limits.js';
import { Admission } from './admission.js';
import type { EventBus } from './bus.js';
import { Connection, monotonicNow } from './connection.js';
import { Delivery } from './delivery.js';
import { Liveness } from './liveness.js';
import { LoginGuard, type LoginGuardOptions } from './login-guard.js';
import { ClientMessages } from './messages.js';
import { Subscriptions } from './subscriptions.js';

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
   * Upgrades accepted per second on average, in bursts up to `upgradeBurst`; beyond, a 503 with
   * Retry-After (admission.ts). Bounds what a reconnect storm takes from the API. SOCKET_UPGRADES_PER_SECOND
   * and SOCKET_UPGRADE_BURST unless given here.
   */
  upgradesPerSecond: number;
  upgradeBurst: number;
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

/** The hub's settings but those the configuration gives (per address, upgrade rate and burst). */
export const DEFAULT_HUB_OPTIONS: Omit<HubOptions, 'maxConnectionsPerAddress' | 'upgradesPerSecond' | 'upgradeBurst'> = {
  maxPayload: 4 * 1024,
  maxSubscriptions: 64,
  maxConnections: 50_000,
  highWaterBytes: 16 * 1024,
  silentLimitMs: 30_000,
  pingAfterMs: 10_000,
  sweepIntervalMs: 5_000,
  drainIntervalMs: 50,
  maxBacklog: 64,
  messagesPerSecond: 20,
  messageBurst: 100,
  maxFailedLogins: 3,
  loginGuard: {},
};

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
  config: Pick<Config, 'trustProxy' | 'allowedOrigins' | 'socketsPerAddress' | 'socketUpgradesPerSecond' | 'socketUpgradeBurst'>;
  /** Where the socket-login failure budget is counted; this process's memory when absent. */
  limits?: SharedLimits;
}

/**
 * The WebSocket hub (docs/architecture.md, "Socket"), composed of one part per concern: admission
 * (`admission.ts`: path, origin, capacity, per-address caps), the clients' messages (`messages.ts`:
 * rate limit, login, subscribing), who receives what (`subscriptions.ts`), delivery with back-pressure
 * (`delivery.ts`) and liveness (`liveness.ts`), over the connections it holds (`connection.ts`).
 */
export class Hub {
  private readonly connections = new Set<Connection>();
  private readonly options: HubOptions;
  private readonly admission: Admission;
  private readonly subscriptions: Subscriptions;
  private readonly delivery: Delivery;
  private readonly messages: ClientMessages;
  private readonly liveness: Liveness;
  private readonly unsubscribers: (() => void)[] = [];

  constructor(
    private readonly deps: HubDeps,
    options: Partial<HubOptions> = {},
  ) {
    this.options = {
      ...DEFAULT_HUB_OPTIONS,
      maxConnectionsPerAddress: deps.config.socketsPerAddress,
      upgradesPerSecond: deps.config.socketUpgradesPerSecond,
      upgradeBurst: deps.config.socketUpgradeBurst,
      ...options,
    };
    const loginGuard = new LoginGuard(deps.clock, deps.limits ?? new SharedLimits(undefined), this.options.loginGuard);
    this.admission = new Admission(deps.config, this.options, loginGuard);
    this.subscriptions = new Subscriptions(deps.bus);
    this.delivery = new Delivery(this.subscriptions, this.options);
    this.messages = new ClientMessages(deps, this.options, loginGuard, this.subscriptions, this.delivery);
    this.liveness = new Liveness(this.options, loginGuard, this.connections, (conn) => this.forget(conn));
    this.unsubscribers.push(
      deps.bus.subscribe('realtime.topic', ({ topic, data }) => this.broadcast(topic, data)),
      deps.bus.subscribe('realtime.user', ({ userId, topic, data }) => this.sendToUser(userId, topic, data)),
      deps.bus.subscribe('session.revoked', ({ sessionIds }) => this.subscriptions.dropSessions(this.connections, sessionIds)),
      deps.bus.onConnectionChange((connected) => this.busChanged(connected)),
    );
    this.admission.busDown = !deps.bus.connected;
  }

  /**
   * Without the bus this gateway hears nothing from the others (quotes, fills, closes), so its sockets
   * would look live while showing stale figures. They are closed (1013, try again later) and new ones
   * refused until the bus is back: clients show that they are reconnecting, and when they get in again
   * they re-read what they show, so nothing that happened meanwhile is missed.
   */
  private busChanged(connected: boolean) {
    this.admission.busDown = !connected;
    if (connected) return;
    this.deps.log.warn({ sockets: this.connections.size }, 'event bus lost: closing sockets until it is back');
    void this.closeEvery(1013, 'event bus down');
  }

  /** Takes over upgrades of the socket path on the Fastify server; closes every socket on shutdown. */
  attach(app: FastifyInstance) {
    app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.admission.upgrade(request, socket, head, this.connections.size, (ws, address) => this.accept(ws, address)),
    );
    app.addHook('preClose', async () => this.closeAll());
  }

  private accept(ws: WebSocket, address: string) {
    const conn = new Connection(ws, address, monotonicNow(), this.options.messageBurst);
    this.connections.add(conn);
    this.admission.opened(address);
    ws.on('message', (raw, isBinary) => this.messages.receive(conn, raw, isBinary));
    ws.on('pong', () => this.liveness.seen(conn));
    ws.on('error', (error) => this.deps.log.debug({ err: error }, 'socket error'));
    ws.on('close', () => this.forget(conn));
  }

  private forget(conn: Connection) {
    if (!this.connections.delete(conn)) return;
    this.admission.closed(conn.address);
    this.delivery.forget(conn);
    this.subscriptions.forget(conn);
    conn.pending = undefined;
  }

  start() {
    this.liveness.start();
  }

  async stop() {
    this.liveness.stop();
    this.delivery.stop();
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    await this.closeAll();
  }

  /** To every subscriber of `topic`; the frame is serialised once for all of them. */
  broadcast(topic: string, data: unknown) {
    this.delivery.broadcast(topic, data);
  }

  /** To `userId`'s logged-in connections that subscribed to `topic`. */
  sendToUser(userId: number, topic: string, data: unknown) {
    this.delivery.sendToUser(userId, topic, data);
  }

  /** Terminates connections silent past the limit (two pings unanswered) and pings the quiet ones. */
  sweep() {
    this.liveness.sweep();
  }

  /** Sends a going-away close to every socket and terminates those that have not closed within a second. */
  async closeAll() {
    this.admission.stopAdmitting();
    await this.closeEvery(1001, 'server shutting down');
  }

  private async closeEvery(code: number, reason: string) {
    for (const conn of [...this.connections]) conn.ws.close(code, reason);
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
      const held = conn.pending?.size ?? 0;
      pendingFrames += held;
      maxPendingFrames = Math.max(maxPendingFrames, held);
      maxBufferedAmount = Math.max(maxBufferedAmount, conn.ws.bufferedAmount);
      if (conn.principal) loggedIn++;
    }
    return {
      connections: this.connections.size,
      loggedIn,
      congested: this.delivery.congestedCount,
      pendingFrames,
      maxPendingFrames,
      maxBufferedAmount,
    };
  }
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
