import react from '@vitejs/plugin-react';
import { constants } from 'node:zlib';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

/**
 * Every text file of the build is compressed once, here, at the highest settings (decision
 * 0059): brotli at quality 11 (`.br`) and gzip -9 (`.gz`) beside it. The server sends the one
 * the browser accepts (`preCompressed` in `apps/server/src/plugins/static-web.ts`) and the
 * file itself to a client that accepts neither. A compressed copy no smaller than its file is
 * not written.
 */
export const precompress = () =>
  compression({
    include: /\.(html|css|js|mjs|json|svg|txt|xml|webmanifest|map)$/,
    algorithms: [
      defineAlgorithm('brotliCompress', {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
      }),
      defineAlgorithm('gzip', { level: constants.Z_BEST_COMPRESSION }),
    ],
    skipIfLargerOrEqual: true,
    deleteOriginalAssets: false,
  });

const ISOLATED = ['src/app/portal-cards-render.test.tsx'];

export default defineConfig({
  plugins: [react(), precompress()],
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: { sourcemap: false, reportCompressedSize: true },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
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
});
