import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Every server test file runs on a fresh embedded PGlite. With TEST_DATABASE_URL set, the files
// whose tests are the database's answers run a second time, each on a fresh database of that
// PostgreSQL server. The global setup migrates once per pass, and test files start from copies
// of that database (decision 0004). Which files those are follows one rule (decision 0074), so
// that a new file is placed by what it tests, never by a list:
// - a route test (`*.routes.test.ts`, and the HTTP suites in `test/http/`) checks what only HTTP
//   shows — statuses, schemas, headers — which the database behind the service does not
//   change: it runs once;
// - a file that opens no test database runs once;
// - every other file runs on both: the services' and repositories' tests (the SQL, locks,
//   triggers), and the tests of the database itself, of several connections at once and of
//   notifications across instances.
// Every statement of the server still runs on PostgreSQL: the full pass fails when a
// repository method was never called in it (test/statement-coverage.ts).
const kinds = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

const here = path.dirname(fileURLToPath(import.meta.url));

/** The test files of the server (not the resilience suite), relative to this folder. */
function testFiles(): string[] {
  return ['src', 'test']
    .flatMap((folder) =>
      readdirSync(path.join(here, folder), { recursive: true }).map((file) =>
        path.join(folder, String(file)),
      ),
    )
    .filter((file) => file.endsWith('.test.ts') && !file.startsWith('test/resilience/'))
    .sort();
}

const ROUTE_TEST = /(^test\/http\/|\.routes\.test\.ts$)/;
/** What a file calls to open a test database, or to choose one itself. */
const OPENS_A_DATABASE =
  /\b(createTestApp|createTestServices|createTestDatabase|createSsoApp|freshPostgres)\(|SIGNPOST_TEST_DB/;

/** Whether a file's tests are the database's answers (the rule above). */
export function runsOnPostgres(file: string): boolean {
  if (ROUTE_TEST.test(file)) return false;
  return OPENS_A_DATABASE.test(readFileSync(path.join(here, file), 'utf8'));
}

/** What a file calls to start processes of its own: the server, a command, a cluster. */
const STARTS_PROCESSES = /\b(spawn|spawnSync|startSourceServer|startCluster)\(/;

/**
 * The files that start processes of their own take the longest (tens of seconds, much of it
 * waiting): they start first, whatever their project, so that none of them ends the run alone
 * on one worker while the other has nothing left. The rest keep Vitest's order (the slowest
 * of the last run first, else the largest).
 */
class ProcessesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const starts = new Map(
      sorted.map((file) => [file, STARTS_PROCESSES.test(readFileSync(file.moduleId, 'utf8'))]),
    );
    return [
      ...sorted.filter((file) => starts.get(file)),
      ...sorted.filter((file) => !starts.get(file)),
    ];
  }
}

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
    sequence: { sequencer: ProcessesFirst },
    projects: [
      ...kinds.map((kind) => ({
        extends: true as const,
        test: {
          name: `server-${kind}`,
          include:
            kind === 'postgres'
              ? testFiles().filter(runsOnPostgres)
              : ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [RESILIENCE],
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
