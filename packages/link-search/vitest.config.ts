import { defineConfig } from 'vitest/config';

// Plain functions over strings: no DOM, no I/O.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['../../scripts/vitest-assertions.mjs'],
    // The suite may run beside the journeys on two cores.
    testTimeout: 20_000,
  },
});
