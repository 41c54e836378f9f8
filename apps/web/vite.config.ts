import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const ISOLATED = ['src/app/portal-cards-render.test.tsx'];

export default defineConfig({
  plugins: [react()],
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
