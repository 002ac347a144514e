import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerEnvelope } from '../src/http/envelope.js';
import { acceptUploads, MAX_UPLOAD_BYTES, UPLOAD_LIMITS, type UploadedFile } from '../src/http/uploads.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

const BOUNDARY = 'pipwise-test-boundary';

/** A multipart body as a browser would send it: fields, then files. */
function multipartBody(fields: Record<string, string>, files: { name: string; size: number }[] = [], close = true): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.name}.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      Buffer.alloc(file.size, 7),
      Buffer.from('\r\n'),
    );
  }
  if (close) parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

interface RawAnswer {
  status: number;
  body: { code: number; msg: string; data: unknown };
  /** Bytes of the body written before the answer arrived. */
  sentBeforeAnswer: number;
  connectionClosed: boolean;
}

/**
 * Sends `body` in 64 KB chunks, one per event-loop turn, and stops writing as soon as an answer
 * arrives: a server that reads the whole body answers only after the last chunk.
 */
function postSlowly(baseUrl: string, path: string, body: Buffer, lang = 'en'): Promise<RawAnswer> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(body.length),
          lang,
        },
      },
      (response) => {
        answered = true;
        const sentBeforeAnswer = sent;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const connectionClosed = response.headers.connection === 'close';
          request.destroy();
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as RawAnswer['body'],
            sentBeforeAnswer,
            connectionClosed,
          });
        });
      },
    );
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const writeNext = () => {
      if (answered || sent >= body.length) return;
      const chunk = body.subarray(sent, sent + 64 * 1024);
      sent += chunk.length;
      request.write(chunk, () => setTimeout(writeNext, 5));
    };
    writeNext();
  });
}

describe.each(DB_KINDS)('multipart bodies on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  it('refuses a 5 MB multipart login with 1001 before the body is read, and closes the connection', async () => {
    const body = multipartBody({ account: 'someone@example.com', password: 'Secret123' }, [
      { name: 'file', size: 5 * 1024 * 1024 },
    ]);
    const answer = await postSlowly(server.baseUrl, '/api/user/loginForU', body);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ code: 1001, msg: 'The request body could not be read', data: null });
    // The answer came while most of the body was still unsent: it was never buffered, let alone parsed.
    expect(answer.sentBeforeAnswer).toBeLessThan(body.length / 4);
    expect(answer.connectionClosed).toBe(true);
  });

  it('refuses a small or truncated multipart body on any non-upload route with 1001, not a 500', async () => {
    const small = await postSlowly(server.baseUrl, '/api/user/loginForU', multipartBody({ account: 'a@example.com' }), 'de');
    expect(small.body).toEqual({ code: 1001, msg: 'Der Anfrageinhalt konnte nicht gelesen werden', data: null });
    const truncated = multipartBody({ account: 'a@example.com', password: 'Secret123' }, [], false).subarray(0, 70);
    const cut = await postSlowly(server.baseUrl, '/api/user/register', truncated);
    expect(cut).toMatchObject({ status: 200, body: { code: 1001, data: null } });
  });
});

describe('upload routes (the multipart scope)', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  beforeAll(async () => {
    app = Fastify({ bodyLimit: 1024 * 1024 });
    registerEnvelope(app);
    await app.register(async (uploads) => {
      await acceptUploads(uploads);
      uploads.post('/upload', async (request) => {
        const body = request.body as Record<string, string | UploadedFile>;
        const summary = Object.fromEntries(
          Object.entries(body).map(([name, value]) => [name, typeof value === 'string' ? value : value.data.length]),
        );
        return { code: 1, msg: 'ok', data: summary };
      });
    });
    app.post('/plain', async () => ({ code: 1, msg: 'ok', data: null }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  it('reads fields and one file within the caps', async () => {
    const answer = await postSlowly(baseUrl, '/upload', multipartBody({ note: 'proof' }, [{ name: 'file', size: 200_000 }]));
    expect(answer.body).toEqual({ code: 1, msg: 'ok', data: { note: 'proof', file: 200_000 } });
  });

  it('answers a truncated multipart body with 1001', async () => {
    const body = multipartBody({ note: 'proof' }, [{ name: 'file', size: 10_000 }], false);
    const answer = await postSlowly(baseUrl, '/upload', body.subarray(0, body.length - 100));
    expect(answer).toMatchObject({ status: 200, body: { code: 1001, msg: 'The request body could not be read', data: null } });
  });

  it.each([
    ['a file over the size cap', multipartBody({}, [{ name: 'file', size: MAX_UPLOAD_BYTES + 1 }])],
    [
      'more files than allowed',
      multipartBody({}, [
        { name: 'a', size: 10 },
        { name: 'b', size: 10 },
      ]),
    ],
    [
      'more fields than allowed',
      multipartBody(Object.fromEntries(Array.from({ length: UPLOAD_LIMITS.fields + 1 }, (_, i) => [`f${i}`, 'x']))),
    ],
  ])('refuses %s with 413 in the envelope', async (_, body) => {
    const answer = await postSlowly(baseUrl, '/upload', body);
    expect(answer).toMatchObject({ status: 413, body: { code: 1001, msg: 'The upload is too large', data: null } });
  });

  it('keeps multipart out of routes outside the scope', async () => {
    const answer = await postSlowly(baseUrl, '/plain', multipartBody({ note: 'x' }));
    expect(answer.body).toMatchObject({ code: 1001 });
  });
});
