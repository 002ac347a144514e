import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { Redis } from 'ioredis';
import type { AppContext } from './context.js';
import { registerAuth } from './http/auth.js';
import { registerEnvelope } from './http/envelope.js';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/**
 * Builds the HTTP application without listening, so tests drive it through real HTTP on port 0 or
 * through inject. Modules bring their routes; this file only sets up what every route shares.
 */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
  });

  registerEnvelope(app);
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
  // Multipart forms arrive as a plain body like JSON and urlencoded ones (files as Buffers), so every
  // route validates one shape whatever encoding the client chose.
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20 },
  });
  await app.register(rateLimit, {
    global: true,
    max: 600,
    timeWindow: '1 minute',
    ...(ctx.config.redisUrl ? { redis: new Redis(ctx.config.redisUrl, { enableOfflineQueue: false }) } : {}),
  });
  registerAuth(app, ctx.resolveToken);

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
      preCompressed: true,
      cacheControl: false,
      // Vite fingerprints everything under assets/, so those files can be cached for good; the rest
      // (index.html, manifest.json) must be revalidated to pick up a new release.
      setHeaders: (res, filePath) => {
        res.setHeader(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  for (const module of ctx.modules) module.attach?.(app);
  return app;
}
