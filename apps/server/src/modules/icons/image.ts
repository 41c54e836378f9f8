import type { default as Sharp, Metadata, OutputInfo } from 'sharp';

// What a site's icon must be before Signpost keeps it (decision 0068): bytes that are really
// a PNG, JPEG, GIF, WebP or ICO image by their first bytes (whatever the answer's
// Content-Type claimed), of sane dimensions, that decode, scaled to the tile's sizes and
// written again as PNG. Nothing a site sent is ever served as it came: what the web app shows
// is what sharp wrote, without the source's metadata.

/**
 * The sides, in pixels, of the squares kept for each icon. The tile draws an icon at 32 CSS
 * px (`.link-icon`, 2rem), so 32, 64 and 96 cover screens of 1, 2 and 3 device pixels per
 * CSS pixel; the collection preview's 13 px cells take the same files at any density.
 */
export const ICON_SIZES = [32, 64, 96] as const;
/** The largest of ICON_SIZES: a source at least this large is never enlarged. */
export const LARGEST_ICON_SIZE = 96;

/**
 * The most pixels, and the longest side, of a source we decode. Site icons are 16 to 512 px
 * and a manifest's largest is usually 512 or 1024; 2048 on a side leaves room for the large
 * ones and keeps one decoded source at 16 MiB of RGBA. Dimensions are read from the header
 * before anything is decoded, so a small file that claims a huge picture (a decompression
 * bomb) is refused without allocating it.
 */
export const MAX_SOURCE_SIDE = 2048;
export const MAX_SOURCE_PIXELS = MAX_SOURCE_SIDE * MAX_SOURCE_SIDE;
/** Smaller than this is a tracking pixel or a placeholder, not an icon. */
export const MIN_SOURCE_SIDE = 16;
/** An administrator's upload: larger than any icon needs to be, small enough to hold in memory. */
export const MAX_UPLOAD_BYTES = 1024 * 1024;
// sharp and libvips (about 20 MB) load with the first image, not with the server: a server
// that never meets an icon, or is told not to reach sites, never holds them.
// sharp's operation cache (libvips', 50 MB by default) keeps decoded images for reuse; each
// icon here is decoded once and never again, so the cache would only hold memory. The setting
// is the process's, and this module is the server's one user of sharp.
let loadingSharp: Promise<typeof Sharp> | null = null;
const loadSharp = () =>
  (loadingSharp ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  }));

/** An ICO holds a handful of sizes; a directory longer than this is not a real icon. */
const MAX_ICO_ENTRIES = 64;

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp' | 'ico';

export type ImageRefusal =
  /** No bytes at all. */
  | 'empty'
  /** More bytes than the cap. */
  | 'too-large'
  /** The first bytes are of none of the formats kept (text, HTML, BMP, AVIF…). */
  | 'not-an-image'
  /** An SVG image: not rasterised (decision 0068, "SVG"). */
  | 'svg'
  /** The header claims more pixels, or a longer side, than MAX_SOURCE_*. */
  | 'too-many-pixels'
  /** Smaller than MIN_SOURCE_SIDE on a side. */
  | 'too-small'
  /** The header looked right but the image does not decode. */
  | 'undecodable';

export interface ScaledIcon {
  /** The side in pixels: one of ICON_SIZES. */
  size: number;
  contentType: 'image/png';
  bytes: Buffer;
}

export type ImageResult =
  | {
      ok: true;
      /** The format the bytes really are. */
      kind: ImageKind;
      /** The source's dimensions (for an ICO, the entry used). */
      width: number;
      height: number;
      /** One square per ICON_SIZES entry, in that order. */
      images: ScaledIcon[];
    }
  | {
      ok: false;
      reason: ImageRefusal;
      /** For logs and administrators. */
      message: string;
    };

const refuse = (reason: ImageRefusal, message: string): ImageResult => ({
  ok: false,
  reason,
  message,
});

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');
// ICONDIR: reserved 0, type 1 (icon; 2 would be a cursor), then the entry count.
const ICO = [0x00, 0x00, 0x01, 0x00];

/**
 * The format the bytes are, by their signature alone. A Content-Type header, a file name or
 * a `type` attribute says what the sender believes or wants us to believe; the signature is
 * what a decoder will actually read.
 */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'webp';
  if (startsWith(bytes, ICO) && bytes.length >= 6 && (bytes[4]! | (bytes[5]! << 8)) > 0) {
    return 'ico';
  }
  return null;
}

/**
 * Whether bytes that are no raster image look like an SVG document, only to say so instead of
 * "not an image": the answer decides nothing, SVG is refused either way.
 */
