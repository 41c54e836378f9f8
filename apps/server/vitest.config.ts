import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Every server test file runs on a fresh embedded PGlite; with TEST_DATABASE_URL set, the
// same files run a second time, each on a fresh database of that PostgreSQL server. The
// global setup migrates once per pass, and test files start from copies of that database.
const kinds = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

const NO_DATABASE = [
  'src/config.test.ts',
  'src/modules/second-factor/totp.test.ts',
  'src/config-sso.test.ts',
  'src/modules/sso/multi-factor.test.ts',
  'src/modules/sso/return-to.test.ts',
  'test/import-boundaries.test.ts',
  'test/main.test.ts',
  'src/admin-arguments.test.ts',
  'test/deploy-files.test.ts',
  'src/data-dir.test.ts',
  'src/config-timeouts.test.ts',
  'src/modules/icons/discover.test.ts',
  'src/modules/icons/image.test.ts',
  'src/modules/icons/find-icon.test.ts',
  'src/outbound/fetcher.test.ts',
  'src/outbound/fetcher.property.test.ts',
  'src/modules/link-health/check.test.ts',
  'src/modules/link-health/state.test.ts',
  'src/modules/directory/directory-index.test.ts',
];

// The resilience suite (decision 0050) starts a PostgreSQL cluster of its own and stops,
// restarts and disturbs it, and starts the real server and signals it: it runs once, in a
// project of its own, whatever TEST_DATABASE_URL says. It fails, loudly, on a machine
// without PostgreSQL's server programs (test/resilience/cluster.ts says what to install).
const RESILIENCE = 'test/resilience/**/*.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Counts each test's assertions for the closing summary of scripts/test.mjs.
    setupFiles: ['../../scripts/vitest-assertions.mjs'],
    // Files of a worker share its module cache: the app's modules and PGlite's WebAssembly
    // load once per worker instead of once per file. Each file still builds its own app on
    // its own database (createTestApp), and the server keeps no state in its modules.
    isolate: false,
    // Every core: a PGlite file keeps one busy on its own, and a PostgreSQL file shares its
    // work with the database server (Vitest leaves one core free by default).
    maxWorkers: Math.min(availableParallelism(), 4),
    hookTimeout: 60_000,
    projects: [
      ...kinds.map((kind) => ({
        extends: true as const,
        test: {
          name: `server-${kind}`,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Tests that use no database run once, in the embedded pass.
          exclude: [RESILIENCE, ...(kind === 'postgres' ? NO_DATABASE : [])],
          env: { SIGNPOST_TEST_DB: kind },
          globalSetup: ['test/global-setup.ts'],
        },
      })),
      {
        extends: true as const,
        test: {
          name: 'server-resilience',
          include: [RESILIENCE],
          env: { SIGNPOST_TEST_DB: 'postgres' },
        },
      },
    ],
  },
});
