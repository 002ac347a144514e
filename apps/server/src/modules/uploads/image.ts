import { invalid } from '@pipwise/domain';
import sharp from 'sharp';
import { isHeic } from './heif.js';

// Every upload is decoded once: libvips' operation cache would only keep recent ID documents in memory.
sharp.cache(false);

/** Formats users may send: JPEG, PNG and WebP recognised by their first bytes, HEIC by its box structure. */
export type ImageKind = 'jpeg' | 'png' | 'webp' | 'heic';

/** A phone photo is 12–50 megapixels; beyond that decoding costs memory no document needs. */
export const MAX_INPUT_PIXELS = 50_000_000;

/** Enough to read any document or receipt; a larger copy only costs storage. */
const MAX_SIDE = 4096;

/** The format the bytes say they are, or null; the file's name and declared type are never consulted. */
export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (bytes.toString('latin1', 4, 8) === 'ftyp' && isHeic(bytes)) return 'heic';
  return null;
}

/** The decoder's name for each kind: what sharp must agree the bytes are. */
const DECODED_AS: Record<ImageKind, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', heic: 'heif' };

export interface NormalizedImage {
  mimeType: 'image/jpeg' | 'image/png' | 'image/webp';
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes and re-encodes an upload: what is stored is pixels the decoder produced, never the sender's
 * bytes, so a polyglot file or a payload hidden in metadata does not survive. EXIF orientation is
 * applied (`rotate()`), then every piece of metadata (EXIF with GPS, XMP, comments, ICC profiles) is
 * dropped: sharp writes none unless asked, converting to sRGB. HEIC becomes JPEG, which browsers show.
 */
export async function normalizeImage(bytes: Buffer): Promise<NormalizedImage> {
  const kind = sniffImage(bytes);
  if (!kind) throw invalid('upload_type_unsupported');
  // failOn 'warning': a truncated JPEG decodes with a warning and grey rows; it must be refused instead.
  const options = { failOn: 'warning', limitInputPixels: MAX_INPUT_PIXELS } as const;
  // The header alone, without the pixel limit, so an image too large is told apart from a broken one.
  const header = await sharp(bytes, { ...options, limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!header) throw unreadable(kind);
  if (header.format !== DECODED_AS[kind] || (kind === 'heic' && header.compression !== 'hevc')) {
    throw invalid('upload_type_unsupported');
  }
  // Read from the header before any pixel is decoded, so a small file declaring a huge image costs nothing.
  if (!header.width || !header.height || header.width * header.height > MAX_INPUT_PIXELS) {
    throw invalid('upload_too_many_pixels', { megapixels: MAX_INPUT_PIXELS / 1_000_000 });
  }
  const pipeline = sharp(bytes, options)
    .rotate()
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  const encoded =
    kind === 'png' ? pipeline.png() : kind === 'webp' ? pipeline.webp({ quality: 85 }) : pipeline.jpeg({ quality: 85 });
  const result = await encoded.toBuffer({ resolveWithObject: true }).catch(() => null);
  if (!result) throw unreadable(kind);
  const mimeType = kind === 'png' ? 'image/png' : kind === 'webp' ? 'image/webp' : 'image/jpeg';
  return { mimeType, data: result.data, width: result.info.width, height: result.info.height };
}

/** This build of the decoder may lack HEVC: the sender is told which format to send instead. */
const unreadable = (kind: ImageKind) => invalid(kind === 'heic' ? 'upload_heic_unreadable' : 'upload_unreadable');