function looksLikeSvg(bytes: Uint8Array, claimedType: string | undefined): boolean {
  if (claimedType?.toLowerCase().includes('svg')) return true;
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1').toLowerCase();
  return head.includes('<svg');
}

/**
 * Checks, decodes and scales a site's icon. `claimedType` (the answer's Content-Type) only
 * colours the message: the decision is the bytes'.
 */
export async function processIcon(
  bytes: Uint8Array,
  options: { claimedType?: string; maxBytes?: number } = {},
): Promise<ImageResult> {
  const { claimedType, maxBytes } = options;
  if (bytes.length === 0) return refuse('empty', 'no bytes');
  if (maxBytes !== undefined && bytes.length > maxBytes) {
    return refuse('too-large', `${bytes.length} bytes, more than ${maxBytes}`);
  }
  const kind = sniffImage(bytes);
  if (kind === null) {
    if (looksLikeSvg(bytes, claimedType)) return refuse('svg', 'an SVG image, not rasterised');
    const claimed = claimedType ? ` (sent as ${claimedType.split(';')[0]!.trim()})` : '';
    return refuse('not-an-image', `not a PNG, JPEG, GIF, WebP or ICO image${claimed}`);
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === 'ico') return processIco(buffer);
  return processRaster(buffer, kind);
}

/** An administrator's own icon for a link: the same checks, with the upload's cap. */
export function processUploadedIcon(bytes: Uint8Array, claimedType?: string) {
  return processIcon(bytes, { claimedType, maxBytes: MAX_UPLOAD_BYTES });
}

function checkDimensions(width: number, height: number): ImageResult | null {
  if (!(width > 0 && height > 0)) return refuse('undecodable', 'no dimensions in the header');
  if (width > MAX_SOURCE_SIDE || height > MAX_SOURCE_SIDE || width * height > MAX_SOURCE_PIXELS) {
    return refuse(
      'too-many-pixels',
      `${width}×${height} pixels, more than ${MAX_SOURCE_SIDE} on a side`,
    );
  }
  if (width < MIN_SOURCE_SIDE || height < MIN_SOURCE_SIDE) {
    return refuse('too-small', `${width}×${height} pixels, less than ${MIN_SOURCE_SIDE} on a side`);
  }
  return null;
}

// For every decode: sharp's own pixel limit as a second guard behind checkDimensions, the
// first frame only of an animated GIF or WebP, and failures on a truncated or corrupt file
// (libpng's warnings about colour profiles, common in favicons, do not fail).
const DECODE = {
  limitInputPixels: MAX_SOURCE_PIXELS,
  failOn: 'error',
  pages: 1,
} as const;

async function processRaster(buffer: Buffer, kind: Exclude<ImageKind, 'ico'>) {
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    // Reads the header only, so sharp's pixel limit is lifted here: the dimensions are known
    // before a pixel is decoded, and checkDimensions says why a picture is refused.
    metadata = await sharp(buffer, { ...DECODE, limitInputPixels: false }).metadata();
  } catch (error) {
    return refuse('undecodable', (error as Error).message);
  }
  // libvips picks its loader by the same signatures; a disagreement means a file crafted to
  // look like one format to us and another to the decoder, and is not decoded.
  if (metadata.format !== kind) {
    return refuse('undecodable', `the decoder reads ${metadata.format}, not ${kind}`);
  }
  // EXIF orientation swaps the sides of some JPEGs; the limits are the same either way.
  const { width, height } = metadata;
  const refused = checkDimensions(width, height);
  if (refused) return refused;
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(buffer, DECODE)
      .autoOrient()
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    return refuse('undecodable', (error as Error).message);
  }
  return scale(kind, decoded.data, decoded.info.width, decoded.info.height);
}

interface IcoEntry {
  width: number;
  height: number;
  bitCount: number;
  size: number;
  offset: number;
  /** The 16 bytes of the directory entry. */
  entry: Buffer;
}

/** The ICO's directory, each entry inside the file, or null when it is not a sound one. */
function icoDirectory(buffer: Buffer): IcoEntry[] | null {
  const count = buffer.readUInt16LE(4);
  if (count > MAX_ICO_ENTRIES || buffer.length < 6 + 16 * count) return null;
  const entries: IcoEntry[] = [];
  for (let i = 0; i < count; i++) {
    const at = 6 + 16 * i;
    const size = buffer.readUInt32LE(at + 8);
    const offset = buffer.readUInt32LE(at + 12);
    if (size === 0 || offset < 6 + 16 * count || offset + size > buffer.length) return null;
    entries.push({
      // 0 stands for 256, the format's largest.
      width: buffer[at] || 256,
      height: buffer[at + 1] || 256,
      bitCount: buffer.readUInt16LE(at + 6),
      size,
      offset,
      entry: buffer.subarray(at, at + 16),
    });
  }
  return entries;
}

