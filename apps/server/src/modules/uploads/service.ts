import { invalid, notFound, UPLOAD_ID_PATTERN } from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Db, Executor } from '../../db/client.js';
import { uploads } from '../../db/schema.js';
import type { UploadedFile } from '../../http/uploads.js';
import { normalizeImage } from './image.js';

/** How long a signed link shows its image: long enough to look at a form, short enough that a leaked link dies. */
export const LINK_TTL_SECONDS = 15 * 60;

const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES_PATTERN = /^\d{1,12}$/;

export interface StoredUpload {
  id: string;
  mimeType: string;
  bytes: number;
  width: number;
  height: number;
}

/** The bytes of an upload and their type, as they are served. */
export interface UploadContent {
  mimeType: string;
  data: Buffer;
}

/**
 * Images users upload (payment proofs, ID documents). Private: the owner sees them through signed,
 * expiring links, operators through their own API; other modules may only reference an upload after
 * `requireOwned`.
 */
export class UploadsService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      /** HMAC key of the links (`deriveKey(config, 'upload-links')`). */
      linkKey: Buffer;
    },
  ) {}

  /** Checks and re-encodes the image (see `normalizeImage`), then keeps it under a random id. */
  async store(userId: number, file: UploadedFile): Promise<StoredUpload> {
    const image = await normalizeImage(file.data);
    const id = randomBytes(16).toString('base64url');
    await this.deps.db.insert(uploads).values({
      id,
      userId,
      mimeType: image.mimeType,
      bytes: image.data.length,
      width: image.width,
      height: image.height,
      sha256: createHash('sha256').update(image.data).digest('hex'),
      data: image.data,
      createdAt: this.deps.clock.now(),
    });
    return { id, mimeType: image.mimeType, bytes: image.data.length, width: image.width, height: image.height };
  }

  /**
   * The upload `id` if `userId` made it. Unknown and someone else's get the same answer, so an id that
   * leaked (a shared link) tells nobody whether it exists.
   */
  async requireOwned(executor: Executor, userId: number, id: string): Promise<StoredUpload> {
    if (!UPLOAD_ID_PATTERN.test(id)) throw invalid('upload_invalid');
    const [row] = await executor
      .select({ id: uploads.id, mimeType: uploads.mimeType, bytes: uploads.bytes, width: uploads.width, height: uploads.height })
      .from(uploads)
      .where(and(eq(uploads.id, id), eq(uploads.userId, userId)));
    if (!row) throw invalid('upload_invalid');
    return row;
  }

  /** A link that shows the upload for LINK_TTL_SECONDS after `now`, to whoever holds it (an `<img>` sends no token). */
  signedUrl(id: string, now: Date = this.deps.clock.now()): string {
    const expires = Math.floor(now.getTime() / 1000) + LINK_TTL_SECONDS;
    return `/api/common/upload/${id}?expires=${expires}&sig=${this.sign(id, String(expires))}`;
  }

  /**
   * The upload a link shows, with the seconds it stays valid; null when the link is forged, altered,
   * expired or incomplete (one answer for all, so a prober learns nothing).
   */
  async readSigned(
    id: string,
    expires: unknown,
    sig: unknown,
    now: Date,
  ): Promise<(UploadContent & { remainingSeconds: number }) | null> {
    if (typeof expires !== 'string' || typeof sig !== 'string') return null;
    if (!UPLOAD_ID_PATTERN.test(id) || !EXPIRES_PATTERN.test(expires) || !SIGNATURE_PATTERN.test(sig)) return null;
    // Compared as text, not decoded: base64url's last character has spare bits, so decoding would
    // accept a few altered signatures.
    if (!timingSafeEqual(Buffer.from(this.sign(id, expires)), Buffer.from(sig))) return null;
    const remainingSeconds = Number(expires) - Math.floor(now.getTime() / 1000);
    if (remainingSeconds <= 0) return null;
    const content = await this.find(id);
    return content && { ...content, remainingSeconds };
  }

  /** Any upload, for operators reviewing a deposit or an identity. */
  async read(id: string): Promise<UploadContent> {
    const content = UPLOAD_ID_PATTERN.test(id) ? await this.find(id) : null;
    if (!content) throw notFound('upload_not_found');
    return content;
  }

  private async find(id: string): Promise<UploadContent | null> {
    const [row] = await this.deps.db
      .select({ mimeType: uploads.mimeType, data: uploads.data })
      .from(uploads)
      .where(eq(uploads.id, id));
    return row ?? null;
  }

  /** The id and the expiry are joined with a separator neither can contain, so no two pairs sign alike. */
  private sign(id: string, expires: string): string {
    return createHmac('sha256', this.deps.linkKey).update(`${id}.${expires}`).digest('base64url');
  }
}
