import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { SOCKET_PATH } from '@pipwise/domain';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Config } from '../config.js';
import { clientAddress, proxyTrust, type ProxyTrust } from '../http/client-address.js';
import { monotonicNow } from './connection.js';
import type { HubOptions } from './hub.js';
import type { LoginGuard } from './login-guard.js';

/**
 * Who may open a socket: only on the socket path, from this server's own pages or a configured origin,
 * while the event bus is connected and there is room overall and for the address, and not from an
 * address the login guard has blocked; and no faster than a steady rate (`upgradesPerSecond`), so a reconnect storm (every phone at once after
 * a network blip, or a gateway's sockets after it restarts) cannot take the event loop from the API. A
 * refused upgrade costs a 503 written to the socket; its Retry-After gives each refused client its own
 * later second, so the storm comes back spread out (the web client adds jitter).
 */
export class Admission {
  private readonly wss: WebSocketServer;
  private readonly allowedOrigins: Set<string>;
  private readonly trust: ProxyTrust;
  /** Open sockets per client address. */
  private readonly perAddress = new Map<string, number>();
  private closing = false;
  /** While the event bus is down (the hub closes its sockets then). */
  busDown = false;
  /** Upgrades allowed now (a token bucket refilled at `upgradesPerSecond`, at most `upgradeBurst`). */
  private upgradeAllowance: number;
  private allowanceAt: number;
  /** When the last client told to come back later was told to come (monotonic ms). */
  private lastSlot = 0;

  constructor(
    config: Pick<Config, 'trustProxy' | 'allowedOrigins'>,
    private readonly options: Pick<
      HubOptions,
      'maxPayload' | 'maxConnections' | 'maxConnectionsPerAddress' | 'upgradesPerSecond' | 'upgradeBurst'
    >,
    private readonly loginGuard: LoginGuard,
    private readonly now: () => number = monotonicNow,
  ) {
    this.upgradeAllowance = options.upgradeBurst;
    this.allowanceAt = now();
    this.allowedOrigins = new Set(config.allowedOrigins);
    this.trust = proxyTrust(config.trustProxy);
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload,
      perMessageDeflate: false,
      clientTracking: false,
    });
  }

  /** Upgrades the request to a socket handed to `accept` with the client's address, or refuses it over HTTP. */
  upgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    openConnections: number,
    accept: (ws: WebSocket, address: string) => void,
  ) {
    const refuse = (status: string, extra = '') =>
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n${extra}Content-Length: 0\r\n\r\n`);
    const pathname = (request.url ?? '/').split('?')[0];
    if (pathname !== SOCKET_PATH) return refuse('404 Not Found');
    // Another site's page must not ride on the visitor's connection (cross-site WebSocket hijacking).
    if (!this.originAllowed(request)) return refuse('403 Forbidden');
    if (this.closing || openConnections >= this.options.maxConnections) return refuse('503 Service Unavailable');
    if (this.busDown) return refuse('503 Service Unavailable', `Retry-After: ${BUS_DOWN_RETRY_AFTER_S}\r\n`);
    const address = clientAddress(request, this.trust);
    const blockedFor = this.loginGuard.blockedFor(address);
    if (blockedFor > 0) return refuse('429 Too Many Requests', `Retry-After: ${blockedFor}\r\n`);
    if ((this.perAddress.get(address) ?? 0) >= this.options.maxConnectionsPerAddress) return refuse('429 Too Many Requests');
    const retryAfter = this.takeUpgrade();
    if (retryAfter > 0) return refuse('503 Service Unavailable', `Retry-After: ${retryAfter}\r\n`);
    this.wss.handleUpgrade(request, socket, head, (ws) => accept(ws, address));
  }

  /**
   * 0 when an upgrade may go ahead now; otherwise the seconds after which this client should come back:
   * each refused client gets the next free slot at the steady rate (up to a minute ahead), so those
   * refused together do not all return in the same second.
   */
  private takeUpgrade(): number {
    const now = this.now();
    const { upgradesPerSecond, upgradeBurst } = this.options;
    this.upgradeAllowance = Math.min(upgradeBurst, this.upgradeAllowance + ((now - this.allowanceAt) / 1000) * upgradesPerSecond);
    this.allowanceAt = now;
    if (this.upgradeAllowance >= 1) {
      this.upgradeAllowance--;
      return 0;
    }
    this.lastSlot = Math.min(now + MAX_RETRY_AFTER_MS, Math.max(this.lastSlot, now) + 1000 / upgradesPerSecond);
    // Whole milliseconds: the slots are sums of fractions, and 2000.0000000002 ms must not become 3 s.
    return Math.max(1, Math.ceil(Math.round(this.lastSlot - now) / 1000));
  }

  /** From shutdown on, every upgrade is refused. */
  stopAdmitting() {
    this.closing = true;
  }

  opened(address: string) {
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
  }

  closed(address: string) {
    const count = (this.perAddress.get(address) ?? 1) - 1;
    if (count > 0) this.perAddress.set(address, count);
    else this.perAddress.delete(address);
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
}

const MAX_RETRY_AFTER_MS = 60_000;
const BUS_DOWN_RETRY_AFTER_S = 5;

function lastValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.at(-1) : header;
  return value?.split(',').at(-1)?.trim().toLowerCase() || undefined;
}
