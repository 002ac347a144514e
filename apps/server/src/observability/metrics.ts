import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every Prometheus instrument of the server, on one registry (docs/operations.md says what each one
 * means). The instruments are module-level so the code that measures (the engine, the socket hub, group
 * commit) imports the one it updates and needs nothing handed down; one process runs one server.
 * Gauges whose value lives elsewhere (the pool, the sockets) read it at scrape time from the source
 * `bindMetricSources` names.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const registers = [metricsRegistry];

/** Seconds of sub-millisecond work up to a few seconds. */
const FAST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export const httpRequestSeconds = new Histogram({
  name: 'pipwise_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status code: time from arrival to the last byte written; _count is the request rate',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: FAST_BUCKETS,
  registers,
});

export const ordersPlacedTotal = new Counter({
  name: 'pipwise_orders_placed_total',
  help: 'Order submissions this process accepted (market and pending orders)',
  registers,
});

export const ordersRefusedTotal = new Counter({
  name: 'pipwise_orders_refused_total',
  help: 'Order submissions this process refused, by reason (the message key the user was shown)',
  labelNames: ['reason'] as const,
  registers,
});

export const engineTickSeconds = new Histogram({
  name: 'pipwise_engine_tick_seconds',
  help: 'Time the risk engine took to handle one quote (levels checked, closes and pushes decided)',
  buckets: FAST_BUCKETS,
  registers,
});

export const engineActionsTotal = new Counter({
  name: 'pipwise_engine_actions_total',
  help: 'Actions the risk engine started, by kind: take_profit, stop_loss, stop_out, fill (a pending order reached)',
  labelNames: ['kind'] as const,
  registers,
});

export const groupCommitBatchSize = new Histogram({
  name: 'pipwise_group_commit_batch_size',
  help: 'Writes committed together in one group-commit transaction',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
  registers,
});

export const socketFramesDroppedTotal = new Counter({
  name: 'pipwise_socket_frames_dropped_total',
  help: 'Socket frames not sent because a client could not keep up (its backlog was full)',
  registers,
});

export const socketFramesCoalescedTotal = new Counter({
  name: 'pipwise_socket_frames_coalesced_total',
  help: 'Socket frames replaced by a newer frame of the same topic before they were sent',
  registers,
});

export const busLagSeconds = new Histogram({
  name: 'pipwise_bus_lag_seconds',
  help: "Age of a market.quote event when this process received it from the bus (the tick's time to delivery, clock skew between hosts included)",
  buckets: FAST_BUCKETS,
  registers,
});

export const busPublishesDroppedTotal = new Counter({
  name: 'pipwise_bus_publishes_dropped_total',
  help: 'Events this process could not hand to Redis (it was down or the publish failed); delivered in this process only',
  labelNames: ['topic'] as const,
  registers,
});

export const busDisconnectsTotal = new Counter({
  name: 'pipwise_bus_disconnects_total',
  help: 'Times this process lost its Redis bus (either connection)',
  registers,
});

export const engineLeaderChangesTotal = new Counter({
  name: 'pipwise_engine_leader_changes_total',
  help: 'Engine take-overs this process has seen (the leader epoch moved on while it watched; its own take-overs included)',
  registers,
});

/** What the scrape-time gauges read; the server binds its own at start. */
export interface MetricSources {
  /** The PostgreSQL pool's connections; absent on PGlite (one connection, no pool). */
  pool?: () => { total: number; idle: number; waiting: number };
  /** Open sockets on this process, and those logged in. */
  sockets?: () => { connections: number; loggedIn: number };
  /** Whether this process leads the engine (runs the feed and the risk engine). */
  leads?: () => boolean;
  /** Whether the event bus reaches the other processes (always, in memory). */
  bus?: () => boolean;
}

const bound: MetricSources[] = [];
const source = <K extends keyof MetricSources>(key: K): MetricSources[K] => bound.findLast((entry) => entry[key])?.[key];

/** Makes the gauges read from `sources` until the answered function is called (a server's stop). */
export function bindMetricSources(sources: MetricSources): () => void {
  bound.push(sources);
  return () => {
    const index = bound.indexOf(sources);
    if (index >= 0) bound.splice(index, 1);
  };
}

export const dbPoolConnections = new Gauge({
  name: 'pipwise_db_pool_connections',
  help: 'PostgreSQL pool connections by state: total (open), idle, waiting (queries queued for a free connection); none on PGlite',
  labelNames: ['state'] as const,
  registers,
  collect() {
    this.reset();
    const stats = source('pool')?.();
    if (!stats) return;
    this.set({ state: 'total' }, stats.total);
    this.set({ state: 'idle' }, stats.idle);
    this.set({ state: 'waiting' }, stats.waiting);
  },
});

export const socketClients = new Gauge({
  name: 'pipwise_socket_clients',
  help: 'Open sockets on this process, all of them and those logged in',
  labelNames: ['state'] as const,
  registers,
  collect() {
    this.reset();
    const stats = source('sockets')?.();
    if (!stats) return;
    this.set({ state: 'open' }, stats.connections);
    this.set({ state: 'logged_in' }, stats.loggedIn);
  },
});

export const engineLeader = new Gauge({
  name: 'pipwise_engine_leader',
  help: 'Whether this process runs the risk engine (1) or not (0)',
  registers,
  collect() {
    this.set(source('leads')?.() ? 1 : 0);
  },
});

export const busConnected = new Gauge({
  name: 'pipwise_bus_connected',
  help: 'Whether this process is connected to its event bus and subscribed (1) or not (0); always 1 without Redis',
  registers,
  collect() {
    const connected = source('bus');
    if (connected) this.set(connected() ? 1 : 0);
  },
});
