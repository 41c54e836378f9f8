// The installable app's build (decision 0065): a tiny app built with the plugins of
// vite.config.ts gets a web app manifest linked from its page, a service worker with the list
// of files to keep injected, and compressed copies of both that hold their final content.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress, precompressServiceWorker, pwa } from '../vite.config.ts';

const PUBLIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');
let root = '';
let out = '';

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'signpost-pwa-'));
  out = path.join(root, 'dist');
  await mkdir(path.join(root, 'src'));
  await writeFile(
    path.join(root, 'index.html'),
    '<!doctype html><html><head><title>Tiny</title></head>' +
      '<body><div id="root"></div><script type="module" src="/main.js"></script></body></html>',
  );
  await writeFile(
    path.join(root, 'main.js'),
    'document.getElementById("root").textContent = "tiny";\nimport("./later.js");\n',
  );
  await writeFile(path.join(root, 'later.js'), 'export const later = () => 1;\n');
  // A service worker that names every file it was given, so that the list is in the output.
  await writeFile(
    path.join(root, 'src', 'sw.ts'),
    'const files = self.__WB_MANIFEST;\n' +
      'self.addEventListener("install", () => console.log(files.map((f) => f.url).join(" ")));\n',
  );
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    publicDir: PUBLIC,
    plugins: [precompress(), pwa('Signpost'), precompressServiceWorker()],
    build: { outDir: out, emptyOutDir: true, minify: false },
  });
}, 120_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = (file: string) => readFile(path.join(out, file));

/** The width and height a PNG says it has (its IHDR chunk). */
function pngSize(bytes: Buffer) {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('the installable build', () => {
  it('writes a manifest that installs: name, start, scope, standalone, colours, icons', async () => {
    const manifest = JSON.parse((await read('manifest.webmanifest')).toString());
    expect(manifest).toMatchObject({
      name: 'Signpost',
      short_name: 'Signpost',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#ffffff',
      background_color: '#f5f6f8',
    });
    const icons = manifest.icons as { src: string; sizes: string; purpose: string }[];
    expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    // Each icon is a PNG of the size it claims, shipped with the build.
    for (const icon of icons) {
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(await read(icon.src.slice(1))), icon.src).toEqual({ width, height });
    }
    expect(pngSize(await read('icons/apple-touch-icon.png'))).toEqual({ width: 180, height: 180 });
    const page = (await read('index.html')).toString();
    expect(page).toContain('<link rel="manifest" href="/manifest.webmanifest">');
  });

  it('injects the page, the scripts, the icons and the manifest into the service worker, not itself', async () => {
    const worker = (await read('sw.js')).toString();
    expect(worker).not.toContain('self.__WB_MANIFEST');
    for (const file of ['index.html', 'manifest.webmanifest', 'icons/icon-192.png']) {
      expect(worker, file).toContain(`"url":"${file}"`);
    }
    // The hashed scripts, the lazy one included, by their names.
    expect(worker).toMatch(/"url":"assets\/index-[\w-]+\.js"/);
    expect(worker).toMatch(/"url":"assets\/later-[\w-]+\.js"/);
    expect(worker).not.toContain('"url":"sw.js"');
  });

  it('compresses the service worker and the manifest as they finally are', async () => {
    for (const file of ['sw.js', 'manifest.webmanifest', 'index.html']) {
      const content = await read(file);
      expect(brotliDecompressSync(await read(`${file}.br`)).equals(content), `${file}.br`).toBe(
        true,
      );
      expect(gunzipSync(await read(`${file}.gz`)).equals(content), `${file}.gz`).toBe(true);
    }
  });
});
