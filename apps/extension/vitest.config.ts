import { defineConfig } from 'vitest/config';

// The popup's logic and the build's tools run in Node; the popup's tests that draw it ask for
// a DOM themselves (`@vitest-environment jsdom`).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tools/**/*.test.ts'],
    environment: 'node',
    restoreMocks: true,
    setupFiles: ['../../scripts/vitest-assertions.mjs'],
    unstubGlobals: true,
    // The suite may run beside the journeys on two cores.
    testTimeout: 20_000,
  },
});
