import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, inject } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import {
  composeServer,
  createRepositories,
  type Repositories,
  type Services,
} from '../src/root.ts';
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
 * Builds the app on a fresh database holding what the real migrations make (a copy of the
 * database test/global-setup.ts migrated once). Call once per test file (at module level or
 * in beforeAll); it closes itself after the file.
 */
export async function createTestApp(env: NodeJS.ProcessEnv = {}): Promise<TestContext> {
  const kind = process.env.SIGNPOST_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  const pgdb = kind === 'postgres' ? await migratedPostgres() : null;
  // Tests never reach the sites links point to unless they say so (and then only local ones).
  const config = loadConfig({ LOG_LEVEL: 'silent', OUTBOUND_REQUESTS: 'false', ...env });
  const database = await openDatabase({
    url: pgdb?.url ?? null,
    dataDir: null,
    loadDataDir: pgdb ? undefined : await migratedPglite(),
    poolSize: 4,
  });
  const repositories = recorded(createRepositories(config));
  const app = await buildApp({ config, database, repositories });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
    await pgdb?.drop();
  });
  return { app, database, db: database.db, config, repositories };
}

/**
 * A fresh database holding what the real migrations make, without the app: for tests of
 * the database itself. Call once per test file; it closes itself after the file.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const pgdb = process.env.SIGNPOST_TEST_DB === 'postgres' ? await migratedPostgres() : null;
  const database = await openDatabase({
    url: pgdb?.url ?? null,
    dataDir: null,
    loadDataDir: pgdb ? undefined : await migratedPglite(),
    poolSize: 1,
  });
  afterAll(async () => {
    await database.close();
    await pgdb?.drop();
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
export async function createTestServices(env: NodeJS.ProcessEnv = {}): Promise<ServicesContext> {
  const database = await createTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', OUTBOUND_REQUESTS: 'false', ...env });
  const { services, repositories } = composeServer({
    config,
    database,
    log: pino({ level: 'silent' }),
    repositories: recorded(createRepositories(config)),
  });
  return { services, repositories, database, db: database.db, config };
}
