// The web app's files, compressed once by the build, as the server sends them (decision 0059).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../app.ts';

const BROWSER = 'gzip, deflate, br, zstd';

const webDir = await mkdtemp(path.join(tmpdir(), 'signpost-web-compressed-'));
await mkdir(path.join(webDir, 'assets'));
const page = `<!doctype html><title>Signpost</title>${'<!-- padding -->'.repeat(200)}`;
const script = `export const greet = (name) => 'Hello, ' + name;\n`.repeat(400);
// What the build writes: the file, and its brotli and gzip copies beside it.
const files: Record<string, string> = { 'index.html': page, 'assets/index-abc.js': script };
for (const [name, text] of Object.entries(files)) {
  await writeFile(path.join(webDir, name), text);
  await writeFile(path.join(webDir, `${name}.br`), brotliCompressSync(text));
  await writeFile(path.join(webDir, `${name}.gz`), gzipSync(text, { level: 9 }));
}
// A file the build left without copies (too small to gain from them).
await writeFile(path.join(webDir, 'assets', 'tiny-abc.js'), 'export {};\n');
const { app } = await createTestApp({ WEB_DIR: webDir });
afterAll(() => rm(webDir, { recursive: true, force: true }));

const get = (url: string, acceptEncoding?: string) =>
  app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

const varyFields = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((field) => field.trim().toLowerCase());

describe('the built web app, precompressed', () => {
  it('sends the brotli copy of an asset to a browser, with its type and caching', async () => {
    const response = await get('/assets/index-abc.js', BROWSER);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varyFields(response.headers.vary)).toContain('accept-encoding');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.rawPayload.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip copy to a client that takes gzip only', async () => {
    for (const acceptEncoding of ['gzip', 'gzip, deflate', 'br;q=0, gzip']) {
      const response = await get('/assets/index-abc.js', acceptEncoding);
      expect(response.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(gunzipSync(response.rawPayload).toString()).toBe(script);
    }
  });

  it('sends the file itself to a client that takes no compression, saying that it varies', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'deflate']) {
      const response = await get('/assets/index-abc.js', acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(response.body).toBe(script);
      expect(varyFields(response.headers.vary)).toContain('accept-encoding');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('gives each coding its own ETag, and revalidates each with it', async () => {
    const brotli = await get('/assets/index-abc.js', BROWSER);
    const plain = await get('/assets/index-abc.js');
    expect(brotli.headers.etag).toBeTruthy();
    expect(brotli.headers.etag).not.toBe(plain.headers.etag);
    const again = await app.inject({
      method: 'GET',
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': BROWSER, 'if-none-match': String(brotli.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('sends the page compressed at every page address, with its policy and no-cache', async () => {
    const plain = await get('/');
    for (const url of ['/', '/index.html', '/somewhere/else']) {
      const response = await get(url, BROWSER);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(varyFields(response.headers.vary), url).toContain('accept-encoding');
      // The same security headers as the page sent plain.
      for (const header of ['content-security-policy', 'x-frame-options', 'referrer-policy']) {
        expect(response.headers[header], `${url} ${header}`).toBe(plain.headers[header]);
        expect(response.headers[header], `${url} ${header}`).toBeTruthy();
      }
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(page);
    }
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(page);
  });

  it('sends a file without copies as it is: the server never compresses the files itself', async () => {
    for (const acceptEncoding of [undefined, BROWSER]) {
      const response = await get('/assets/tiny-abc.js', acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['content-length']).toBe('11');
      expect(response.body).toBe('export {};\n');
    }
  });

  it('still answers a missing asset with 404, never with the page', async () => {
    const response = await get('/assets/index-old.js', BROWSER);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
  });
});
