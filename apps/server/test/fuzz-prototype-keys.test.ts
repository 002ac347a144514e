import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

/**
 * The names that reach Object.prototype when a plain object is indexed with client text. Each goes into
 * every position a client controls: the language headers, the token, path parameters, query keys and
 * values, and JSON and form body keys and values.
 */
const PROTOTYPE_WORDS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

interface Route {
  method: string;
  url: string;
}

/**
 * The load balancers' probes read no input and answer plain JSON, /readyz a 503 while the process is not
 * ready (test/observability.test.ts): they are not API routes.
 */
const PROBES = new Set(['/healthz', '/readyz']);

/** Every route the app registered, read from Fastify's route tree (children continue their parent's path). */
function routesOf(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const url = (parents[depth - 1] ?? '') + match[2]!;
    parents[depth] = url;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD' && url !== '*' && !url.endsWith('*') && !PROBES.has(url)) routes.push({ method, url });
    }
  }
  return routes;
}

/** The route with each `:param` replaced by `word`, and `word` as a query key and value. */
const pathWith = (url: string, word: string) =>
  `${url.replace(/:\w+/g, encodeURIComponent(word))}?${encodeURIComponent(word)}=${encodeURIComponent(word)}&a[${word}]=1`;

/** What a message reads like when Object.prototype or an exception leaked into it. */
const LEAK = /\[object |function \w*\(|native code|TypeError|is not a function|Cannot read|undefined|\bat \w+ \(/;

/**
 * Whatever a client sent, the answer is the envelope, the refusal page of a page load, or a file a
 * successful download sends.
 */
function expectAnswered(context: string, status: number, contentType: string, body: string, pageLoad = false) {
  expect(status, context).toBeGreaterThan(0);
  expect(status, context).toBeLessThan(500);
  if (pageLoad && contentType.startsWith('text/html')) {
    expect(body, context).toMatch(/^<!doctype html>.*<p>[^<]+<\/p><\/body><\/html>$/s);
    expect(body, context).not.toMatch(LEAK);
    return;
  }
  if (!contentType.startsWith('application/json')) {
    expect(status, `${context}: a non-JSON answer must be a success`).toBeLessThan(400);
    return;
  }
  const answer = JSON.parse(body) as { code?: unknown; msg?: unknown };
  expect(typeof answer.code, context).toBe('number');
  expect(typeof answer.msg, context).toBe('string');
  expect(answer.msg, context).not.toMatch(LEAK);
}

/** Raw bytes on a socket: the only way to send what fetch refuses (a URL that does not decode, a huge head). */
function rawRequest(port: number, request: string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    // A server that threw instead of answering leaves the socket open: that is a status of 0 here.
    socket.setTimeout(10_000, () => socket.destroy());
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const contentType = /^content-type: *(.+)$/im.exec(head)?.[1] ?? '';
      let body = rest.join('\r\n\r\n');
      if (/^transfer-encoding: *chunked/im.test(head)) body = body.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n|\r\n0\r\n$/gi, '');
      resolve({ status, contentType, body });
    });
  });
}

