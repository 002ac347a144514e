import { ApiPath } from '@pipwise/domain';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import type { Database } from '../src/db/client.js';
import type { MarketService } from '../src/modules/market/api.js';
import { FeedAge, Readiness, runningHere } from '../src/observability/health.js';
import { InMemoryEventBus, RedisEventBus, type EventBus } from '../src/realtime/bus.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';
import { MARKET_OPEN_AT, tradingServer, type TradingServer } from './trading-helpers.js';

const TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';

/** Every series docs/operations.md names; each must be on /metrics, wired or not yet. */
const SERIES = [
  'pipwise_http_request_duration_seconds',
  'pipwise_orders_placed_total',
  'pipwise_orders_refused_total',
  'pipwise_engine_tick_seconds',
  'pipwise_engine_actions_total',
  'pipwise_group_commit_batch_size',
  'pipwise_socket_clients',
  'pipwise_socket_frames_dropped_total',
  'pipwise_socket_frames_coalesced_total',
  'pipwise_bus_lag_seconds',
  'pipwise_db_pool_connections',
  'pipwise_engine_leader',
  'pipwise_engine_leader_changes_total',
  'nodejs_eventloop_lag_seconds',
];

const scrape = async (url: string, token?: string) => {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, text: await response.text(), headers: response.headers };
};

