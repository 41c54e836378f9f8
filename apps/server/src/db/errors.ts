import { DrizzleQueryError } from 'drizzle-orm';

/** The error and its causes, outermost first: Drizzle wraps the driver's error in its own. */
export function* errorChain(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    yield current as { code?: unknown; message?: unknown };
    current = (current as { cause?: unknown }).cause;
  }
}

/** PostgreSQL's unique_violation (23505), wherever it sits in the chain. */
export function isUniqueViolation(error: unknown): boolean {
  for (const e of errorChain(error)) if (e.code === '23505') return true;
  return false;
}

/** PostgreSQL's foreign_key_violation (23503), wherever it sits in the chain. */
export function isForeignKeyViolation(error: unknown): boolean {
  for (const e of errorChain(error)) if (e.code === '23503') return true;
  return false;
}

const FROM_DATABASE = Symbol.for('signpost.fromDatabase');

/**
 * Marks an error as one of the database layer (the driver, its pool, PGlite), so that the
 * error handler never takes another error with a look-alike code — ECONNRESET of an HTTP
 * client that went away mid-upload — for the database being down (decision 0050).
 */
export function markDatabaseError(error: unknown): unknown {
  if (error && typeof error === 'object' && !Object.isFrozen(error)) {
    Object.defineProperty(error, FROM_DATABASE, { value: true, enumerable: false });
  }
  return error;
}

/** Drizzle's wrapper of a failed statement: its message carries the statement's values. */
export function isDrizzleQueryError(error: unknown): error is DrizzleQueryError {
  return error instanceof DrizzleQueryError;
}

/** Whether the error, or one it wraps, came from the database layer. */
export function isFromDatabase(error: unknown): boolean {
  for (const e of errorChain(error)) {
    if ((e as Record<symbol, unknown>)[FROM_DATABASE] === true) return true;
    if (isDrizzleQueryError(e)) return true;
  }
  return false;
}
