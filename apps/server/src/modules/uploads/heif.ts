/**
 * Reads enough of an ISO-BMFF (HEIF) file to say whether it is an HEIC photo: HEVC-coded images in a
 * picture handler. The brand alone says nothing (an AVIF relabelled `heic` decodes as AV1), so the
 * decision is the items the file declares, and anything not exactly recognised is refused.
 */

/** Brands of HEIC (HEVC in HEIF); AVIF's and the generic HEIF ones do not make a file HEIC. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
/** AV1 brands: a file claiming them is AVIF whatever else it claims. */
const AV1_BRANDS = new Set(['avif', 'avis', 'av01']);

/**
 * Item types an HEIC photo holds: HEVC images (the picture, tiles, thumbnails, depth and gain maps),
 * the derivations of them (a grid of tiles, an identity, an overlay, a tone map) and metadata. Any other
 * coded image (AV1, JPEG, uncompressed, …) is not HEIC.
 */
const HEIC_ITEM_TYPES = new Set(['hvc1', 'grid', 'iden', 'iovl', 'tmap', 'Exif', 'mime', 'uri ']);
/** What the primary item may be: an HEVC image, or a grid of HEVC tiles. */
const HEIC_PRIMARY_TYPES = new Set(['hvc1', 'grid']);

interface Box {
  type: string;
  /** Where the box's content starts (after its header) and where the box ends. */
  content: number;
  end: number;
}

/** The boxes between `start` and `end`; null when a size runs past `end` or is too small to be a box. */
function boxes(bytes: Buffer, start: number, end: number): Box[] | null {
  const found: Box[] = [];
  let at = start;
  while (at < end) {
    if (end - at < 8) return null;
    let size = bytes.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (end - at < 16) return null;
      const large = bytes.readBigUInt64BE(at + 8);
      if (large > BigInt(end - at)) return null;
      size = Number(large);
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || size > end - at) return null;
    found.push({ type: bytes.toString('latin1', at + 4, at + 8), content: at + header, end: at + size });
    at += size;
  }
  return found;
}

/** The one box of `type` among `list`: null when there is none or more than one. */
const single = (list: Box[], type: string) => {
  const matches = list.filter((box) => box.type === type);
  return matches.length === 1 ? matches[0]! : null;
};

/** The items an `iinf` box declares, id to type; null unless every entry is an `infe` of version 2 or 3. */
function itemTypes(bytes: Buffer, iinf: Box): Map<number, string> | null {
  const version = bytes[iinf.content];
  const countSize = version === 0 ? 2 : 4;
  const entriesAt = iinf.content + 4 + countSize;
  if (entriesAt > iinf.end) return null;
  const count = countSize === 2 ? bytes.readUInt16BE(iinf.content + 4) : bytes.readUInt32BE(iinf.content + 4);
  const entries = boxes(bytes, entriesAt, iinf.end);
  if (!entries || entries.length !== count) return null;
  const types = new Map<number, string>();
  for (const entry of entries) {
    const entryVersion = bytes[entry.content];
    // Versions 0 and 1 carry no item type; a version 2 id is 16 bits, a version 3 id 32.
    if (entry.type !== 'infe' || (entryVersion !== 2 && entryVersion !== 3)) return null;
    const idSize = entryVersion === 2 ? 2 : 4;
    const typeAt = entry.content + 4 + idSize + 2;
    if (typeAt + 4 > entry.end) return null;
    const id = idSize === 2 ? bytes.readUInt16BE(entry.content + 4) : bytes.readUInt32BE(entry.content + 4);
    if (types.has(id)) return null;
    types.set(id, bytes.toString('latin1', typeAt, typeAt + 4));
  }
  return types;
}

/**
 * Whether `bytes` is an HEIC photo by its structure: top-level boxes that fill the file exactly, `ftyp`
 * first with an HEIC brand (major, or compatible under `mif1`) and no AV1 brand, one `meta` whose
 * handler is `pict`, whose primary item (`pitm`) is an HEVC image or a grid, and whose items (`iinf`)
 * are all of HEIC's types with at least one HEVC image.
 */
export function isHeic(bytes: Buffer): boolean {
  const top = boxes(bytes, 0, bytes.length);
  const ftyp = top?.[0];
  if (!top || !ftyp || ftyp.type !== 'ftyp' || ftyp.end - ftyp.content < 8 || (ftyp.end - ftyp.content) % 4 !== 0) return false;
  const major = bytes.toString('latin1', ftyp.content, ftyp.content + 4);
  const compatible: string[] = [];
  for (let at = ftyp.content + 8; at < ftyp.end; at += 4) compatible.push(bytes.toString('latin1', at, at + 4));
  const brands = [major, ...compatible];
  if (brands.some((brand) => AV1_BRANDS.has(brand))) return false;
  if (!HEIC_BRANDS.has(major) && !(major === 'mif1' && compatible.some((brand) => HEIC_BRANDS.has(brand)))) return false;

  const meta = single(top, 'meta');
  if (!meta || meta.end - meta.content < 4) return false;
  const children = boxes(bytes, meta.content + 4, meta.end);
  if (!children) return false;
  const hdlr = single(children, 'hdlr');
  if (!hdlr || hdlr.end - hdlr.content < 12 || bytes.toString('latin1', hdlr.content + 8, hdlr.content + 12) !== 'pict') {
    return false;
  }
  const pitm = single(children, 'pitm');
  if (!pitm) return false;
  const pitmVersion = bytes[pitm.content];
  if (pitm.end - pitm.content < (pitmVersion === 0 ? 6 : 8)) return false;
  const primary = pitmVersion === 0 ? bytes.readUInt16BE(pitm.content + 4) : bytes.readUInt32BE(pitm.content + 4);
  const iinf = single(children, 'iinf');
  if (!iinf || iinf.end - iinf.content < 6) return false;
  const items = itemTypes(bytes, iinf);
  if (!items) return false;
  const types = [...items.values()];
  return (
    HEIC_PRIMARY_TYPES.has(items.get(primary) ?? '') && types.includes('hvc1') && types.every((type) => HEIC_ITEM_TYPES.has(type))
  );
}
