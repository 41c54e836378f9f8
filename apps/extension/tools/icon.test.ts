import { inflateRawSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { drawIcon } from './icon';
import { encodePng } from './png';
import { zip } from './zip';

/** Reads back what encodePng wrote: the header's fields and the pixels' rows. */
function decodePng(file: Buffer) {
  expect([...file.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks = new Map<string, Buffer>();
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at);
    chunks.set(file.toString('latin1', at + 4, at + 8), file.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const header = chunks.get('IHDR')!;
  return {
    width: header.readUInt32BE(0),
    height: header.readUInt32BE(4),
    depth: header[8],
    colour: header[9],
    rows: inflateSync(chunks.get('IDAT')!),
    ended: chunks.has('IEND'),
  };
}

describe('the icon', () => {
  it.each([16, 32, 48, 128])('is a %i px square PNG in RGBA', (size) => {
    const png = decodePng(encodePng(drawIcon(size)));
    expect(png).toMatchObject({ width: size, height: size, depth: 8, colour: 6, ended: true });
    expect(png.rows.length).toBe((size * 4 + 1) * size);
  });

  it('is a white signpost on the portal’s blue, with rounded, transparent corners', () => {
    const { pixels, width } = drawIcon(128);
    const pixel = (x: number, y: number) => [
      ...pixels.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
    ];
    expect(pixel(0, 0)).toEqual([0x1d, 0x5f, 0xd1, 0]); // a corner: outside the square
    expect(pixel(12, 100)).toEqual([0x1d, 0x5f, 0xd1, 255]); // background
    expect(pixel(64, 120 - 14)).toEqual([255, 255, 255, 255]); // the post
    expect(pixel(80, 40)).toEqual([255, 255, 255, 255]); // the upper sign
  });
});

describe('the archive', () => {
  it('holds each file as given, deflated, under its path', () => {
    const files = [
      { path: 'manifest.json', data: Buffer.from('{"manifest_version":3}') },
      { path: 'icons/icon-16.png', data: encodePng(drawIcon(16)) },
    ];
    const archive = zip(files);
    // The end of the central directory: the count of entries and where the directory starts.
    const end = archive.length - 22;
    expect(archive.readUInt32LE(end)).toBe(0x06054b50);
    expect(archive.readUInt16LE(end + 10)).toBe(2);
    let at = archive.readUInt32LE(end + 16);
    const read: { path: string; data: Buffer }[] = [];
    for (let i = 0; i < 2; i += 1) {
      expect(archive.readUInt32LE(at)).toBe(0x02014b50);
      const size = archive.readUInt32LE(at + 20);
      const nameLength = archive.readUInt16LE(at + 28);
      const local = archive.readUInt32LE(at + 42);
      const path = archive.toString('utf8', at + 46, at + 46 + nameLength);
      const start = local + 30 + archive.readUInt16LE(local + 26);
      read.push({ path, data: inflateRawSync(archive.subarray(start, start + size)) });
      at += 46 + nameLength;
    }
    expect(read).toEqual(files.map((file) => ({ path: file.path, data: Buffer.from(file.data) })));
    // The same files make the same archive.
    expect(zip(files).equals(archive)).toBe(true);
  });
});
