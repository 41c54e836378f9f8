import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Logger, SQL } from 'drizzle-orm';
import v8 from 'node:v8';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { markDatabaseError } from './errors.ts';
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
  /**
   * The connection pool's state and each statement's time, for metrics (decision 0064):
   * PostgreSQL only; the embedded database has no pool and answers null.
   */
  pool: PoolWatch | null;
  close(): Promise<void>;
}

/** Called as each statement ends: its time in seconds, and whether it failed. */
export type QueryObserver = (seconds: number, failed: boolean) => void;

export interface PoolWatch {
  /** Connections open, idle, and requests waiting for one; and the pool's bound. */
  stats(): { total: number; idle: number; waiting: number; max: number };
  /** Sets (or, with null, removes) the one observer of statement times. */
  observe(observer: QueryObserver | null): void;
}

export interface RawConnection {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/**
 * The connections of the request pool on PostgreSQL, unless `poolSize` says otherwise. With
 * the job queue's (JOB_QUEUE_POOL_SIZE) and live updates' LISTEN, what one instance opens
 * (docs/operations.md, "Database connections").
 */
export const DATABASE_POOL_SIZE = 10;

export interface OpenOptions {
  /** PostgreSQL URL, or null for the embedded database. */
  url: string | null;
  /** Folder of the embedded database; null keeps it in memory (tests). */
  dataDir: string | null;
  /** A dump of an embedded database (PGlite's dumpDataDir) to start from, instead of empty. */
  loadDataDir?: Blob;
  poolSize?: number;
}

function rethrowFromDatabase(error: unknown): never {
  throw markDatabaseError(error);
}

/**
 * A connection pool whose connections never take the process down (decision 0050).
 *
 * node-postgres listens for errors of idle connections only: a connection that a
 * transaction (or `withConnection`) has checked out and that PostgreSQL drops — a restart,
 * `pg_terminate_backend`, a network cut — emits `error` with nobody listening, and Node ends
 * the process. Every connection here gets a listener for its whole life as it is made; the
 * statement in flight still fails (with "Connection terminated" or 57P01), its request
 * answers 503, and the pool drops that connection on release and makes a new one later.
 *
 * Errors of taking a connection (refused, timed out) are marked as the database's, so that
 * the error handler tells them from errors of the HTTP client's own socket.
 */
export class DatabasePool extends pg.Pool {
  /** Told of each statement's time (metrics); null when nobody watches. */
  observer: QueryObserver | null = null;

  constructor(config: pg.PoolConfig) {
    super(config);
    this.on('connect', (client) => {
      client.on('error', () => {
        // The statement in flight, if any, fails with this error; nothing else to do.
      });
      this.timeQueries(client);
    });
    // Idle connections: the same (node-postgres removes them from the pool itself).
    this.on('error', () => {});
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: () => void) => void,
  ): void;
  override connect(
    callback?: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: () => void,
    ) => void,
  ): Promise<pg.PoolClient> | void {
    if (callback) {
      super.connect((err, client, done) =>
        callback(err ? (markDatabaseError(err) as Error) : undefined, client, done),
      );
      return;
    }
    return super.connect().catch(rethrowFromDatabase);
  }

  /**
   * Times every statement of a connection that answers with a promise (the ORM's, the
   * pool's, the job queue's); one measurement per statement, from the call to its answer.
   */
  private timeQueries(client: pg.PoolClient) {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const observer = this.observer;
      const started = observer ? performance.now() : 0;
      const result = query(...args);
      if (observer && result instanceof Promise) {
        result.then(
          () => observer((performance.now() - started) / 1000, false),
          () => observer((performance.now() - started) / 1000, true),
        );
      }
      return result;
    };
  }
}

/**
 * PostgreSQL settings of the embedded database (decision 0061), given to PGlite at every
 * start; the folder's postgresql.conf stays as initdb wrote it. PGlite runs PostgreSQL inside
 * the Signpost process, and PostgreSQL's default of 128 MB of shared buffers is WebAssembly
 * memory that is all resident from the start. 8 MB (1,024 pages) holds the pages one menu of
 * the reference data set reads (about 500) twice over; a page not there is read from the
 * data folder, mostly from the operating system's cache. wal_buffers follows (1/32 of it).
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '8MB',
};

/**
 * V8's handling of PGlite's WebAssembly (decision 0061): each function is compiled once, by
 * Liftoff, V8's baseline compiler, when first called, and not again by TurboFan, its
 * optimizing compiler, when it gets hot. TurboFan's work on PostgreSQL's large functions
 * kept 50 to 70 MB more in the process for good and a core busy for seconds after each
 * start. PGlite is the only WebAssembly in the process. Set before the first PGlite compiles
 * its module: V8 reads them when it compiles.
 */
