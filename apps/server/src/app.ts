import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { ResponseCode } from '@pipwise/domain';
import type { AppContext } from './modules.js';
import { registerAuth } from './http/auth.js';
import { proxyTrust } from './http/client-address.js';
import { registerEnvelope } from './http/envelope.js';
import { registerApiDocuments } from './http/openapi.js';
import { registerOperatorAuth } from './http/operator.js';
import { clientErrorHandler, envelope, frameworkErrors, isApiRequest, registerTransport } from './http/transport.js';
import { registerHttpMetrics } from './observability/http-metrics.js';

/**
 * Vite fingerprints everything under assets/, so those files can be cached for good; the rest
 * (index.html, manifest.json) must be revalidated to pick up a new release.
 */
function cacheByFingerprint(res: { setHeader(name: string, value: string): unknown }, filePath: string) {
  res.setHeader(
    'cache-control',
    filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
}

/**
 * Builds the HTTP application without listening, so tests drive it through real HTTP on port 0 or
 * through inject. Modules bring their routes; this file only sets up what every route shares.
 */
export async function buildApp(ctx: AppContext, options: { started?: () => boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: proxyTrust(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    frameworkErrors,
    clientErrorHandler,
  });

  registerEnvelope(app);
  if (options.started) refuseUntilStarted(app, options.started);
  registerTransport(app);
  registerHttpMetrics(app);
  // Built once: @fastify/helmet rebuilt the middleware (and re-parsed the policy) on every request.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        frameSrc: ["'self'", 'https:'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  await app.register(formbody);
  // Off unless a route asks for it (`compress` in its options): only the public market data, the largest
  // answers a phone waits for (the quotes' sparklines are 64 KB of JSON, 17 KB compressed), and none of which
  // carries a secret beside text a client chose, which is what BREACH needs. Bodies sent compressed are
  // never inflated: no route accepts them.
  await app.register(compress, { global: false, globalDecompression: false });
  // No multipart here: only upload routes read it, in their own scope (http/uploads.ts), so no other
  // route (login included) can be sent a body past the 1 MB limit.
  await app.register(rateLimit, {
    global: true,
    // The page, its files and the logos are free to load: a limit on them blanks the app for everyone
    // behind one address. The socket has limits of its own (realtime/hub.ts).
    allowList: (request) => !isApiRequest(request),
    max: 600,
    timeWindow: '1 minute',
    // In memory, or shared through Redis with REDIS_URL (security/shared-limits.ts).
    store: ctx.limits.httpStore(),
  });
  registerAuth(app, ctx.resolveToken);
  registerOperatorAuth(app, ctx.resolveOperator);
  // Before the modules: the OpenAPI documents are collected from the routes as they are registered.
  await registerApiDocuments(app);

  for (const module of ctx.modules) {
    if (module.routes) await app.register(async (scope) => module.routes?.(scope));
  }

  const webDist = ctx.config.webDist;
  if (webDist && existsSync(webDist)) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      // The manifest is built per company by the companies module; a copy left in an older build must not shadow it.
      globIgnore: ['manifest.json', 'manifest.json.*'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: cacheByFingerprint,
    });
  }

  const adminDist = ctx.config.adminDist;
  if (adminDist && existsSync(adminDist)) {
    await app.register(fastifyStatic, {
      root: adminDist,
      prefix: '/admin/',
      decorateReply: false,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: cacheByFingerprint,
    });
    app.get('/admin', (_request, reply) => reply.redirect('/admin/'));
  }

  for (const module of ctx.modules) module.attach?.(app);
  return app;
}

/** How long a client refused while the process starts is asked to wait. */
const STARTING_RETRY_AFTER_S = 5;

/**
 * The process listens before its modules start (the risk engine's load of a large book takes a while),
 * so that a supervisor sees it alive on /healthz; until they have started, /readyz says so and every
 * other request is refused with 503 and Retry-After, so nothing reaches a module half started.
 */
function refuseUntilStarted(app: FastifyInstance, started: () => boolean) {
  app.addHook('onRequest', async (request, reply) => {
    if (started()) return;
    const pathname = request.url.split('?')[0];
    if (pathname === '/healthz') return;
    if (pathname === '/readyz') return reply.code(503).send({ ready: false, starting: true });
    return reply
      .code(503)
      .header('retry-after', String(STARTING_RETRY_AFTER_S))
      .send(envelope(request.lang, ResponseCode.internal, 'server_starting'));
  });
}
