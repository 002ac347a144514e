import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { answerOf, ZRefusal } from '@pipwise/domain';
import type { FastifyInstance, FastifyTypeProvider, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { OpenAPIV3 } from 'openapi-types';
import type { z } from 'zod';
import { ADMIN_API } from './operator.js';

/**
 * Routes keep validating in their handlers (`parse`, after the session and the operator's role are checked,
 * with the localized messages); the zod schemas in their `schema` option are the same ones, there to generate
 * the OpenAPI documents and to type what the handler answers. So request parts stay `unknown` to the handler
 * and only the answer is typed from its schema.
 */
export interface DocumentedTypeProvider extends FastifyTypeProvider {
  validator: unknown;
  serializer: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the documents describe, as registered: test/openapi.test.ts checks each has its schemas. */
    documentedRoutes: RouteOptions[];
  }
}

/** A route's answers: its `data` in the envelope, or a refusal (200 for business and validation failures, 4xx/5xx otherwise). */
export const answers = <T extends z.ZodType>(data: T) => ({ 200: answerOf(data), default: ZRefusal });

export const USER_DOCUMENT = '/openapi.json';
export const OPERATOR_DOCUMENT = `${ADMIN_API}/openapi.json`;
/** The reference page of both documents (Swagger UI, served from its package). */
export const REFERENCE_PAGE = '/api-docs';

/** The documents' media type (registered for OpenAPI): they are not the envelope, so not `application/json`. */
const OPENAPI_JSON = 'application/vnd.oai.openapi+json;version=3.0';

const isUserApi = (url: string) => /^\/(v1\/)?api\//.test(url);
const isOperatorApi = (url: string) => url.startsWith(`${ADMIN_API}/`);

/** The API routes the documents describe (the web app's files, the logos and the socket are not an API). */
export const isDocumentedRoute = (url: string) => (isUserApi(url) || isOperatorApi(url)) && url !== OPERATOR_DOCUMENT;

function documentOf(all: OpenAPIV3.Document, keep: (url: string) => boolean, title: string, description: string) {
  const paths = Object.fromEntries(Object.entries(all.paths).filter(([url]) => keep(url)));
  return { ...all, info: { ...all.info, title, description }, paths };
}

/**
 * Registers the compilers and the document generator before any route (it collects routes as they are
 * registered) and serves the user document, the operator document and the reference page.
 */
export async function registerApiDocuments(app: FastifyInstance) {
  // Validation stays in the handlers (see DocumentedTypeProvider); answers are serialized as before.
  app.setValidatorCompiler(() => () => true);
  app.decorate('documentedRoutes', []);
  app.addHook('onRoute', (route) => {
    if (isDocumentedRoute(route.url) && route.method !== 'HEAD') app.documentedRoutes.push(route);
  });
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Pipwise API', version: '1' },
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'authorization' } },
      },
    },
    transform: (document) => {
      if (!isDocumentedRoute(document.url)) return { schema: { hide: true }, url: document.url };
      const transformed = jsonSchemaTransform(document);
      // Grouped on the reference page by the path's first segment (user, order, deposits, …).
      const [tag = ''] = document.url.replace(/^\/(v1\/|admin\/)?api\//, '').split('/');
      return { ...transformed, schema: { ...transformed.schema, tags: [tag] } };
    },
  });

  const userDocument = () =>
    documentOf(
      app.swagger() as OpenAPIV3.Document,
      isUserApi,
      'Pipwise user API',
      'The API of the phone app. Every answer is the envelope {code, msg, data}; docs/api.md has the rules.',
    );
  const operatorDocument = () =>
    documentOf(
      app.swagger() as OpenAPIV3.Document,
      isOperatorApi,
      'Pipwise operator API',
      'The back office API under /admin/api. Every answer is the envelope {code, msg, data}; docs/admin-api.md has the rules and the roles.',
    );

  app.get(USER_DOCUMENT, { schema: { hide: true } }, (_request, reply) => reply.type(OPENAPI_JSON).send(userDocument()));
  app.get(OPERATOR_DOCUMENT, { schema: { hide: true } }, (_request, reply) => reply.type(OPENAPI_JSON).send(operatorDocument()));
  // Its own scope: the page's files are served by the package's own @fastify/static.
  await app.register(async (scope) => {
    // The page's own copy of the document (`/api-docs/json`) goes out as the document it is.
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (String(reply.getHeader('content-type')).startsWith('application/json')) void reply.type(OPENAPI_JSON);
      return payload;
    });
    await scope.register(swaggerUi, {
      routePrefix: REFERENCE_PAGE,
      uiConfig: {
        urls: [
          { url: USER_DOCUMENT, name: 'User API' },
          { url: OPERATOR_DOCUMENT, name: 'Operator API' },
        ],
      },
      transformSpecification: () => userDocument(),
      transformSpecificationClone: false,
    });
  });
}
