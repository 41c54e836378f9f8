import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';

export interface TestContext {
  app: App;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  config: Config;
}

/** A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server, dropped afterwards. */
export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('SIGNPOST_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `signpost_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
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

/**
 * Builds the app on a fresh database with the real migrations. Call once per test file
 * (at module level or in beforeAll); it closes itself after the file.
 */
export async function createTestApp(env: NodeJS.ProcessEnv = {}): Promise<TestContext> {
  const kind = process.env.SIGNPOST_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  const pgdb = kind === 'postgres' ? await freshPostgres() : null;
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const database = await openDatabase({ url: pgdb?.url ?? null, dataDir: null, poolSize: 4 });
  await migrate(database);
  const app = await buildApp({ config, database });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
    await pgdb?.drop();
  });
  return { app, database, db: database.db, config };
}
