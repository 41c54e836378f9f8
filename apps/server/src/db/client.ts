import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Logger, SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** A database or an open transaction: repository methods accept either. */
export type Executor = Database | Transaction;

/** Runs a raw statement and returns its rows, the same way on PGlite and node-postgres. */
export async function selectRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Counts SQL statements, so tests can hold the menu to a constant number. */
export class StatementCounter implements Logger {
  count = 0;
  logQuery(): void {
    this.count += 1;
  }
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  statements: StatementCounter;
  /** Runs SQL text with several statements, outside any transaction (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows (migrations, tooling). */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs SQL text as a job queue does: with values, one statement; without, any number of
   * statements, answering the rows of the last one.
   */
  script<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `work` on one connection, for what belongs to a connection (advisory locks). */
  withConnection<T>(work: (conn: RawConnection) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface RawConnection {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface OpenOptions {
  /** PostgreSQL URL, or null for the embedded database. */
  url: string | null;
  /** Folder of the embedded database; null keeps it in memory (tests). */
  dataDir: string | null;
  /** A dump of an embedded database (PGlite's dumpDataDir) to start from, instead of empty. */
  loadDataDir?: Blob;
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const statements = new StatementCounter();
  if (options.url === null) {
    const pgliteOptions = { extensions: { pg_trgm }, loadDataDir: options.loadDataDir };
    const client = options.dataDir
      ? new PGlite(options.dataDir, pgliteOptions)
      : new PGlite(pgliteOptions);
    await client.waitReady;
    const db = drizzlePglite({ client, schema, logger: statements }) as unknown as Database;
    const raw: RawConnection = {
      exec: async (sql) => {
        await client.exec(sql);
      },
      query: async <T>(sql: string, params: unknown[] = []) =>
        (await client.query<T>(sql, params)).rows,
    };
    return {
      db,
      kind: 'pglite',
      statements,
      ...raw,
      script: async <T>(sql: string, params: unknown[] = []) => {
        if (params.length > 0) return (await client.query<T>(sql, params)).rows;
        const results = await client.exec(sql);
        return (results.at(-1)?.rows ?? []) as T[];
      },
      withConnection: (work) => work(raw),
      close: () => client.close(),
    };
  }

  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its connection must not bring the process down; the next
  // query reconnects, and requests meanwhile get 503.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema, logger: statements }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    statements,
    exec: async (sql) => {
      await pool.query(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) =>
      (await pool.query(sql, params)).rows as T[],
    script: async <T>(sql: string, params: unknown[] = []) => {
      const result = await pool.query(sql, params);
      const last = Array.isArray(result) ? result.at(-1) : result;
      return (last?.rows ?? []) as T[];
    },
    withConnection: async (work) => {
      const conn = await pool.connect();
      try {
        return await work({
          exec: async (sql) => {
            await conn.query(sql);
          },
          query: async <T>(sql: string, params: unknown[] = []) =>
            (await conn.query(sql, params)).rows as T[],
        });
      } finally {
        conn.release();
      }
    },
    close: () => pool.end(),
  };
}