/** The value of one sample line (`name{labels} value`), 0 when the series has no such sample. */
const sample = (text: string, line: string) => {
  const found = text.split('\n').find((row) => row.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
};

type ReadyBody = {
  ready: boolean;
  checks: Record<'database' | 'bus' | 'feed' | 'engine', { ok: boolean }> & { engine: { leader: string | null } };
};

const ready = async (server: TestServer) => {
  const response = await fetch(`${server.baseUrl}/readyz`);
  return { status: response.status, body: (await response.json()) as ReadyBody };
};

describe.each(DB_KINDS)('health, readiness and metrics (%s)', (kind) => {
  let engine: TradingServer;
  let gateway: TestServer;
  let bus: InMemoryEventBus;
  const clock = new ManualClock(MARKET_OPEN_AT);

  beforeAll(async () => {
    bus = new InMemoryEventBus();
    engine = tradingServer(await startTestServer(kind, { clock, bus, env: { METRICS_TOKEN: TOKEN } }), clock);
    gateway = await startTestServer(kind, {
      clock,
      bus,
      database: engine.database,
      env: { ROLE: 'gateway', METRICS_PORT: '0' },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await engine?.close();
    await bus?.close();
  });

  it('says it is alive on /healthz', async () => {
    const response = await fetch(`${engine.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('is ready only while quotes are fresh; a gateway knows the engine by the quotes it publishes', async () => {
    const before = await ready(engine);
    expect(before.status).toBe(503);
    expect(before.body.checks).toMatchObject({
      database: { ok: true },
      bus: { ok: true },
      feed: { ok: false },
      engine: { ok: true, leader: 'self' },
    });
    const gatewayBefore = await ready(gateway);
    expect(gatewayBefore.status).toBe(503);
    expect(gatewayBefore.body.checks.engine).toEqual({ ok: false, leader: null });

    await engine.tick('EURUSD', '1.10000');
    expect(await ready(engine)).toMatchObject({ status: 200, body: { ready: true } });
    expect(await ready(gateway)).toMatchObject({
      status: 200,
      body: { ready: true, checks: { engine: { ok: true, leader: 'bus' } } },
    });

    clock.advance(engine.config.readyFeedMaxAgeMs + 1);
    const stale = await ready(gateway);
    expect(stale.status).toBe(503);
    expect(stale.body.checks).toMatchObject({ feed: { ok: false }, engine: { ok: false, leader: null } });
    await engine.tick('EURUSD', '1.10010');
    expect((await ready(gateway)).status).toBe(200);
  });

  it('refuses /metrics without its token, and serves it to the one who has it', async () => {
    for (const token of [undefined, 'wrong-token', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const refused = await scrape(`${engine.baseUrl}/metrics`, token);
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain('pipwise_');
    }
    const lowercase = await fetch(`${engine.baseUrl}/metrics?token=${TOKEN}&__proto__=1`, {
      headers: { authorization: `bearer  ${TOKEN}` },
    });
    expect(lowercase.status).toBe(401);
    const served = await scrape(`${engine.baseUrl}/metrics`, TOKEN);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toContain('text/plain');
    for (const name of SERIES) expect(served.text, name).toContain(`# TYPE ${name} `);
  });

  it('serves /metrics only on METRICS_PORT when one is set', async () => {
    expect((await fetch(`${gateway.baseUrl}/metrics`)).status).toBe(404);
    const module = gateway.ctx.modules.find((m) => m.name === 'observability') as unknown as {
      metricsAddress: () => AddressInfo | undefined;
    };
    const { port } = module.metricsAddress()!;
    const served = await scrape(`http://127.0.0.1:${port}/metrics`);
    expect(served.status).toBe(200);
    for (const name of SERIES) expect(served.text, name).toContain(`# TYPE ${name} `);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
  });

  it('counts orders placed and refused by reason, and times requests by route pattern', async () => {
    const trader = await engine.trader();
    const eurusd = engine.instrumentId('EURUSD');
    const before = (await scrape(`${engine.baseUrl}/metrics`, TOKEN)).text;
    const placed = await engine.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    expect(placed.code).toBe(1);
    const refused = await engine.submit(trader, { type: 1, cont: '0.1', forex_id: 999_999, status: 1, multiple: 100 });
    expect(refused.code).not.toBe(1);
    const malformed = await engine.submit(trader, { __proto__: { admin: true }, type: 'x\u0000' });
    expect(malformed.code).not.toBe(1);
    expect((await fetch(`${engine.baseUrl}/no/such/route/12345`)).status).toBe(404);
    const after = (await scrape(`${engine.baseUrl}/metrics`, TOKEN)).text;

    expect(sample(after, 'pipwise_orders_placed_total') - sample(before, 'pipwise_orders_placed_total')).toBe(1);
    const refusals = (text: string) =>
      text
        .split('\n')
        .filter((row) => row.startsWith('pipwise_orders_refused_total{'))
        .reduce((sum, row) => sum + Number(row.split(' ').at(-1)), 0);
    expect(refusals(after) - refusals(before)).toBe(2);
    expect(after).toMatch(/^pipwise_orders_refused_total\{reason="[a-z_]+"\} \d+$/m);

    const submissions = `pipwise_http_request_duration_seconds_count{method="POST",route="${ApiPath.submitOrder}",status_code="200"}`;
    expect(sample(after, submissions) - sample(before, submissions)).toBe(3);
    expect(after).toContain('route="unmatched",status_code="404"');
    expect(after).not.toContain('/no/such/route');
    expect(after).toMatch(/^pipwise_bus_lag_seconds_count \d+$/m);
    expect(sample(after, 'pipwise_bus_lag_seconds_count')).toBeGreaterThan(0);
    expect(sample(after, 'pipwise_engine_leader_changes_total')).toBe(0);
    if (kind === 'postgres') expect(sample(after, 'pipwise_db_pool_connections{state="total"}')).toBeGreaterThan(0);
  });
});

describe('readiness of the database and the bus', () => {
  const noMarket = { listInstruments: () => [] } as unknown as MarketService;
  const feed = new FeedAge(noMarket, new ManualClock(MARKET_OPEN_AT), 15_000);
  const answering = { db: { execute: () => Promise.resolve({ rows: [] }) } } as unknown as Database;
  const check = async (database: Database, bus: EventBus) => {
    const readiness = new Readiness({ database, bus, feed, leader: runningHere(() => true) });
    try {
      return await readiness.check();
    } finally {
      await bus.close();
    }
  };

  it('is not ready when the database fails or the bus does not deliver', async () => {
    const failing = { db: { execute: () => Promise.reject(new Error('connection refused')) } } as unknown as Database;
    expect(await check(failing, new InMemoryEventBus())).toMatchObject({
      ready: false,
      checks: { database: { ok: false }, bus: { ok: true } },
    });
    // A bus whose connection is down.
    const silent: EventBus = {
      publish: () => undefined,
      subscribe: () => () => undefined,
      connected: false,
      onConnectionChange: () => () => undefined,
      ping: async () => false,
      close: async () => undefined,
    };
    expect(await check(answering, silent)).toMatchObject({
      ready: false,
      checks: { database: { ok: true }, bus: { ok: false } },
    });
  });

  it.runIf(process.env.TEST_REDIS_URL)('is ready once the bus has connected and subscribed to Redis', async () => {
    const bus = new RedisEventBus(process.env.TEST_REDIS_URL!);
    const readiness = new Readiness({ database: answering, bus, feed, leader: runningHere(() => true) });
    try {
      if (!bus.connected) await new Promise<void>((resolve) => bus.onConnectionChange((up) => up && resolve()));
      expect(await readiness.check()).toMatchObject({
        ready: true,
        checks: { bus: { ok: true }, feed: { ok: true, markets_open: false } },
      });
    } finally {
      await bus.close();
    }
  });
});