export const EMBEDDED_WASM_FLAGS = ['--no-wasm-dynamic-tiering', '--no-wasm-tier-up'] as const;

let wasmFlagsSet = false;
function setEmbeddedWasmFlags() {
  if (wasmFlagsSet) return;
  wasmFlagsSet = true;
  for (const flag of EMBEDDED_WASM_FLAGS) v8.setFlagsFromString(flag);
}

/** PGlite's start parameters: its own defaults, then EMBEDDED_SETTINGS. */
export function embeddedStartParams(): string[] {
  return [
    ...PGlite.defaultStartParams,
    ...Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
}

/**
 * The handle of an open embedded database: drizzle over it, the statement counter, and the
 * raw calls. Its own per handle, so that the tests can hand one PGlite to several files in
 * turn, each with a handle of its own (test/app.ts).
 */
export function embeddedHandle(client: PGlite): DatabaseHandle {
  const statements = new StatementCounter();
  const db = drizzlePglite({ client, schema, logger: statements }) as unknown as Database;
  const raw: RawConnection = {
    exec: async (sql) => {
      await client.exec(sql).catch(rethrowFromDatabase);
    },
    query: async <T>(sql: string, params: unknown[] = []) =>
      (await client.query<T>(sql, params).catch(rethrowFromDatabase)).rows,
  };
  return {
    db,
    kind: 'pglite',
    statements,
    ...raw,
    script: async <T>(sql: string, params: unknown[] = []) => {
      if (params.length > 0) {
        return (await client.query<T>(sql, params).catch(rethrowFromDatabase)).rows;
      }
      const results = await client.exec(sql).catch(rethrowFromDatabase);
      return (results.at(-1)?.rows ?? []) as T[];
    },
    withConnection: (work) => work(raw),
    pool: null,
    close: () => client.close(),
  };
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const statements = new StatementCounter();
  if (options.url === null) {
    // The server's own folder (`npm start`): the tests' in-memory copies keep V8's usual
    // tiering, which runs their many short-lived databases faster.
    if (options.dataDir) setEmbeddedWasmFlags();
    const pgliteOptions = {
      extensions: { pg_trgm },
      loadDataDir: options.loadDataDir,
      startParams: embeddedStartParams(),
    };
    const client = options.dataDir
      ? new PGlite(options.dataDir, pgliteOptions)
      : new PGlite(pgliteOptions);
    await client.waitReady;
    return embeddedHandle(client);
  }

  const pool = new DatabasePool({
    connectionString: options.url,
    max: options.poolSize ?? DATABASE_POOL_SIZE,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
  });
  const db = drizzlePg({ client: pool, schema, logger: statements }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    statements,
    exec: async (sql) => {
      await pool.query(sql).catch(rethrowFromDatabase);
    },
    query: async <T>(sql: string, params: unknown[] = []) =>
      (await pool.query(sql, params).catch(rethrowFromDatabase)).rows as T[],
    script: async <T>(sql: string, params: unknown[] = []) => {
      const result = await pool.query(sql, params).catch(rethrowFromDatabase);
      const last = Array.isArray(result) ? result.at(-1) : result;
      return (last?.rows ?? []) as T[];
    },
    withConnection: async (work) => {
      const conn = await pool.connect();
      try {
        return await work({
          exec: async (sql) => {
            await conn.query(sql).catch(rethrowFromDatabase);
          },
          query: async <T>(sql: string, params: unknown[] = []) =>
            (await conn.query(sql, params).catch(rethrowFromDatabase)).rows as T[],
        });
      } finally {
        conn.release();
      }
    },
    pool: {
      stats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max ?? DATABASE_POOL_SIZE,
      }),
      observe: (observer) => {
        pool.observer = observer;
      },
    },
    close: () => pool.end(),
  };
}
