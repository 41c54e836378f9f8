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

async function sqlFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
}

/**
 * Brings the database up to date, under an advisory lock so that several instances can
 * start together: first the numbered migrations that have not run yet, in name order, each
 * in its own transaction; then every function file whose content changed since it was last
 * applied, all in one transaction. Returns what it applied (function files as
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

/**
 * Applies the function files whose checksum differs from the one recorded (new or changed
 * files), in name order, in one transaction: a file that fails leaves every function and
 * checksum as it was, and the error names the file. Unchanged files are not run again.
 */
async function applyFunctions(conn: RawConnection, dir: string, files: string[]) {
  await conn.exec(
    `CREATE TABLE IF NOT EXISTS schema_functions (
       name text PRIMARY KEY,
       checksum text NOT NULL,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const recorded = new Map(
    (
      await conn.query<{ name: string; checksum: string }>(
        'SELECT name, checksum FROM schema_functions',
      )
    ).map((r) => [r.name, r.checksum]),
  );
  const changed: { file: string; sql: string; checksum: string }[] = [];
  for (const file of files) {
    const sql = await readFile(`${dir}/${file}`, 'utf8');
    const checksum = checksumOf(sql);
    if (recorded.get(file) !== checksum) changed.push({ file, sql, checksum });
  }
  if (changed.length === 0) return [];
  await conn.exec('BEGIN');
  let current = '';
  try {
    for (const { file, sql, checksum } of changed) {
      current = path.join(dir, file);
      await conn.exec(sql);
      await conn.query(
        `INSERT INTO schema_functions (name, checksum) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = now()`,
        [file, checksum],
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
