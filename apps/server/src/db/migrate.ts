import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseHandle, RawConnection } from './client.ts';

/** Beside this file in the sources, beside main.js in the build. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** The SQL functions, one file each (decision 0006); beside main.js in the build too. */
export const FUNCTIONS_DIR = fileURLToPath(new URL('./functions/', import.meta.url));

// Any fixed number: every instance takes the same lock, so only one migrates at a time.
const MIGRATION_LOCK = 741_520_260;

/**
 * The advisory lock belongs to a connection, and the embedded database has one: two calls
 * on one handle would both hold it. So calls on one handle also wait for each other here.
 */
const running = new WeakMap<DatabaseHandle, Promise<unknown>>();

export async function sqlFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
}

/**
 * Brings the database up to date, under an advisory lock so that several instances can
 * start together: first the numbered migrations that have not run yet, in name order, each
 * in its own transaction; then every function file of a version the database does not have
 * yet, all in one transaction. Returns what it applied (function files as
 * `functions/<name>`).
 */
export function migrate(
  handle: DatabaseHandle,
  dir = MIGRATIONS_DIR,
  functionsDir = FUNCTIONS_DIR,
): Promise<string[]> {
  const previous = running.get(handle) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(() => migrateLocked(handle, dir, functionsDir));
  running.set(handle, next);
  return next;
}

/**
 * Runs `work` while this instance holds the startup lock (decision 0082): what instances do
 * to the database before they serve — migrations, function files, the job queue's schema
 * and queues — is done by one at a time, however many start together. The embedded database
 * has one process and needs none.
 */
export function withStartupLock<T>(handle: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  if (handle.kind === 'pglite') return work();
  return handle.withConnection(async (conn) => {
    await conn.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      return await work();
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  });
}

async function migrateLocked(
  handle: DatabaseHandle,
  dir: string,
  functionsDir: string,
): Promise<string[]> {
  const files = await sqlFiles(dir);
  const functionFiles = await sqlFiles(functionsDir);
  return handle.withConnection(async (conn) => {
    await conn.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const applied = await applyMigrations(conn, dir, files);
      applied.push(...(await applyFunctions(conn, functionsDir, functionFiles)));
      return applied;
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  });
}

async function applyMigrations(conn: RawConnection, dir: string, files: string[]) {
  await conn.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       name text PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const done = new Set(
    (await conn.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
  );
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await readFile(`${dir}/${file}`, 'utf8');
    await conn.exec('BEGIN');
    try {
      await conn.exec(sql);
      await conn.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      await conn.exec('COMMIT');
    } catch (error) {
      await conn.exec('ROLLBACK');
      throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
    }
    applied.push(file);
  }
  return applied;
}

/** The checksum of a function file; line endings do not count. */
function checksumOf(sql: string) {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/** The `-- version: N` line every function file carries (decision 0006). */
function versionOf(file: string, sql: string): number {
  const match = /^--\s*version:\s*(\d+)\s*$/m.exec(sql);
  if (!match) throw new Error(`SQL function file ${file} has no "-- version: N" line`);
  return Number(match[1]);
}

/**
 * Applies the function files that are new to the database or carry a higher version than
 * the one recorded, in name order, in one transaction: a file that fails leaves every
 * function and record as it was, and the error names the file. A file whose version is
 * lower than the recorded one comes from an older build (several builds may run during a
 * deploy) and is left alone, so the newer function stays; a file changed without a new
 * version stops the start, before anything is applied.
 */
async function applyFunctions(conn: RawConnection, dir: string, files: string[]) {
  await conn.exec(
    `CREATE TABLE IF NOT EXISTS schema_functions (
       name text PRIMARY KEY,
       version integer NOT NULL,
       checksum text NOT NULL,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const recorded = new Map(
    (
      await conn.query<{ name: string; version: number; checksum: string }>(
        'SELECT name, version, checksum FROM schema_functions',
      )
    ).map((r) => [r.name, r]),
  );
  const changed: { file: string; sql: string; version: number; checksum: string }[] = [];
  for (const file of files) {
    const where = path.join(dir, file);
    const sql = await readFile(where, 'utf8');
    const version = versionOf(where, sql);
    const checksum = checksumOf(sql);
    const known = recorded.get(file);
    if (known && version < known.version) continue;
    if (known && version === known.version) {
      if (checksum === known.checksum) continue;
      throw new Error(
        `SQL function file ${where} changed but kept version ${version}: raise its "-- version:" line`,
      );
    }
    changed.push({ file, sql, version, checksum });
  }
  if (changed.length === 0) return [];
  await conn.exec('BEGIN');
  let current = '';
  try {
    for (const { file, sql, version, checksum } of changed) {
      current = path.join(dir, file);
      await conn.exec(sql);
      await conn.query(
        `INSERT INTO schema_functions (name, version, checksum) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE
           SET version = excluded.version, checksum = excluded.checksum, applied_at = now()`,
        [file, version, checksum],
      );
    }
    await conn.exec('COMMIT');
  } catch (error) {
    await conn.exec('ROLLBACK');
    throw new Error(
      `SQL function file ${current} failed, no function file was applied: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return changed.map(({ file }) => `functions/${file}`);
}