describe.each(DB_KINDS)('prototype keys in every client-controlled position on %s', (kind) => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startTestServer(kind);
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(() => server.close());

  it('answers every framework error path and odd path shape in the envelope, whatever the language headers say', async () => {
    const longSegment = 'a'.repeat(300);
    const cases = (word: string) => [
      { name: 'undecodable URL', line: 'GET /api/%ZZ HTTP/1.1', extra: '' },
      { name: 'undecodable URL, page load', line: 'GET /api/%ZZ HTTP/1.1', extra: 'Accept: text/html\r\n' },
      { name: 'over-long path parameter', line: `GET /admin/api/users/${longSegment} HTTP/1.1`, extra: '' },
      { name: 'head over the limit', line: 'GET /api/user/info HTTP/1.1', extra: `X-Pad: ${'p'.repeat(20_000)}\r\n` },
      { name: 'broken request line', line: `GET /api/ nope HTTP/1.1`, extra: '' },
      {
        name: 'malformed JSON',
        line: 'POST /api/user/loginForU HTTP/1.1',
        extra: 'Content-Type: application/json\r\nContent-Length: 3\r\n',
        body: '{"a',
      },
      {
        name: 'unknown content type',
        line: 'POST /api/user/loginForU HTTP/1.1',
        extra: 'Content-Type: text/x-nope\r\nContent-Length: 2\r\n',
        body: 'hi',
      },
      {
        name: 'body over the limit',
        line: 'POST /api/user/loginForU HTTP/1.1',
        extra: `Content-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n`,
        body: '{',
      },
      { name: 'unknown route', line: `GET /api/${encodeURIComponent(word)} HTTP/1.1`, extra: '' },
      ...[
        '//api//user/info',
        '/api/user/info/..',
        '/api/%2e%2e/admin/api/me',
        '/api/user/info%00',
        '/api/user/info;x=1',
        '/api/%F0%9F',
        '/admin/api/users/%C0%AF',
        `/api/${'x/'.repeat(3000)}`,
        `/admin/api/users/${encodeURIComponent(word)}/orders?page=${encodeURIComponent(word)}`,
        `/api/news/info?id[${word}]=1&${word}[]=2`,
      ].map((path) => ({ name: `path ${path.slice(0, 40)}`, line: `GET ${path} HTTP/1.1`, extra: '' })),
    ];
    for (const word of PROTOTYPE_WORDS) {
      for (const header of ['lang', 'Accept-Language']) {
        for (const { name, line, extra, body = '' } of cases(word)) {
          const answer = await rawRequest(
            port,
            `${line}\r\nHost: 127.0.0.1\r\n${header}: ${word}\r\nConnection: close\r\n${extra}\r\n${body}`,
          );
          expectAnswered(
            `${name} with ${header}: ${word}`,
            answer.status,
            answer.contentType,
            answer.body,
            extra.startsWith('Accept'),
          );
        }
      }
    }
    // Still serving.
    expect(await server.call('GET', '/api/nope', { lang: '__proto__' })).toMatchObject({ status: 404, code: 1004 });
  });

  it('answers every route in the envelope with prototype words in headers, params, query and body keys', async () => {
    const trader = await createTrader(server.database.db);
    const operator = await server.operatorHeaders('fuzz', 'superadmin');
    const identities: [string, Record<string, string>][] = [
      ['anonymous', {}],
      ['trader', { authorization: trader.token }],
      ['operator', operator],
    ];
    // Signing out last keeps the identity's session for the other routes.
    const routes = routesOf(server.app).sort((a, b) => Number(a.url.includes('logout')) - Number(b.url.includes('logout')));
    expect(routes.length).toBeGreaterThan(100);
    let address = 0;
    for (const [who, auth] of identities) {
      for (const { method, url } of routes) {
        for (const word of PROTOTYPE_WORDS) {
          const poisonedBody = `{"${word}":{"${word}":"${word}"},"constructor":{"prototype":{"x":1}},"account":"${word}","id":"${word}"}`;
          const bodies =
            method === 'GET' || method === 'DELETE'
              ? [undefined]
              : [
                  { 'content-type': 'application/json', payload: poisonedBody },
                  {
                    'content-type': 'application/x-www-form-urlencoded',
                    payload: `${word}=${word}&${word}[${word}]=1&id=${word}`,
                  },
                ];
          for (const body of bodies) {
            address += 1;
            const response = await server.app.inject({
              method: method as 'GET',
              url: pathWith(url, word),
              // Spread over addresses so the per-address rate limit never answers in place of the route.
              remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
              headers: {
                ...auth,
                lang: word,
                'accept-language': word,
                'x-request-id': word,
                [word]: word,
                ...(body ? { 'content-type': body['content-type'] } : {}),
              },
              ...(body ? { payload: body.payload } : {}),
            });
            expectAnswered(
              `${who} ${method} ${url} with ${word}${body ? ` (${body['content-type']})` : ''}`,
              response.statusCode,
              String(response.headers['content-type'] ?? ''),
              response.body,
            );
          }
        }
      }
    }
  });
});
