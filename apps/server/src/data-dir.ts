// The embedded database's folder (DATA_DIR), checked before PGlite opens it, so that every
// problem with it stops the server with one line that names the folder and what is wrong
// (decision 0050) — rather than PGlite's "failed to initialize properly", an emscripten
// error object ("[object Object]"), or a misleading "ENOENT … mkdir".
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** The PostgreSQL major version of the embedded database (PGlite 0.5). */
export const EMBEDDED_POSTGRES_MAJOR = '18';

/** Entries a fresh volume may hold that are not ours and do no harm. */
const HARMLESS = new Set(['lost+found', '.DS_Store', '.gitkeep', '.keep']);

export class DataDirError extends Error {}

// Errors of the emscripten file system PGlite runs on: objects with a WASI errno number.
const EMSCRIPTEN_ERRNO: Record<number, string> = {
  2: 'EACCES',
  19: 'EDQUOT',
  29: 'EIO',
  31: 'EISDIR',
  44: 'ENOENT',
  51: 'ENOSPC',
  54: 'ENOTDIR',
  63: 'EPERM',
  69: 'EROFS',
};

/** The errno name of a Node or emscripten (PGlite) file-system error, if it has one. */
export function errnoCode(error: unknown): string | null {
  if (!error || typeof error !== 'object') return null;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  if (typeof errno === 'number' && EMSCRIPTEN_ERRNO[errno]) return EMSCRIPTEN_ERRNO[errno];
  return null;
}

/** What an errno means for the folder, in words an operator can act on. */
export function explainErrno(code: string): string | null {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'no permission to write there (is the folder owned by another user?)';
    case 'EROFS':
      return 'it is on a read-only file system';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'ENOTDIR':
      return 'a file stands where a folder of its path should be';
    case 'EEXIST':
    case 'EISDIR':
      return 'a file stands where the folder should be';
    case 'EIO':
      return 'the disk reports an input/output error';
    case 'ENOENT':
      return 'a file the database needs is missing (is the folder damaged or incomplete?)';
    default:
      return null;
  }
}

/** One line about a failure to open the embedded database in `dataDir`. */
export function describeDataDirError(dataDir: string, error: unknown): string {
  if (error instanceof DataDirError) return error.message;
  const code = errnoCode(error);
  const why = code ? explainErrno(code) : null;
  if (why) return `DATA_DIR ${dataDir} cannot be used: ${why} (${code})`;
  const message =
    error instanceof Error
      ? error.message
      : error && typeof error === 'object'
        ? JSON.stringify(error)
        : String(error);
  return (
    `DATA_DIR ${dataDir} cannot be opened as the embedded database: ${message.split('\n')[0]}` +
    ' (is it damaged, or a folder of another program?)'
  );
}

/**
 * Makes `folder` and whichever folders above it are missing, one level at a time, top down.
 * Node's recursive mkdir reports ENOENT for a level it cannot make on a read-only file
 * system: for an error it does not expect (EROFS, EDQUOT, EIO…) it looks the folder up
 * again and answers that look-up's error — the folder is not there. Made one by one, each
 * level fails with its own error: EROFS, EACCES, EPERM, ENOSPC, ENOTDIR.
 */
export async function makeFolders(
  folder: string,
  make: (level: string) => Promise<unknown> = mkdir,
): Promise<void> {
  const missing: string[] = [];
  for (let level = path.resolve(folder); ; level = path.dirname(level)) {
    const found = await stat(level).then(
      () => true,
      (error: unknown) => {
        if (errnoCode(error) === 'ENOENT') return false;
        throw error;
      },
    );
    if (found) break;
    missing.unshift(level);
    if (path.dirname(level) === level) break;
  }
  for (const level of missing) {
    try {
      await make(level);
    } catch (error) {
      // Made meanwhile by another process: what stands there is checked after.
      if (errnoCode(error) !== 'EEXIST') throw error;
    }
  }
}

function fail(dataDir: string, why: string): never {
  throw new DataDirError(`DATA_DIR ${dataDir} cannot be used: ${why}`);
}

/**
 * Makes sure `dataDir` is a folder the embedded database can live in: it exists (or is
 * made), it is a folder, files can be written there, and it holds either nothing or a
 * database of the embedded PostgreSQL's version. Throws DataDirError with one line.
 */
export async function checkDataDir(dataDir: string): Promise<void> {
  const existing = await stat(dataDir).catch((error: unknown) => {
    const code = errnoCode(error);
    if (code === 'ENOENT') return null;
    return fail(
      dataDir,
      `${(code && explainErrno(code)) ?? String(error)}${code ? ` (${code})` : ''}`,
    );
  });
  if (existing && !existing.isDirectory()) fail(dataDir, 'it is a file, not a folder');
  if (!existing) {
    try {
      await makeFolders(dataDir);
    } catch (error) {
      const code = errnoCode(error);
      fail(
        dataDir,
        `it cannot be made: ${(code && explainErrno(code)) ?? String(error)}${code ? ` (${code})` : ''}`,
      );
    }
  }

  // Writable, with room for at least a small file: try it, rather than trust the mode bits
  // (root ignores them, and a read-only mount or a full disk does not show in them).
  const probe = path.join(dataDir, `.signpost-write-check-${randomBytes(4).toString('hex')}`);
  try {
    await access(dataDir, constants.W_OK | constants.X_OK);
    const file = await open(probe, 'wx');
    try {
      await file.write(Buffer.alloc(16 * 1024));
      await file.sync();
    } finally {
      await file.close();
    }
  } catch (error) {
    const code = errnoCode(error);
    fail(dataDir, `${(code && explainErrno(code)) ?? String(error)}${code ? ` (${code})` : ''}`);
  } finally {
    await rm(probe, { force: true }).catch(() => {});
  }

  const entries = (await readdir(dataDir)).filter((name) => !HARMLESS.has(name));
  if (entries.length === 0) return;
  const version = await readFile(path.join(dataDir, 'PG_VERSION'), 'utf8').catch(() => null);
  if (version === null) {
    fail(
      dataDir,
      `it holds other files (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''})` +
        ' and no database; point DATA_DIR at an empty folder or at a Signpost data folder',
    );
  }
  if (version.trim() !== EMBEDDED_POSTGRES_MAJOR) {
    fail(
      dataDir,
      `it holds a PostgreSQL ${version.trim()} database; the embedded database is PostgreSQL ` +
        `${EMBEDDED_POSTGRES_MAJOR} (a data folder of another PostgreSQL cannot be opened)`,
    );
  }
}