/**
 * The entry to use: the smallest at least LARGEST_ICON_SIZE on its shorter side (scaled down
 * the least), else the largest; among equal sizes the most colours.
 */
function bestIcoEntry(entries: IcoEntry[]): IcoEntry {
  const side = (entry: IcoEntry) => Math.min(entry.width, entry.height);
  return entries.reduce((best, entry) => {
    const a = side(entry);
    const b = side(best);
    if (a === b) return entry.bitCount > best.bitCount ? entry : best;
    if (a >= LARGEST_ICON_SIZE && b >= LARGEST_ICON_SIZE) return a < b ? entry : best;
    return a > b ? entry : best;
  });
}

/**
 * An ICO through `decode-ico`, which reads the format sharp cannot: one entry is chosen from
 * the directory and only it is decoded. A PNG entry is a PNG file and goes through the same
 * checks as one; a BMP entry's header is checked before the library allocates its pixels.
 */
async function processIco(buffer: Buffer): Promise<ImageResult> {
  const entries = icoDirectory(buffer);
  if (entries === null || entries.length === 0) {
    return refuse('undecodable', 'an ICO directory that points outside the file');
  }
  const chosen = bestIcoEntry(entries);
  const data = buffer.subarray(chosen.offset, chosen.offset + chosen.size);
  if (sniffImage(data) === 'png') {
    const result = await processRaster(Buffer.from(data), 'png');
    return result.ok ? { ...result, kind: 'ico' } : result;
  }
  // A BITMAPINFOHEADER (40 bytes or more): width, then height twice over (the colours and
  // the transparency mask), as signed 32-bit numbers. The format allows 256 at most.
  if (data.length < 40 || data.readUInt32LE(0) < 40) {
    return refuse('undecodable', 'an ICO entry that is neither PNG nor a bitmap');
  }
  const width = data.readInt32LE(4);
  const height = data.readInt32LE(8) / 2;
  if (width > 256 || Math.abs(height) > 256) {
    return refuse('too-many-pixels', `an ICO bitmap of ${width}×${height} pixels`);
  }
  const refused = checkDimensions(width, height);
  if (refused) return refused;
  let rgba: { data: Uint8ClampedArray; width: number; height: number };
  try {
    // The chosen entry alone, as an ICO of one image at offset 22 (6 + 16), so that the
    // library decodes nothing else.
    const header = Buffer.from([0, 0, 1, 0, 1, 0]);
    const entry = Buffer.from(chosen.entry);
    entry.writeUInt32LE(22, 12);
    const { default: decodeIco } = await import('decode-ico');
    const [image] = decodeIco(Buffer.concat([header, entry, data]));
    if (image === undefined || image.type !== 'bmp') throw new Error('no bitmap in the entry');
    rgba = image;
  } catch (error) {
    return refuse('undecodable', (error as Error).message);
  }
  const pixels = Buffer.from(rgba.data.buffer, rgba.data.byteOffset, rgba.data.byteLength);
  return scale('ico', pixels, rgba.width, rgba.height);
}

/**
 * The decoded source (RGBA, 4 channels) as one PNG per ICON_SIZES entry. A source that is not
 * square is centred on a transparent square, never cropped: a wide logo stays whole.
 * Shrinking uses sharp's default (Lanczos 3); enlarging a small favicon by a whole factor (16
 * to 32, 64 or 96) repeats its pixels, which keeps a 16 px drawing's edges sharp where any
 * smoothing blurs them.
 */
async function scale(
  kind: ImageKind,
  pixels: Buffer,
  width: number,
  height: number,
): Promise<ImageResult> {
  const source = Math.max(width, height);
  const sharp = await loadSharp();
  try {
    const images = await Promise.all(
      ICON_SIZES.map(async (size): Promise<ScaledIcon> => {
        const enlargeByWholeFactor = size > source && size % source === 0;
        const bytes = await sharp(pixels, { raw: { width, height, channels: 4 } })
          .resize(size, size, {
            fit: 'contain',
            background: { r: 0, g: 0, b: 0, alpha: 0 },
            kernel: enlargeByWholeFactor ? 'nearest' : 'lanczos3',
          })
          .png({ compressionLevel: 9, adaptiveFiltering: true })
          .toBuffer();
        return { size, contentType: 'image/png', bytes };
      }),
    );
    return { ok: true, kind, width, height, images };
  } catch (error) {
    return refuse('undecodable', (error as Error).message);
  }
}
