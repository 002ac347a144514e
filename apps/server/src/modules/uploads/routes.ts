import { ApiPath, forbidden, ResponseCode, safeText, ZRefusal, ZUploadView, type UploadView } from '@pipwise/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { requireUser, tokenFromHeader, type TokenResolver } from '../../http/auth.js';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { acceptUploads, type UploadedFile } from '../../http/uploads.js';
import { translate } from '../../i18n/catalog.js';
import type { UploadContent, UploadsService } from './service.js';

export const OPERATOR_UPLOAD_PATH = '/admin/api/uploads/:id';

/**
 * Per session, like the trading limits: a person filing a deposit or an identity sends a handful of
 * images; a script re-encoding images in a loop would spend the server's CPU. Counted before the body is
 * read (preParsing), so a refused request's image is never decoded.
 */
const UPLOAD_LIMIT = {
  config: {
    rateLimit: {
      max: 30,
      timeWindow: '1 minute',
      hook: 'preParsing' as const,
      keyGenerator: (request: FastifyRequest) =>
        request.principal ? `upload-session:${request.principal.sessionId}` : `upload-ip:${request.ip}`,
    },
  },
};

const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data);

/** The image in part `file`; other parts are text the client may add, held to the rules of any text field. */
const ZImageUpload = z
  .object({
    file: z
      .custom<UploadedFile>(isUploadedFile, { error: 'upload_file_required' })
      .meta({ type: 'string', format: 'binary', description: 'the image (JPEG, PNG or WebP), up to 10 MB' }),
  })
  .catchall(safeText());

/**
 * A signed image link's query. Documentation only: `readSigned` checks the pair, and a wrong or expired
 * one is a 403, never a 1001 (the link is the server's, not something a person typed).
 */
const ZSignedLinkQuery = z.object({
  expires: z.string().describe('seconds since the epoch'),
  sig: z.string().describe("the server's signature of the id and expires"),
});

/** An image as served: the stored bytes, re-encoded on upload; a refusal in the envelope otherwise. */
const IMAGE_ANSWER = {
  200: { description: 'The image', content: { 'image/*': { schema: z.string().meta({ format: 'binary' }) } } },
  default: ZRefusal,
};

/** Served images are never interpreted: no sniffing into HTML, no script, shown in place. */
function sendImage(reply: FastifyReply, content: UploadContent, cacheControl: string) {
  return reply
    .header('content-type', content.mimeType)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', 'inline')
    .header('content-security-policy', "default-src 'none'")
    .header('cache-control', cacheControl)
    .send(content.data);
}

export function uploadRoutes(deps: { uploads: UploadsService; resolveToken: TokenResolver; clock: Clock; config: Config }) {
  const { uploads, clock } = deps;
  /** Cache-Control of a served image: the API's global no-store runs first (onSend), this runs after it. */
  const imageCaching = new WeakMap<FastifyRequest, string>();

  return async (app: FastifyInstance) => {
    await app.register(async (scope) => {
      // Who sends is known before the body is read: a request that will be refused (no session, a demo
      // account) never has its image received, let alone decoded. The global auth hook runs later anyway.
      scope.addHook('onRequest', async (request) => {
        request.token = tokenFromHeader(request.headers.authorization);
        request.principal = request.token ? await deps.resolveToken(request.token) : null;
        if (requireUser(request).isDemo) throw forbidden('demo_not_allowed');
      });
      await acceptUploads(scope);
      const upload = { consumes: ['multipart/form-data'], body: ZImageUpload, response: answers(ZUploadView) };
      scope
        .withTypeProvider<DocumentedTypeProvider>()
        .post(ApiPath.imageUpload, { ...UPLOAD_LIMIT, schema: upload }, async (request) => {
          const { userId } = requireUser(request);
          const { file } = parse(ZImageUpload, request.body);
          const stored = await uploads.store(userId, file);
          return ok<UploadView>(request, { id: stored.id, url: uploads.signedUrl(stored.id, clock.now()) });
        });
    });

    app.get(
      ApiPath.upload,
      {
        schema: { params: z.object({ id: z.string() }), querystring: ZSignedLinkQuery, response: IMAGE_ANSWER },
        onSend: (request, reply, payload, done) => {
          const caching = imageCaching.get(request);
          if (caching) void reply.header('cache-control', caching);
          done(null, payload);
        },
      },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        const { expires, sig } = request.query as Record<string, unknown>;
        const content = await uploads.readSigned(id, expires, sig, clock.now());
        if (!content) {
          return reply
            .code(403)
            .send({ code: ResponseCode.forbidden, msg: translate(request.lang, 'upload_link_invalid'), data: null });
        }
        const caching = `private, max-age=${content.remainingSeconds}`;
        imageCaching.set(request, caching);
        return sendImage(reply, content, caching);
      },
    );

    app.get(
      OPERATOR_UPLOAD_PATH,
      { schema: { params: z.object({ id: z.string() }), response: IMAGE_ANSWER } },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        return sendImage(reply, await uploads.read(id), 'no-store');
      },
    );
  };
}
