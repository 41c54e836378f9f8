// The build's compressed copies (decision 0059): a tiny app built with the plugin of
// vite.config.ts gets a brotli and a gzip copy beside each text file, at the highest settings.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  gunzipSync,
  gzipSync,
} from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../vite.config.ts';

let root = '';
let out = '';
let written: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'signpost-precompress-'));
  out = path.join(root, 'dist');
  await writeFile(
    path.join(root, 'index.html'),
    '<!doctype html><html><head><title>Tiny</title></head>' +
      '<body><div id="root"></div><script type="module" src="/main.js"></script></body></html>',
  );
  const words = Array.from({ length: 300 }, (_, i) => `'entry ${i}: ${(i * 7919) % 1009}'`);
  await writeFile(
    path.join(root, 'main.js'),
    `import './style.css';\nconst entries = [${words.join(', ')}];\n` +
      'document.getElementById("root").textContent = entries.join(" ");\n' +
      'import("./later.js").then((m) => m.later());\n',
  );
  await writeFile(path.join(root, 'later.js'), 'export const later = () => 1;\n');
  await writeFile(
    path.join(root, 'style.css'),
    Array.from({ length: 60 }, (_, i) => `.item-${i} { margin: ${i}px; color: #${i}a${i}; }`).join(
      '\n',
    ),
  );
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [precompress()],
    build: { outDir: out, emptyOutDir: true, minify: false },
  });
  const list = async (dir: string): Promise<string[]> =>
    (await readdir(dir, { withFileTypes: true, recursive: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(out, path.join(entry.parentPath, entry.name)));
  written = (await list(out)).sort();
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const originals = () => written.filter((file) => !/\.(br|gz)$/.test(file));

describe('the build compresses its text files once', () => {
  it('writes a brotli and a gzip copy beside the page, the scripts and the styles', () => {
    const big = originals().filter((file) => !file.includes('later'));
    expect(big.some((file) => file.endsWith('.js'))).toBe(true);
    expect(big.some((file) => file.endsWith('.css'))).toBe(true);
    expect(big).toContain('index.html');
    for (const file of big) {
      expect(written, file).toContain(`${file}.br`);
      expect(written, file).toContain(`${file}.gz`);
    }
    // Copies are never compressed again.
    expect(written.filter((file) => /\.(br|gz)\.(br|gz)$/.test(file))).toEqual([]);
  });

  it('compresses with brotli at its highest quality and gzip at level 9', async () => {
    for (const file of originals()) {
      const content = await readFile(path.join(out, file));
      if (written.includes(`${file}.br`)) {
        const br = await readFile(path.join(out, `${file}.br`));
        expect(brotliDecompressSync(br).equals(content), file).toBe(true);
        const best = brotliCompressSync(content, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
        });
        expect(br.equals(best), `${file}.br at quality 11`).toBe(true);
      }
      if (written.includes(`${file}.gz`)) {
        const gz = await readFile(path.join(out, `${file}.gz`));
        expect(gunzipSync(gz).equals(content), file).toBe(true);
        expect(gz.equals(gzipSync(content, { level: 9 })), `${file}.gz at level 9`).toBe(true);
      }
    }
  });

  it('writes no copy that would be no smaller than its file', async () => {
    for (const file of written.filter((name) => /\.(br|gz)$/.test(name))) {
      const copy = await readFile(path.join(out, file));
      const original = await readFile(path.join(out, file.replace(/\.(br|gz)$/, '')));
      expect(copy.length, file).toBeLessThan(original.length);
    }
  });
});
