// Builds the extension: dist/extension is the folder to load unpacked (Chromium's "Load
// unpacked", Firefox's about:debugging), and dist/signpost-extension-<version>.zip the same
// files as one archive. The popup's TypeScript is bundled by esbuild; the icons are drawn here.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawIcon, ICON_SIZES } from './tools/icon.ts';
import { encodePng } from './tools/png.ts';
import { zip } from './tools/zip.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const at = (...parts: string[]) => path.join(here, ...parts);
const out = at('dist', 'extension');

const pkg = JSON.parse(await readFile(at('package.json'), 'utf8')) as { version: string };

await rm(at('dist'), { recursive: true, force: true });
await mkdir(path.join(out, 'icons'), { recursive: true });

await build({
  absWorkingDir: here,
  entryPoints: ['src/main.ts'],
  outfile: path.join(out, 'popup.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  // Manifest V3 with the calls the popup makes: Chromium 121, Firefox 128 (the manifest says so).
  target: ['chrome121', 'firefox128'],
  // Readable as written: reviewers of extension stores read the code that runs.
  minify: false,
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'warning',
});

const manifest = JSON.parse(await readFile(at('static', 'manifest.json'), 'utf8'));
manifest.version = pkg.version;
await writeFile(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
for (const file of ['popup.html', 'popup.css']) {
  await writeFile(path.join(out, file), await readFile(at('static', file)));
}
for (const size of ICON_SIZES) {
  await writeFile(path.join(out, 'icons', `icon-${size}.png`), encodePng(drawIcon(size)));
}

const files = (await readdir(out, { recursive: true, withFileTypes: true }))
  .filter((entry) => entry.isFile())
  .map((entry) =>
    path.relative(out, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
  )
  .sort();
const entries = await Promise.all(
  files.map(async (file) => ({ path: file, data: await readFile(path.join(out, file)) })),
);
await writeFile(at('dist', `signpost-extension-${pkg.version}.zip`), zip(entries));
