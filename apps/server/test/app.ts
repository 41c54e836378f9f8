import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, inject } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { PGlite } from '@electric-sql/pglite';
import { embeddedHandle, openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import {
  composeServer,
  createRepositories,
  type Repositories,
  type Services,
} from '../src/root.ts';
import { TEST_ARGON2 } from './factories.ts';
import { recorded } from './statement-coverage.ts';

export interface TestContext {
  app: App;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  config: Config;
  /** The app's repositories (recording ones in the PostgreSQL pass). */
  repositories: Repositories;
}

interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

async function createPostgres(name: string, template: string | null): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('SIGNPOST_TEST_DB=postgres needs TEST_DATABASE_URL');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

// Named with this run's prefix (the PostgreSQL pass provides one), so that the global
// teardown drops whatever a test file left behind.
function newName(): string {
  const prefix: string | undefined = inject('databasePrefix');
  return `${prefix ?? 'signpost_test_'}${randomBytes(6).toString('hex')}`;
}

/**
 * A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server, dropped afterwards:
 * for tests that run the migrations themselves.
 */
export function freshPostgres(): Promise<TestDatabase> {
  return createPostgres(newName(), null);
}

/**
 * A copy of the template database that test/global-setup.ts built once with the real
 * migrations, so each test file skips migrating its own.
 */
function migratedPostgres(): Promise<TestDatabase> {
  return createPostgres(newName(), inject('migratedTemplate'));
}

/** The embedded database migrated once by test/global-setup.ts, as a dump to load. */
let migratedDump: Promise<Blob> | null = null;
const migratedPglite = () =>
  (migratedDump ??= readFile(inject('migratedPgliteDump')).then((bytes) => new Blob([bytes])));

/**
 * The configuration of the tests' apps and services: quiet, never reaching the sites links
 * point to unless a test says so (and then only local ones), and passwords at the small cost
 * of the factories' hashes (TEST_ARGON2).
 */
export function testConfig(env: NodeJS.ProcessEnv = {}): Config {
  return {
    ...loadConfig({ LOG_LEVEL: 'silent', OUTBOUND_REQUESTS: 'false', ...env }),
    argon2: TEST_ARGON2,
  };
}

/**
 * Embedded databases the files of this worker have finished with, emptied, for its next
 * files (Vitest runs a worker's files one after the other, sharing its modules). Opening a
 * PGlite from the migrated dump costs about half a second of CPU; emptying one, a few
 * milliseconds. Each file still gets a database holding exactly what the migrations make,
 * with a handle of its own: what a file leaves — rows, the job queue's schema, the
 * connection's settings, temporary tables, channels listened to, advisory locks — is gone
 * before the next file gets it.
 */
const spare: PGlite[] = [];
let tables: string | null = null;

/** Empties an embedded database back to what the migrations make. */
async function emptied(client: PGlite): Promise<void> {
  // Outside any transaction: the connection's state (settings, temporary tables, LISTEN,
  // locks, prepared statements).
  await client.exec('DISCARD ALL');
  tables ??= (
    await client.query<{ names: string }>(
      `SELECT string_agg(format('%I', tablename), ', ' ORDER BY tablename) AS names
         FROM pg_tables
        WHERE schemaname = 'public' AND tablename NOT IN ('schema_migrations', 'schema_functions')`,
    )
  ).rows[0]!.names;
  // Without triggers: the audit log refuses to be emptied (decision 0045), and no scope
  // needs bumping in a database no one reads. Sequences other than the tables' own (the
  // menu's versions) go on counting, as they would in a fresh copy's later life.
  await client.exec(`
    SET session_replication_role = replica;
    DROP SCHEMA IF EXISTS pgboss CASCADE;
    TRUNCATE ${tables} RESTART IDENTITY CASCADE;
    RESET session_replication_role;`);
}

/** A migrated embedded database for one file: a spare one emptied, or a new copy. */
async function embeddedDatabase(): Promise<DatabaseHandle> {
  let client = spare.pop();
  if (!client) {
    const opened = await openDatabase({
      url: null,
      dataDir: null,
      loadDataDir: await migratedPglite(),
    });
    // The handle keeps PGlite to itself; drizzle hands out the client it was given.
    client = (opened.db as unknown as { $client: PGlite }).$client;
  }
  const own = client;
  let done = false;
  return {
    ...embeddedHandle(own),
    close: async () => {
      if (done || own.closed) return;
      done = true;
      try {
        await emptied(own);
        spare.push(own);
      } catch {
        // Left in a state it cannot be emptied from (a test that failed mid-transaction):
        // the next file gets a new copy.
        await own.close();
      }
    },
  };
}

/** A migrated database for one file: PGlite, or a copy of the PostgreSQL template. */
async function testDatabase(): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  if (process.env.SIGNPOST_TEST_DB !== 'postgres') {
    return { database: await embeddedDatabase(), drop: async () => {} };
  }
  const pgdb = await migratedPostgres();
  // Several connections, so that what a test starts at once runs at once.
  const database = await openDatabase({ url: pgdb.url, dataDir: null, poolSize: 4 });
  return { database, drop: pgdb.drop };
}

/**
 * Builds the app on a fresh database holding what the real migrations make (a copy of the
 * database test/global-setup.ts migrated once). Call once per test file (at module level or
 * in beforeAll); it closes itself after the file.
 */
export async function createTestApp(env: NodeJS.ProcessEnv = {}): Promise<TestContext> {
  const { database, drop } = await testDatabase();
  const config = testConfig(env);
  const repositories = recorded(createRepositories(config));
  const app = await buildApp({ config, database, repositories });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
    await drop();
  });
  return { app, database, db: database.db, config, repositories };
}

/**
 * A fresh database holding what the real migrations make, without the app: for tests of
 * the database itself. Call once per test file; it closes itself after the file.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const { database, drop } = await testDatabase();
  afterAll(async () => {
    await database.close();
    await drop();
  });
  return database;
}

export interface ServicesContext {
  services: Services;
  repositories: Repositories;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  config: Config;
}

/**
 * The server's services, composed by the real root (decision 0070) on a fresh migrated
 * database, without HTTP and without background work: for the rules of a service, tested
 * against it with its real repositories. Call once per test file; it closes after the file.
 */
export async function createTestServices(
  env: NodeJS.ProcessEnv = {},
  settings: Partial<Config> = {},
): Promise<ServicesContext> {
  const database = await createTestDatabase();
  const config = { ...testConfig(env), ...settings };
  const { services, repositories } = composeServer({
    config,
    database,
    log: pino({ level: 'silent' }),
    repositories: recorded(createRepositories(config)),
  });
  return { services, repositories, database, db: database.db, config };
}
