import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  ICON_SIZES,
  MAX_UPLOAD_BYTES,
  processIcon,
  processUploadedIcon,
  sniffImage,
  type ImageResult,
} from './image.ts';
import {
  bmpEntry,
  checkerboardPng,
  gifOf,
  icoOf,
  jpegOf,
  pixelOf,
  pngHeaderClaiming,
  pngOf,
  sizeOf,
  webpOf,
} from './test-images.ts';

function accepted(result: ImageResult) {
  if (!result.ok) throw new Error(`refused: ${result.reason} (${result.message})`);
  return result;
}

async function expectScaledSquares(result: ImageResult) {
  const { images } = accepted(result);
  expect(images.map((image) => image.size)).toEqual([...ICON_SIZES]);
  for (const image of images) {
    expect(image.contentType).toBe('image/png');
    expect(await sizeOf(image.bytes)).toEqual({
      width: image.size,
      height: image.size,
      format: 'png',
    });
  }
}

describe('sniffImage', () => {
  it('names each kept format by its first bytes, and nothing else', async () => {
    expect(sniffImage(await pngOf(16))).toBe('png');
    expect(sniffImage(await jpegOf(16))).toBe('jpeg');
    expect(sniffImage(await gifOf(16))).toBe('gif');
    expect(sniffImage(await webpOf(16))).toBe('webp');
    expect(sniffImage(icoOf([{ width: 16, height: 16, data: bmpEntry(16) }]))).toBe('ico');
    expect(sniffImage(Buffer.from('<!doctype html><title>Not found</title>'))).toBeNull();
    expect(sniffImage(Buffer.from('BM'))).toBeNull();
    // A cursor has the ICO layout with type 2: not an icon.
    expect(sniffImage(Buffer.from([0, 0, 2, 0, 1, 0]))).toBeNull();
    // An ICO header with no entries.
    expect(sniffImage(Buffer.from([0, 0, 1, 0, 0, 0]))).toBeNull();
  });
});

describe('processIcon: real images', () => {
  it.each([
    ['png', () => pngOf(128)],
    ['jpeg', () => jpegOf(128)],
    ['gif', () => gifOf(128)],
    ['webp', () => webpOf(128)],
  ] as const)('scales a %s to a PNG square of each tile size', async (kind, make) => {
    const result = await processIcon(await make(), { claimedType: 'application/octet-stream' });
    expect(accepted(result)).toMatchObject({ kind, width: 128, height: 128 });
    await expectScaledSquares(result);
    // The colour survives the trip (JPEG rounds it a little).
    const [r, g, b, a] = await pixelOf(accepted(result).images[0]!.bytes, 16, 16);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(40);
    expect(b).toBeGreaterThan(40);
    expect(a).toBe(255);
  });

  it('takes an ICO’s entry closest above the largest tile size, from PNG entries', async () => {
    const ico = icoOf([
      { width: 16, height: 16, data: await pngOf(16) },
      { width: 256, height: 256, data: await pngOf(256) },
      { width: 128, height: 128, data: await pngOf(128) },
      { width: 48, height: 48, data: await pngOf(48) },
    ]);
    const result = accepted(await processIcon(ico, { claimedType: 'image/x-icon' }));
    expect(result).toMatchObject({ kind: 'ico', width: 128, height: 128 });
    await expectScaledSquares(result);
  });

  it('decodes a bitmap entry of an ICO, the largest when none reaches the tile size', async () => {
    const blue = { r: 0, g: 0, b: 255 };
    const ico = icoOf([
      { width: 16, height: 16, data: bmpEntry(16) },
      { width: 32, height: 32, data: bmpEntry(32, blue) },
    ]);
    const result = accepted(await processIcon(ico));
    expect(result).toMatchObject({ kind: 'ico', width: 32, height: 32 });
    await expectScaledSquares(result);
    expect(await pixelOf(result.images[2]!.bytes, 48, 48)).toEqual([0, 0, 255, 255]);
  });

  it('centres a wide image on a transparent square instead of cropping it', async () => {
    const result = accepted(await processIcon(await pngOf(200, 100)));
    expect(result).toMatchObject({ width: 200, height: 100 });
    await expectScaledSquares(result);
    const largest = result.images[2]!.bytes;
    expect((await pixelOf(largest, 48, 2))[3]).toBe(0);
    expect((await pixelOf(largest, 48, 48))[3]).toBe(255);
    expect((await pixelOf(largest, 2, 48))[3]).toBe(255);
  });

  it('applies a JPEG’s EXIF orientation', async () => {
    const rotated = await sharp(await jpegOf(100, 50))
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const result = accepted(await processIcon(rotated));
    expect(result).toMatchObject({ kind: 'jpeg', width: 50, height: 100 });
  });

  it('enlarges a 16 px favicon by repeating its pixels, keeping its edges sharp', async () => {
    const result = accepted(await processIcon(await checkerboardPng()));
    const { data } = await sharp(result.images[2]!.bytes)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const values = new Set(data);
    expect([...values].sort((a, b) => a - b)).toEqual([0, 255]);
  });

  it('writes no metadata of the source into the outputs', async () => {
    const tagged = await sharp(await jpegOf(64))
      .withMetadata({ exif: { IFD0: { Copyright: 'tracking-id-1234' } } })
      .toBuffer();
    expect(tagged.includes('tracking-id-1234')).toBe(true);
    const result = accepted(await processIcon(tagged));
    for (const image of result.images) {
      expect(image.bytes.includes('tracking-id-1234')).toBe(false);
      expect((await sharp(image.bytes).metadata()).exif).toBeUndefined();
    }
  });
});

