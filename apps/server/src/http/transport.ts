import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { DEFAULT_LANGUAGE, LANGUAGE_LOCALES, ResponseCode, RTL_LANGUAGES, resolveLanguage, type Language } from '@pipwise/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translate } from '../i18n/catalog.js';

interface Envelope {
  code: number;
  msg: string;
  data: null;
}

/**
 * Whether the request is for an API (/api, /v1/api, /admin/api) rather than the web app and its files. Read from
 * the route it matched, since the router decodes the path: /%61pi/… reaches /api/… too.
 */
export function isApiRequest(request: FastifyRequest): boolean {
  return /^\/((v1|admin)\/)?api(\/|\?|$)/.test(request.routeOptions.url ?? request.url);
}

function first(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

/**
 * The request's language: its `lang` header (the app sends it on every call), else the browser's
 * Accept-Language (a page opened directly), else the default.
 */
export function requestLanguage(headers: IncomingHttpHeaders): Language {
  const lang = first(headers.lang);
  if (lang) return resolveLanguage(lang);
  const ranges = (first(headers['accept-language']) ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
      const q = params.find((param) => param.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((range) => range.tag && range.tag !== '*' && range.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranges) {
    const language = resolveLanguage(tag);
    // resolveLanguage answers the default for anything unknown too; the default's own tags are a match.
    if (language !== DEFAULT_LANGUAGE || /^(zh|hk|tw)\b/i.test(tag)) return language;
  }
  return DEFAULT_LANGUAGE;
}

/** A page load (address bar, link, frame) rather than the app's fetch: it must get a page, not JSON. */
function wantsDocument(headers: IncomingHttpHeaders): boolean {
  const destination = first(headers['sec-fetch-dest']);
  if (destination) return destination === 'document' || destination === 'iframe';
  return /^\s*text\/html/i.test(first(headers.accept) ?? '');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function messagePage(lang: Language, message: string): string {
  const text = escapeHtml(message);
  const dir = RTL_LANGUAGES.includes(lang) ? 'rtl' : 'ltr';
  return (
    `<!doctype html><html lang="${LANGUAGE_LOCALES[lang]}" dir="${dir}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${text}</title></head>` +
    '<body style="margin:0;min-height:100vh;display:grid;place-items:center;padding:24px;box-sizing:border-box;' +
    `font:18px/1.5 system-ui,sans-serif;text-align:center"><p>${text}</p></body></html>`
  );
}

/** Said when even the message catalogue failed: an answer in the envelope must still go out. */
const LAST_RESORT_MESSAGE = 'The request could not be processed';

/**
 * The envelope for a refusal. It never throws: these answers run outside any route, where an exception
 * has nobody left to catch it but the process.
 */
export function envelope(lang: Language, code: number, key: string): Envelope {
  try {
    return { code, msg: translate(lang, key), data: null };
  } catch {
    return { code, msg: LAST_RESORT_MESSAGE, data: null };
  }
}

/**
 * What every answer shares beyond the envelope: API answers are never stored by a cache (some carry a
 * session token), and a refusal that reaches a page load is shown as a page in the visitor's language.
 */
export function registerTransport(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every answer, the order path's included.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiRequest(request)) void reply.header('cache-control', 'no-store');
    const page = typeof payload === 'string' && wantsDocument(request.headers) ? refusalPage(request, reply, payload) : null;
    if (page !== null) void reply.type('text/html; charset=utf-8');
    done(null, page ?? payload);
  });
}

/** The page for a JSON envelope that is not a success, or null to send the payload as it is. */
function refusalPage(request: FastifyRequest, reply: FastifyReply, payload: string): string | null {
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return null;
  let answer: Partial<Envelope>;
  try {
    answer = JSON.parse(payload) as Partial<Envelope>;
  } catch {
    return null;
  }
  if (answer.code === ResponseCode.ok || typeof answer.msg !== 'string') return null;
  return messagePage(request.lang, answer.msg);
}

/**
 * Errors Fastify raises before routing (a URL that does not decode, an over-long path parameter): the
 * envelope like every other answer, and never the input, which Fastify's own answer quotes.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  let lang: Language = DEFAULT_LANGUAGE;
  try {
    lang = requestLanguage(request.headers);
  } catch (failure) {
    request.log.warn({ err: failure }, 'could not read the language of a refused request');
  }
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
  request.log.info({ code: error.code }, 'refused a request the router could not take');
  const body = envelope(
    lang,
    status === 500 ? ResponseCode.internal : ResponseCode.invalidInput,
    status === 500 ? 'internal_error' : 'url_invalid',
  );
  void reply.code(status).header('cache-control', 'no-store');
  if (wantsDocument(request.headers)) void reply.type('text/html; charset=utf-8').send(messagePage(lang, body.msg));
  else void reply.send(body);
}

/**
 * Requests Node could not parse (head or URL over the size limit, a broken request line, a timeout):
 * nothing of them can be trusted, so the envelope goes out in the default language, written to the
 * socket as Node's own answer would be.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, key] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'request_too_large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_invalid']
        : [400, 'Bad Request', 'request_invalid'];
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(envelope(DEFAULT_LANGUAGE, ResponseCode.invalidInput, key));
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nCache-Control: no-store\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
