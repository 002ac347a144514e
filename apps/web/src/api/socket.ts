import { HEARTBEAT_INTERVAL_MS, MAX_MISSED_PONGS, SOCKET_CONNECT_TIMEOUT_MS } from '@pipwise/domain';

/** The part of the browser WebSocket the client uses, so tests can hand in a scripted one. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
}

const OPEN = 1;
const MAX_BACKOFF_MS = 30_000;
const FIRST_BACKOFF_MS = 1_000;

export interface LiveSocketOptions {
  url: () => string;
  create: (url: string) => SocketLike;
  warn?: (message: string, detail?: unknown) => void;
  /** A number in [0, 1): the jitter of the backoff (Math.random unless a test fixes it). */
  random?: () => number;
}

type Handler = (data: unknown) => void;

/**
 * The live connection (docs/api.md): logs in once per token, pings every 5 s and reconnects after more
 * than 2 unanswered pings, gives up a connection attempt after 5 s, backs off between attempts, and
 * re-sends the login and every subscription after a reconnect. The backoff is jittered: after a network
 * blip or a gateway restart every phone reconnects, and the server admits upgrades at a steady rate
 * (refusing the rest with 503, which a browser only sees as a failed attempt), so clients must not all
 * come back in the same instant, nor again together after each refusal. Topics are reference-counted so two
 * screens showing the same topic share one subscription.
 */
export class LiveSocket {
  private socket: SocketLike | null = null;
  private started = false;
  private token: string | null = null;
  private loggedInWith: string | null = null;
  private readonly topics = new Map<string, number>();
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly connectionListeners = new Set<() => void>();
  private missedPongs = 0;
  private attempt = 0;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: LiveSocketOptions) {}

  /** Idempotent: every route calls it. */
  start() {
    if (this.started) return;
    this.started = true;
    this.connect();
  }

  stop() {
    this.started = false;
    this.teardown();
  }

  get connected() {
    return this.socket?.readyState === OPEN;
  }

  /**
   * Open and answering: a ping left unanswered for a whole interval means nothing is getting through,
   * long before the missed pings close the connection.
   */
  get answering() {
    return this.connected && this.missedPongs < 2;
  }

  /** Not connected, and no attempt has failed yet: the app is opening, prices are not known to be stale. */
  get firstAttempt() {
    return !this.connected && this.attempt === 0;
  }

  /** Called whenever the connection opens, is lost, stops answering or answers again. */
  onConnectionChange(listener: () => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  /** Connects at once instead of waiting out the backoff, e.g. when the browser comes back online. */
  wake() {
    if (!this.started || !this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  /** Sends the login once for a token; repeated calls with the same token do nothing. */
  login(token: string | null) {
    this.token = token;
    this.sendLogin();
  }

  /** docs/api.md: logout sends the socket logout message. */
  logout() {
    if (this.loggedInWith) this.send({ type: 'logout' });
    this.token = null;
    this.loggedInWith = null;
  }

  /** Subscribes to a topic; the returned function unsubscribes (when the last user leaves). */
  subscribe(topic: string): () => void {
    const count = this.topics.get(topic) ?? 0;
    this.topics.set(topic, count + 1);
    if (count === 0) this.send({ type: 'sub', topic });
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.topics.get(topic) ?? 1) - 1;
      if (left > 0) {
        this.topics.set(topic, left);
        return;
      }
      this.topics.delete(topic);
      this.send({ type: 'unsub', topic });
    };
  }

  /** Listens to messages of one type (DAY_MARKET, FOREX_TRADE, KLINE.EURUSD, …). */
  on(type: string, handler: Handler): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  private connect() {
    if (!this.started) return;
    const socket = this.options.create(this.options.url());
    this.socket = socket;
    this.connectTimer = setTimeout(() => {
      if (socket.readyState !== OPEN) this.reconnect();
    }, SOCKET_CONNECT_TIMEOUT_MS);

    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.clearConnectTimer();
      this.attempt = 0;
      this.missedPongs = 0;
      this.loggedInWith = null;
      this.sendLogin();
      for (const topic of this.topics.keys()) this.send({ type: 'sub', topic });
      this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_INTERVAL_MS);
      this.announceConnection();
    };
    socket.onmessage = (event) => {
      if (socket === this.socket) this.receive(event.data);
    };
    socket.onclose = () => {
      if (socket === this.socket) this.reconnect();
    };
    socket.onerror = () => {
      // onclose follows and reconnects.
    };
  }

  private beat() {
    if (this.missedPongs > MAX_MISSED_PONGS) {
      this.reconnect();
      return;
    }
    this.missedPongs += 1;
    if (this.missedPongs === 2) this.announceConnection();
    this.send({ type: 'ping' });
  }

  private receive(raw: unknown) {
    let message: { type?: unknown; data?: unknown };
    try {
      message = JSON.parse(String(raw)) as typeof message;
    } catch {
      this.warn('socket message is not JSON', raw);
      return;
    }
    if (!message || typeof message.type !== 'string' || message.type === '') {
      this.warn('socket message without a type ignored', message);
      return;
    }
    if (message.type === 'pong') {
      const wasSilent = !this.answering;
      this.missedPongs = 0;
      if (wasSilent) this.announceConnection();
      return;
    }
    for (const handler of this.handlers.get(message.type) ?? []) handler(message.data);
  }

  private reconnect() {
    this.teardown();
    if (!this.started) return;
    // From half to one and a half times the step: 1 s, 2 s, 4 s … up to 30 s.
    const step = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** this.attempt);
    const delay = step * (0.5 + (this.options.random ?? Math.random)());
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private teardown() {
    this.clearConnectTimer();
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.heartbeat = null;
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    this.loggedInWith = null;
    if (socket) {
      socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
      socket.close();
      this.announceConnection();
    }
  }

  private announceConnection() {
    for (const listener of this.connectionListeners) listener();
  }

  private clearConnectTimer() {
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  private sendLogin() {
    if (!this.connected || !this.token || this.loggedInWith === this.token) return;
    this.loggedInWith = this.token;
    this.send({ type: 'login', token: this.token });
  }

  private send(message: Record<string, unknown>) {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  private warn(message: string, detail: unknown) {
    (this.options.warn ?? console.warn)(message, detail);
  }
}
