import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ResponseCode } from '@pipwise/domain';
import type { CoreDeps, Module } from '../context.js';
import { envelope } from '../http/transport.js';
import type { MarketService } from '../modules/market/api.js';
import { FeedAge, quotesFromBus, Readiness, runningHere, type LeaderSource } from './health.js';
import { bindMetricSources, busLagSeconds, metricsRegistry } from './metrics.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries `Authorization: Bearer <token>`; compared in constant time. */
function bearerMatches(headers: IncomingHttpHeaders, token: string): boolean {
  const given = /^Bearer (\S+)$/.exec(headers.authorization ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * Health, readiness and metrics. `/healthz` says the process answers; `/readyz` whether it should be
 * sent traffic (observability/health.ts). `/metrics` is never public: it is served on METRICS_PORT
 * when set, else on the public port only to a caller with METRICS_TOKEN, else nowhere.
 */
export function createObservabilityModule(
  deps: CoreDeps,
  services: {
    market: MarketService;
    sockets: () => { connections: number; loggedIn: number };
    /** The elected leadership (several processes on PostgreSQL); without it this process leads alone. */
    leadership: LeaderSource | undefined;
  },
) {
  const { config } = deps;
  let started = false;
  const feed = new FeedAge(services.market, deps.clock, config.readyFeedMaxAgeMs);
  const leader = services.leadership ?? (config.role === 'gateway' ? quotesFromBus(feed) : runningHere(() => started));
  let readiness: Readiness | undefined;
  let metricsServer: Server | undefined;
  const stops: (() => void)[] = [];
  const pool = deps.database.poolStats;

  const module: Module & { metricsAddress: () => AddressInfo | undefined } = {
    name: 'observability',
    metricsAddress: () => metricsServer?.address() as AddressInfo | undefined,
    routes: (app) => {
      app.get('/healthz', async () => ({ status: 'ok' }));
      app.get('/readyz', async (_request, reply) => {
        const report = readiness ? await readiness.check() : undefined;
        return reply.code(report?.ready ? 200 : 503).send(report ?? { ready: false, starting: true });
      });
      const token = config.metricsToken;
      if (config.metricsPort === undefined && token !== undefined) {
        app.get('/metrics', async (request, reply) => {
          if (!bearerMatches(request.headers, token)) {
            return reply
              .code(401)
              .header('www-authenticate', 'Bearer')
              .send(envelope(request.lang, ResponseCode.notLoggedIn, 'not_logged_in'));
          }
          return reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
        });
      }
    },
    start: async () => {
      readiness = new Readiness({ database: deps.database, bus: deps.bus, feed, leader });
      stops.push(
        bindMetricSources({
          sockets: services.sockets,
          leads: () => leader.leader()?.self === true,
          bus: () => deps.bus.connected,
          ...(pool ? { pool } : {}),
        }),
        deps.bus.subscribe('market.quote', (quote) =>
          busLagSeconds.observe(Math.max(0, deps.clock.now().getTime() - quote.time) / 1000),
        ),
      );
      if (config.metricsPort !== undefined)
        metricsServer = await serveMetrics(config.metricsHost, config.metricsPort, config.metricsToken);
      started = true;
    },
    stop: async () => {
      started = false;
      for (const stop of stops.splice(0)) stop();
      const server = metricsServer;
      metricsServer = undefined;
      if (server) await new Promise((resolve) => server.close(resolve));
    },
  };
  return { module };
}

/** The metrics-only listener: GET /metrics (with the token when one is set), 404 for anything else. */
async function serveMetrics(host: string, port: number, token: string | undefined): Promise<Server> {
  const server = createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404).end();
    } else if (token !== undefined && !bearerMatches(request.headers, token)) {
      response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    } else {
      metricsRegistry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
        () => response.writeHead(500).end(),
      );
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
