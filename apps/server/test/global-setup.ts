// Runs once per test project, before any test file: builds one database with the real
// migrations, which every test file then copies instead of migrating its own. The copy is
// the result of `migrate()`, the same function that migrates production at start, so test
// databases are still built the way production's are (docs/architecture.md, "How it is
// tested"); only the work is shared.
//
// - Embedded pass: a migrated in-memory PGlite is dumped to a file (dumpDataDir), and each
//   test file opens its own PGlite from that dump (loadDataDir), skipping initdb as well.
// - PostgreSQL pass: a migrated template database; each test file gets
//   `CREATE DATABASE … TEMPLATE` it. Nothing stays connected to the template (PostgreSQL
//   refuses to copy a database others are connected to), and the template refuses
//   connections once built. Teardown drops the template and any database of this run a
//   test file left behind, also when tests failed.
//
// Tests about migrations themselves (the restore drill, the server's own start, the demo
// start) still migrate an empty database on purpose: `freshPostgres()` stays empty.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadConfig } from '../src/config.ts';
import { createRepositories } from '../src/root.ts';
import { methodsOf, uncalled } from './statement-coverage.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** File holding a dump of a migrated embedded database (embedded pass). */
    migratedPgliteDump: string;
    /** Name of the migrated template database (PostgreSQL pass). */
    migratedTemplate: string;
    /** Prefix of this run's per-file databases, so that teardown finds leftovers. */
    databasePrefix: string;
  }
}

async function withAdmin<T>(base: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function migratedPglite(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(tmpdir(), 'signpost-migrated-'));
  try {
    const database = await openDatabase({ url: null, dataDir: null });
    try {
      await migrate(database);
      // The handle keeps PGlite to itself; drizzle hands out the client it was given.
      const client = (database.db as unknown as { $client: PGlite }).$client;
      const dump = await client.dumpDataDir('none');
      const file = path.join(folder, 'migrated.tar');
      await writeFile(file, Buffer.from(await dump.arrayBuffer()));
      project.provide('migratedPgliteDump', file);
    } finally {
      await database.close();
    }
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return () => rm(folder, { recursive: true, force: true });
}

async function migratedTemplate(project: TestProject): Promise<() => Promise<void>> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('the PostgreSQL pass needs TEST_DATABASE_URL');
  const run = randomBytes(4).toString('hex');
  const template = `signpost_template_${run}`;
  const prefix = `signpost_test_${run}_`;
  const dropAll = () =>
    withAdmin(base, async (admin) => {
      const { rows } = await admin.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
        [prefix],
      );
      for (const { datname } of rows) {
        await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      }
      await admin.query(`ALTER DATABASE ${template} IS_TEMPLATE false`).catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    });

  try {
    await withAdmin(base, (admin) => admin.query(`CREATE DATABASE ${template}`));
    const url = new URL(base);
    url.pathname = `/${template}`;
    const database = await openDatabase({ url: url.toString(), dataDir: null, poolSize: 1 });
    try {
      await migrate(database);
    } finally {
      await database.close();
    }
    // Closed above; from now on nobody may connect to it, so every copy succeeds.
    await withAdmin(base, (admin) =>
      admin.query(`ALTER DATABASE ${template} IS_TEMPLATE true ALLOW_CONNECTIONS false`),
    );
  } catch (error) {
    await dropAll();
    throw error;
  }
  project.provide('migratedTemplate', template);
  project.provide('databasePrefix', prefix);
  return dropAll;
}

/**
 * The folder where the PostgreSQL pass notes the repository methods its tests call, and, at
 * the end of the pass, the methods no test called, written to SIGNPOST_STATEMENT_COVERAGE_FILE
 * when it is set: scripts/test.mjs sets it for the whole suite and counts a failure for any
 * (test/statement-coverage.ts, decision 0074). A failure in a teardown does not fail Vitest's
 * run, so the verdict goes through the file.
 */
async function statementCoverage(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(tmpdir(), 'signpost-statements-'));
  project.provide('statementCoverageDir', folder);
  return async () => {
    try {
      const report = process.env.SIGNPOST_STATEMENT_COVERAGE_FILE;
      if (!report) return;
      const all = methodsOf(createRepositories(loadConfig({})));
      await writeFile(report, JSON.stringify({ all: all.length, missing: uncalled(folder, all) }));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env.SIGNPOST_TEST_DB !== 'postgres') return migratedPglite(project);
  const dropAll = await migratedTemplate(project);
  const checkStatements = await statementCoverage(project);
  return async () => {
    try {
      await checkStatements();
    } finally {
      await dropAll();
    }
  };
}
