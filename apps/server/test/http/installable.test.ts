// The installable web app as the server sends it (decision 0065): the policy lets the page use
// a manifest and a service worker of this origin and nothing wider; the service worker, the
// manifest and the icons are revalidated at every use, the service worker compressed as built.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../app.ts';

const BROWSER = 'gzip, deflate, br, zstd';

const webDir = await mkdtemp(path.join(tmpdir(), 'signpost-web-installable-'));
await mkdir(path.join(webDir, 'assets'));
await mkdir(path.join(webDir, 'icons'));
const worker = `self.__WB_MANIFEST = [${'{"url":"assets/a.js","revision":null},'.repeat(80)}];\n`;
const manifest = JSON.stringify({ name: 'Signpost', start_url: '/', display: 'standalone' });
await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Signpost</title>');
await writeFile(path.join(webDir, 'sw.js'), worker);
await writeFile(path.join(webDir, 'sw.js.br'), brotliCompressSync(worker));
await writeFile(path.join(webDir, 'sw.js.gz'), gzipSync(worker, { level: 9 }));
await writeFile(path.join(webDir, 'manifest.webmanifest'), manifest);
await writeFile(path.join(webDir, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
await writeFile(path.join(webDir, 'assets', 'index-abc.js'), 'export {};\n');
const { app } = await createTestApp({ WEB_DIR: webDir });
afterAll(() => rm(webDir, { recursive: true, force: true }));

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

/** The policy's directives by name. */
function directives(policy: unknown): Map<string, string[]> {
  return new Map(
    String(policy)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('the policy for an installable app', () => {
  it('allows a manifest and a service worker of this origin only', async () => {
    for (const url of ['/', '/sw.js', '/api/auth/methods']) {
      const policy = directives((await get(url)).headers['content-security-policy']);
      expect(policy.get('manifest-src'), url).toEqual(["'self'"]);
      expect(policy.get('worker-src'), url).toEqual(["'self'"]);
      // Nothing else was widened for them.
      expect(policy.get('script-src'), url).toEqual(["'self'"]);
      expect(policy.get('connect-src'), url).toEqual(["'self'"]);
      expect(policy.get('default-src'), url).toEqual(["'self'"]);
    }
  });
});

describe('the service worker, the manifest and the icons', () => {
  it('sends the service worker as a script, revalidated at every use, compressed as built', async () => {
    const response = await get('/sw.js', { 'accept-encoding': BROWSER });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(worker);
    const plain = await get('/sw.js');
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe(worker);
  });

  it('sends the manifest as a web app manifest and the icons as images, revalidated', async () => {
    const response = await get('/manifest.webmanifest');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toMatchObject({ name: 'Signpost', start_url: '/' });
    const icon = await get('/icons/icon-192.png');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('keeps hashed files immutable, and answers a file that is gone with 404, never the page', async () => {
    const asset = await get('/assets/index-abc.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // What a page of an older build asks for after a new build replaced its files.
    for (const url of ['/assets/index-old.js', '/sw-old.js', '/icons/gone.png']) {
      const gone = await get(url);
      expect(gone.statusCode, url).toBe(404);
      expect(gone.body, url).not.toContain('<title>');
    }
  });
});
