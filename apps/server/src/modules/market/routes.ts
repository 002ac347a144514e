import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ApiPath,
  ZAbbreviatedKlineQuery,
  ZCategoryView,
  ZKlinePointView,
  ZKlineQuery,
  ZSparklineView,
  ZTradeListQuery,
  ZTradePairView,
} from '@pipwise/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import type { MarketEngine } from './service.js';

export const LOGO_PREFIX = '/logos/';
/** Public figures only, so sent compressed (app.ts says why only these). */
const compressed = { compress: {} } as const;
const logosDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'logos');

/** The shipped logos, read once: only these names are served, so no path ever reaches the file system. */
function loadLogos(): Map<string, Buffer> {
  return new Map(
    readdirSync(logosDir)
      .filter((name) => name.endsWith('.svg'))
      .map((name) => [name, readFileSync(path.join(logosDir, name))]),
  );
}

export function registerMarketRoutes(instance: FastifyInstance, market: MarketEngine) {
  const logos = loadLogos();
  const app = instance.withTypeProvider<DocumentedTypeProvider>();

  const tradeList = { querystring: ZTradeListQuery, response: answers(z.array(ZTradePairView)) };
  app.get(ApiPath.tradeList, { schema: tradeList, ...compressed }, async (request) => {
    const query = parse(ZTradeListQuery, request.query);
    return ok(request, market.tradeList(query.searchCurrency));
  });

  app.get(ApiPath.categories, { schema: { response: answers(z.array(ZCategoryView)) }, ...compressed }, async (request) =>
    ok(request, market.categories(request.lang)),
  );

  app.get(
    ApiPath.kline,
    { schema: { querystring: ZKlineQuery, response: answers(z.array(ZKlinePointView)) }, ...compressed },
    async (request) => {
      const query = parse(ZKlineQuery, request.query);
      return ok(request, await market.klines(query.forex_id, query.period, query.limit, query.end));
    },
  );

  const sparklines = { querystring: ZAbbreviatedKlineQuery, response: answers(z.array(ZSparklineView)) };
  app.get(ApiPath.abbreviatedKline, { schema: sparklines, ...compressed }, async (request) => {
    const query = parse(ZAbbreviatedKlineQuery, request.query);
    return ok(request, await market.sparklines(query.forex_id, query.period));
  });

  app.get<{ Params: { file: string } }>(`${LOGO_PREFIX}:file`, compressed, async (request, reply) => {
    const logo = logos.get(request.params.file);
    if (!logo) return reply.callNotFound();
    return reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(logo);
  });
}
