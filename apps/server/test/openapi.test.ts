import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATOR_DOCUMENT, REFERENCE_PAGE, USER_DOCUMENT } from '../src/http/openapi.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * Which parts of the request a handler reads, from its source: `requestInput` merges the query and the
 * body (GET forms ride in the query), so it counts as the part the method carries.
 */
function readsOf(route: RouteOptions): { body: boolean; query: boolean } {
  const source = String(route.handler);
  const input = /requestInput\)?\(/.test(source);
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  return {
    body: source.includes('request.body') || (input && hasBody),
    query: source.includes('request.query') || (input && !hasBody),
  };
}

const isZod = (schema: unknown) => schema instanceof z.ZodType;

/** An answer: a zod schema of the JSON, or media types each with one (images). */
const describesAnswer = (answer: unknown) =>
  isZod(answer) ||
  (typeof answer === 'object' &&
    answer !== null &&
    'content' in answer &&
    Object.values(answer.content as Record<string, { schema: unknown }>).every((media) => isZod(media.schema)));

/**
 * Routes whose handler source names a part they do not read: the withdrawal decisions share one handler,
 * which reads the reason and note only for reject and void; the editable lists share one (registerAdminCrud),
 * which reads a query only for the lists that take one (news, announcements). Each entry must still apply.
 */
const NOT_READ = new Set([
  'POST /admin/api/withdrawals/:id/approve: body',
  'GET /admin/api/categories: querystring',
  'GET /admin/api/companies: querystring',
  'GET /admin/api/deposit-channels: querystring',
  'GET /admin/api/withdraw-currencies: querystring',
]);

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('pglite');
});

afterAll(async () => {
  await server.close();
});

describe('every API route is described by zod schemas', () => {
  it('has a body schema where it reads a body, a query schema where it reads the query, and an answer schema', () => {
    const routes = server.app.documentedRoutes;
    expect(routes.length).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const route of routes) {
      const name = `${String(route.method)} ${route.url}`;
      const reads = readsOf(route);
      const schema = route.schema ?? {};
      if (reads.body && !isZod(schema.body)) missing.push(`${name}: body`);
      if (reads.query && !isZod(schema.querystring)) missing.push(`${name}: querystring`);
      if (!describesAnswer((schema.response as Record<string, unknown> | undefined)?.[200])) missing.push(`${name}: answer`);
    }
    expect(missing.filter((part) => !NOT_READ.has(part))).toEqual([]);
    // An exception that no longer applies is dropped from the list.
    expect([...NOT_READ].filter((part) => !missing.includes(part))).toEqual([]);
  });

  it('reads the parts a route reads from its handler, so a route that reads more than it declares is caught', () => {
    const handler = (request: { body: unknown; query: unknown }) => [request.body, request.query];
    expect(readsOf({ method: 'POST', url: '/api/x', handler })).toEqual({ body: true, query: true });
    expect(readsOf({ method: 'GET', url: '/api/x', handler: () => null })).toEqual({
      body: false,
      query: false,
    });
  });
});

describe('the OpenAPI documents', () => {
  const validate = async (document: unknown) => {
    const validator = new Validator();
    const result = await validator.validate(document as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toMatch(/^3\./);
  };

  it('serves the user API document: valid OpenAPI 3, the user routes with their schemas, no back-office route', async () => {
    const response = await fetch(server.baseUrl + USER_DOCUMENT);
    expect(response.status).toBe(200);
    const document = (await response.json()) as OpenAPIV3.Document;
    await validate(document);
    const login = document.paths['/api/user/loginForU']?.post;
    const body = (login?.requestBody as OpenAPIV3.RequestBodyObject).content['application/json']
      ?.schema as OpenAPIV3.SchemaObject;
    expect(body.properties).toHaveProperty('password');
    const answer = (login?.responses['200'] as OpenAPIV3.ResponseObject).content?.['application/json']
      ?.schema as OpenAPIV3.SchemaObject;
    const success = answer.anyOf?.[0] as OpenAPIV3.SchemaObject;
    expect((success.properties?.data as OpenAPIV3.SchemaObject).properties).toHaveProperty('token');
    expect(document.paths['/v1/api/forex/submit']?.post).toBeDefined();
    expect(Object.keys(document.paths).filter((url) => url.startsWith('/admin/'))).toEqual([]);
  });

  it('serves the operator API document under /admin/api: valid OpenAPI 3, only back-office routes', async () => {
    const response = await fetch(server.baseUrl + OPERATOR_DOCUMENT);
    expect(response.status).toBe(200);
    const document = (await response.json()) as OpenAPIV3.Document;
    await validate(document);
    expect(document.paths['/admin/api/login']?.post?.requestBody).toBeDefined();
    const parameters = document.paths['/admin/api/deposits']?.get?.parameters as OpenAPIV3.ParameterObject[];
    expect(parameters.map((parameter) => parameter.name)).toContain('status');
    expect(Object.keys(document.paths).every((url) => url.startsWith('/admin/api/'))).toBe(true);
  });

  it('serves the reference page and its script from the package, naming both documents', async () => {
    const page = await fetch(`${server.baseUrl}${REFERENCE_PAGE}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('swagger-ui-bundle.js');
    const bundle = await fetch(`${server.baseUrl}${REFERENCE_PAGE}/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    // Read to the end: an unread answer keeps its connection busy, and closing the server waits for it.
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const initializer = await (await fetch(`${server.baseUrl}${REFERENCE_PAGE}/static/swagger-initializer.js`)).text();
    expect(initializer).toContain(USER_DOCUMENT);
    expect(initializer).toContain(OPERATOR_DOCUMENT);
  });
});
