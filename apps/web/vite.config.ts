import react from '@vitejs/plugin-react';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { loadEnv, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

/** The text files the build compresses (decision 0059). */
const COMPRESSED = /\.(html|css|js|mjs|json|svg|txt|xml|webmanifest|map)$/;
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } };
const GZIP = { level: constants.Z_BEST_COMPRESSION };

/**
 * Every text file of the build is compressed once, here, at the highest settings (decision
 * 0059): brotli at quality 11 (`.br`) and gzip -9 (`.gz`) beside it. The server sends the one
 * the browser accepts (`preCompressed` in `apps/server/src/plugins/static-web.ts`) and the
 * file itself to a client that accepts neither. A compressed copy no smaller than its file is
 * not written.
 */
export const precompress = () =>
  compression({
    include: COMPRESSED,
    algorithms: [defineAlgorithm('brotliCompress', BROTLI), defineAlgorithm('gzip', GZIP)],
    skipIfLargerOrEqual: true,
    deleteOriginalAssets: false,
  });

/**
 * The service worker is written after the bundle, when its list of files is injected
 * (`vite-plugin-pwa` in its closeBundle), so the plugin above never sees it. This compresses
 * it, with the same settings and the same rule, once it is final (decision 0065).
 */
export const precompressServiceWorker = (file = 'sw.js'): Plugin => {
  let outDir = '';
  return {
    name: 'signpost:precompress-service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const target = path.join(outDir, file);
        if (!(await stat(target).catch(() => null))) return;
        const content = await readFile(target);
        for (const [suffix, copy] of [
          ['.br', brotliCompressSync(content, BROTLI)],
          ['.gz', gzipSync(content, GZIP)],
        ] as const) {
          if (copy.length < content.length) await writeFile(`${target}${suffix}`, copy);
        }
      },
    },
  };
};

/**
 * The web app manifest and the service worker (decision 0065). The manifest names the app
 * after VITE_BRAND when a deployment sets one; its colours are those of styles.css: the
 * header's surface for the title bar, the page's background for the splash screen. The
 * service worker is `src/sw.ts`, built with Workbox's modules; the build injects the list of
 * its files (the page, every script and style, the icons and the manifest) to precache.
 */
export const pwa = (brand: string) =>
  VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    // The app registers it itself, when the browser is idle (src/main.tsx).
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    manifest: {
      id: '/',
      name: brand,
      short_name: brand,
      description: 'All the links of your organization, in one place.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#ffffff',
      background_color: '#f5f6f8',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        {
          src: '/icons/maskable-512.png',
          sizes: '512x512',
          type: 'image/png',
          purpose: 'maskable',
        },
      ],
    },
    includeAssets: ['icons/icon.svg', 'icons/apple-touch-icon.png'],
    injectManifest: {
      globPatterns: ['**/*.{html,js,css,svg,png,webmanifest}'],
      // The service worker itself is never in its own list.
      globIgnores: ['sw.js'],
      injectionPoint: 'self.__WB_MANIFEST',
    },
    devOptions: { enabled: false },
  });

const ISOLATED = ['src/app/portal-cards-render.test.tsx'];

/** React, its scheduler, i18next and TanStack Query: what the first screen itself runs on. */
const FRAMEWORK =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|@tanstack[\\/](query-core|react-query))[\\/]/;

export default defineConfig(({ mode }) => {
  const brand = loadEnv(mode, process.cwd(), 'VITE_').VITE_BRAND?.trim() || 'Signpost';
  return {
    plugins: [react(), precompress(), pwa(brand), precompressServiceWorker()],
    server: { proxy: { '/api': 'http://localhost:3000' } },
    build: {
      sourcemap: false,
      reportCompressedSize: true,
      rolldownOptions: {
        output: {
          codeSplitting: {
            // The libraries every screen runs on, in one file: split by which lazy panel
            // shares which part, they came as four small files whose seams cost more on
            // the wire than they saved (first-screen budget, docs/performance.md).
            groups: [{ name: 'framework', test: FRAMEWORK, priority: 10 }],
          },
        },
      },
    },
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts', '../../scripts/vitest-assertions.mjs'],
      restoreMocks: true,
      // The suite runs beside the journeys on two cores; a user-event test can take seconds there.
      testTimeout: 20_000,
      projects: [
        {
          extends: true,
          test: {
            name: 'web',
            include: ['src/**/*.test.{ts,tsx}'],
            exclude: ISOLATED,
            // Files of a worker share its module cache: React, i18next and the app load once per
            // worker instead of once per file. The setup file resets what a file may leave
            // behind (rendered trees, storage, the session).
            isolate: false,
          },
        },
        // Files that replace a module with vi.mock need a module cache of their own.
        { extends: true, test: { name: 'web-isolated', include: ISOLATED } },
      ],
    },
  };
});
