import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

// Images for the icon tests, drawn when the tests run instead of kept as binary fixtures:
// each is a few hundred bytes and says in code what it is.

type Colour = { r: number; g: number; b: number; alpha?: number };
const RED: Colour = { r: 220, g: 20, b: 60 };

/** A plain square (or rectangle) of one colour. */
const plain = (width: number, height = width, colour: Colour = RED) =>
  sharp({
    create: { width, height, channels: 4, background: { alpha: 1, ...colour } },
  });

export const pngOf = (width: number, height = width, colour?: Colour) =>
  plain(width, height, colour).png().toBuffer();
export const jpegOf = (width: number, height = width) =>
  plain(width, height).flatten().jpeg().toBuffer();
export const gifOf = (width: number) => plain(width).gif().toBuffer();
export const webpOf = (width: number) => plain(width).webp().toBuffer();

/** A 16×16 checkerboard of 4 px black and white squares. */
export function checkerboardPng(): Promise<Buffer> {
  const pixels = Buffer.alloc(16 * 16 * 4);
  for (let y = 0; y < 16; y++) {
    for (let x = 0; x < 16; x++) {
      const value = (Math.floor(x / 4) + Math.floor(y / 4)) % 2 === 0 ? 0 : 255;
      pixels.fill(value, (y * 16 + x) * 4, (y * 16 + x) * 4 + 3);
      pixels[(y * 16 + x) * 4 + 3] = 255;
    }
  }
  return sharp(pixels, { raw: { width: 16, height: 16, channels: 4 } })
    .png()
    .toBuffer();
}

/** An ICO whose entries are the given images (PNG files or BMP entries), in that order. */
export function icoOf(entries: { width: number; height: number; data: Buffer }[]): Buffer {
  const header = Buffer.from([0, 0, 1, 0, entries.length, 0]);
  let offset = 6 + 16 * entries.length;
  const directory = entries.map(({ width, height, data }) => {
    const entry = Buffer.alloc(16);
    entry[0] = width >= 256 ? 0 : width;
    entry[1] = height >= 256 ? 0 : height;
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...directory, ...entries.map((entry) => entry.data)]);
}

/**
 * An ICO entry as a 32-bit bitmap of one colour: a BITMAPINFOHEADER (its height twice the
 * image's, for the colours and the mask), the BGRA rows bottom up, an all-opaque mask.
 * `claimWidth` puts another width in the header than the pixels that follow.
 */
export function bmpEntry(side: number, colour: Colour = RED, claimWidth = side): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(claimWidth, 4);
  header.writeInt32LE(side * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const pixels = Buffer.alloc(side * side * 4);
  for (let i = 0; i < side * side; i++) {
    pixels.set([colour.b, colour.g, colour.r, 255], i * 4);
  }
  const maskRow = Math.ceil(side / 32) * 4;
  return Buffer.concat([header, pixels, Buffer.alloc(maskRow * side)]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of a few dozen bytes whose header claims `width`×`height` (a decompression bomb's
 * header, with a valid checksum): its data holds one row, so decoding it would fail, but
 * a decoder that trusted the header would first allocate the whole picture.
 */
export function pngHeaderClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1 + 4 * Math.min(width, 64)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The side and RGBA of a pixel of a PNG. */
export async function pixelOf(png: Buffer, x: number, y: number) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [...data.subarray(at, at + 4)];
}

export async function sizeOf(png: Buffer) {
  const { width, height, format } = await sharp(png).metadata();
  return { width, height, format };
}
