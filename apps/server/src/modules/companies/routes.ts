import {
  COMPANY_COOKIE,
  CompanyPath,
  ZCompanySearchQuery,
  ZCompanyPageView,
  ZCompanyStatusView,
  ZCompanyView,
  type CompanyPageView,
  type CompanyStatusView,
  type CompanyView,
} from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { appManifest } from './manifest.js';
import { presentCompany, presentStatus, type CompaniesService } from './service.js';

const COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${COMPANY_COOKIE}=(\\d{1,9})(?:;|$)`);

/** The company the browser entered (its cookie); anything that is not a plain id is no choice at all. */
export function companyIdFromCookie(request: FastifyRequest): number | undefined {
  const header = request.headers.cookie;
  const match = typeof header === 'string' ? COOKIE_VALUE.exec(header) : null;
  return match?.[1] ? Number(match[1]) : undefined;
}

export function companyRoutes(companies: CompaniesService) {
  const current = (request: FastifyRequest) => companies.current(companyIdFromCookie(request));

  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.get(CompanyPath.status, { schema: { response: answers(ZCompanyStatusView) } }, async (request) =>
      ok<CompanyStatusView>(request, presentStatus(await current(request))),
    );

    app.get(CompanyPath.company, { schema: { response: answers(ZCompanyView) } }, async (request) =>
      ok<CompanyView>(request, presentCompany(await current(request))),
    );

    app.get(
      CompanyPath.search,
      { schema: { querystring: ZCompanySearchQuery, response: answers(ZCompanyPageView) } },
      async (request) => {
        const { name, page } = parse(ZCompanySearchQuery, request.query);
        return ok<CompanyPageView>(request, await companies.search(name, page));
      },
    );

    instance.get(CompanyPath.manifest, async (request, reply) => {
      const manifest = appManifest(await current(request));
      // Per company (the cookie), so no shared cache may hand one company's manifest to another's browser.
      return reply
        .header('content-type', 'application/manifest+json; charset=utf-8')
        .header('cache-control', 'no-cache, private')
        .header('vary', 'cookie')
        .send(JSON.stringify(manifest));
    });
  };
}
