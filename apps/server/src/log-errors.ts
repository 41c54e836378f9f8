// How errors are written to the log (decision 0050). A failed statement must never put the
// values it was given into the log: Drizzle's error message carries every parameter of the
// statement ("params: …"), and PostgreSQL's own error can quote the offending value in its
// message ("invalid input syntax for type uuid: "…"") and in `detail` ("Key (email)=(…)").
// Anyone who can make a statement fail — an anonymous sign-in with a strange e-mail — could
// otherwise write personal data, or a flood of it, into error-level lines.
import { isDrizzleQueryError } from './db/errors.ts';

/** Fields of a PostgreSQL (node-postgres or PGlite) error that name things, never values. */
const SAFE_DATABASE_FIELDS = [
  'code',
  'severity',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'routine',
] as const;

/** Fields that may hold a statement's values, on any error. */
const VALUE_FIELDS = new Set([
  'params',
  'parameters',
  'detail',
  'where',
  'internalQuery',
  'hint',
  'query',
]);

const MAX_MESSAGE = 300;
const MAX_DEPTH = 5;

export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

/** A PostgreSQL error as the drivers shape it: a five-character SQLSTATE and a severity. */
function isPostgresError(error: object): error is { code: string; severity: string } {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

/**
 * PostgreSQL's messages name objects in double quotes and, for data exceptions (SQLSTATE
 * class 22), quote the rejected input the same way: there every quoted part is dropped.
 */
function postgresMessage(code: string, message: string): string {
  const safe = code.startsWith('22') ? message.replace(/"(?:[^"]|"")*"?/g, '"…"') : message;
  return truncate(safe);
}

/** The stack's frames under a new first line, so the old message (with values) is gone. */
function restack(error: Error, type: string, message: string): string | undefined {
  if (typeof error.stack !== 'string') return undefined;
  const header = `${error.name}: ${error.message}`;
  const frames = error.stack.startsWith(header)
    ? error.stack.slice(header.length)
    : error.stack.slice(Math.max(0, error.stack.search(/\n\s+at /)));
  return `${type}: ${message}${frames.startsWith('\n') || frames === '' ? frames : `\n${frames}`}`;
}

/** The `err` serializer of the server's logger. */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!error || typeof error !== 'object') return error;
  const source = error as Record<string, unknown>;
  const type = error instanceof Error ? error.constructor.name || error.name : 'Object';
  let message: string;
  const out: SerializedError = { type, message: '', stack: '' };

  if (isDrizzleQueryError(error)) {
    // The statement's text has placeholders ($1…), never values; the values are dropped.
    message = truncate(`Failed query: ${error.query}`);
  } else if (isPostgresError(error)) {
    message = postgresMessage(error.code, String(source.message ?? ''));
    for (const field of SAFE_DATABASE_FIELDS) {
      if (source[field] !== undefined) out[field] = source[field];
    }
  } else {
    message = typeof source.message === 'string' ? source.message : String(error);
    for (const [field, value] of Object.entries(source)) {
      if (VALUE_FIELDS.has(field) || field === 'message' || field === 'stack') continue;
      if (field === 'cause') continue;
      if (value && typeof value === 'object') continue;
      out[field] = value;
    }
  }
  out.message = message;
  out.stack = (error instanceof Error && restack(error, type, message)) || '';
  const cause = source.cause;
  if (cause !== undefined && depth < MAX_DEPTH) out.cause = serializeError(cause, depth + 1);
  return out;
}

/**
 * One line about an error for a terminal (the admin commands, a failed start): the safe
 * messages of the error and of its causes, without the values of a failed statement.
 */
export function safeMessage(error: unknown): string {
  const parts: string[] = [];
  let current = serializeError(error) as SerializedError | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth <= MAX_DEPTH; depth += 1) {
    if (current.message && !parts.some((part) => part.includes(current!.message))) {
      parts.push(current.message);
    }
    current = current.cause as SerializedError | undefined;
  }
  if (parts.length === 0) return String(error);
  return parts.join(': ').replace(/\s*\n\s*/g, ' ');
}