describe('processIcon: what is refused', () => {
  it('refuses a text file that claims to be a PNG', async () => {
    const result = await processIcon(Buffer.from('hello, I am a PNG, trust me\n'), {
      claimedType: 'image/png',
    });
    expect(result).toMatchObject({ ok: false, reason: 'not-an-image' });
    expect(!result.ok && result.message).toContain('image/png');
  });

  it('refuses an HTML page served as a favicon', async () => {
    const html = Buffer.from('<!DOCTYPE html><html><head><title>404</title></head></html>');
    expect(await processIcon(html, { claimedType: 'image/x-icon' })).toMatchObject({
      ok: false,
      reason: 'not-an-image',
    });
  });

  it('refuses SVG, which is not rasterised', async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">' +
        '<image href="http://169.254.169.254/latest/meta-data"/></svg>',
    );
    expect(await processIcon(svg)).toMatchObject({ ok: false, reason: 'svg' });
    expect(await processIcon(svg, { claimedType: 'image/png' })).toMatchObject({ reason: 'svg' });
  });

  it('refuses a PNG header that claims a huge picture, without decoding it', async () => {
    const bomb = pngHeaderClaiming(100_000, 100_000);
    expect(bomb.length).toBeLessThan(200);
    const started = performance.now();
    expect(await processIcon(bomb)).toMatchObject({ ok: false, reason: 'too-many-pixels' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses a real picture larger than the limit, however small its file', async () => {
    // Within the bytes a site's icon may have, beyond the pixels it may have.
    const large = await pngOf(3000, 3000);
    expect(large.length).toBeLessThan(512 * 1024);
    expect(await processIcon(large)).toMatchObject({ ok: false, reason: 'too-many-pixels' });
    // One side alone over the limit is enough.
    expect(await processIcon(await pngOf(2100, 16))).toMatchObject({ reason: 'too-many-pixels' });
  });

  it('refuses an ICO bitmap whose header claims more than an ICO may hold', async () => {
    const ico = icoOf([{ width: 32, height: 32, data: bmpEntry(32, undefined, 40_000) }]);
    expect(await processIcon(ico)).toMatchObject({ ok: false, reason: 'too-many-pixels' });
  });

  it('refuses an ICO whose directory points outside the file', async () => {
    const ico = icoOf([{ width: 32, height: 32, data: bmpEntry(32) }]);
    ico.writeUInt32LE(ico.length, 6 + 12);
    expect(await processIcon(ico)).toMatchObject({ ok: false, reason: 'undecodable' });
  });

  it('refuses a truncated image', async () => {
    const png = await pngOf(64);
    expect(await processIcon(png.subarray(0, 40))).toMatchObject({
      ok: false,
      reason: 'undecodable',
    });
  });

  it('refuses a tracking pixel and nothing at all', async () => {
    expect(await processIcon(await gifOf(1))).toMatchObject({ ok: false, reason: 'too-small' });
    expect(await processIcon(Buffer.alloc(0))).toMatchObject({ ok: false, reason: 'empty' });
  });

  it('refuses more bytes than the cap it is given', async () => {
    const png = await pngOf(64);
    expect(await processIcon(png, { maxBytes: png.length - 1 })).toMatchObject({
      ok: false,
      reason: 'too-large',
    });
    expect((await processIcon(png, { maxBytes: png.length })).ok).toBe(true);
  });
});

describe('processUploadedIcon', () => {
  it('checks and scales an administrator’s image like a site’s', async () => {
    await expectScaledSquares(await processUploadedIcon(await pngOf(512), 'image/png'));
    expect(await processUploadedIcon(Buffer.from('GIF? no'), 'image/gif')).toMatchObject({
      ok: false,
      reason: 'not-an-image',
    });
  });

  it('refuses an upload over the cap before reading it', async () => {
    const padded = Buffer.concat([await pngOf(64), Buffer.alloc(MAX_UPLOAD_BYTES)]);
    expect(await processUploadedIcon(padded)).toMatchObject({ ok: false, reason: 'too-large' });
  });
});
