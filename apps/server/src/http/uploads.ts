import multipart, { type MultipartFile } from '@fastify/multipart';
import { AppError, invalid } from '@pipwise/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * What one multipart request may hold in all: one file of at most 10 MB and a few short fields. Busboy
 * counts as it reads, so a request over any cap is refused without being held in memory.
 */
export const UPLOAD_LIMITS = {
  fileSize: MAX_UPLOAD_BYTES,
  files: 1,
  fields: 10,
  fieldSize: 4096,
  parts: 11,
  headerPairs: 20,
} as const;

/** A file of a multipart body, as upload routes receive it in `request.body`. */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/**
 * A file part's bytes. Past the size cap the stream fails at once, so the refusal is answered (and the
 * connection closed) then: the plugin's own `toBuffer` would read the rest of the body only to drop it.
 */
async function readFile(part: MultipartFile): Promise<Buffer> {
  part.file.once('limit', () => part.file.destroy(Object.assign(new Error('file over the size cap'), { statusCode: 413 })));
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readParts(request: FastifyRequest): Promise<Record<string, string | UploadedFile>> {
  // Collected as entries: Object.fromEntries defines own properties, so a part named __proto__ stays data.
  const entries: [string, string | UploadedFile][] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        entries.push([part.fieldname, { filename: part.filename, mimetype: part.mimetype, data: await readFile(part) }]);
      } else {
        if (part.valueTruncated) throw invalid('field_too_long');
        entries.push([part.fieldname, String(part.value)]);
      }
    }
  } catch (error) {
    // Over a cap: 413 from the plugin. Anything else (a truncated or malformed body) is bad input, not a 500.
    if (error instanceof Error && 'statusCode' in error && error.statusCode === 413) throw error;
    if (error instanceof AppError) throw error;
    throw invalid('body_invalid');
  }
  return Object.fromEntries(entries);
}

/**
 * Multipart is read only by upload routes: a module registers them in a scope that calls this first.
 * Everywhere else no parser knows multipart, so such a body is refused (1001) before it is read.
 * Fields arrive in `request.body` like a JSON or urlencoded body's, files as `UploadedFile`.
 */
export async function acceptUploads(scope: FastifyInstance) {
  await scope.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });
  scope.addHook('preValidation', async (request) => {
    if (request.isMultipart()) request.body = await readParts(request);
  });
}
