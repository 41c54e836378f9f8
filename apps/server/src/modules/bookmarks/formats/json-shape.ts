import { BOOKMARK_FILE_LIMITS, BookmarkFileError } from './tree.ts';
import { tooDeep } from './limits.ts';

// What the JSON readers share: the parse, bounded in depth, and the words for a value of the
// wrong shape, which name where it is (`items[3].name`) so that a person can find it.

/**
 * How deep arrays and objects may nest: two for each level of folders (the folder's object
 * and its list of children), and a few for the document around them.
 */
const MAX_JSON_DEPTH = 2 * BOOKMARK_FILE_LIMITS.depth + 10;

/**
 * Refuses JSON nested deeper than any bookmark file goes, before JSON.parse, whose time grows
 * fast with the depth (ten million brackets take it many seconds). One pass over the text,
 * skipping strings.
 */
function checkJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) throw tooDeep();
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
}

/** The value of JSON text, or BookmarkFileError when it is not JSON. */
export function parseJson(text: string): unknown {
  checkJsonDepth(text);
  try {
    return JSON.parse(text);
  } catch {
    throw new BookmarkFileError(
      'This is not a bookmark file: it starts like JSON, but is not valid JSON (it may have been cut off).',
    );
  }
}

export const NOT_KNOWN_JSON = 'This JSON is not a bookmark export Signpost knows';

/** A value of the wrong shape: what was expected, and where. */
export function shapeError(expected: string, at: string): BookmarkFileError {
  return new BookmarkFileError(`${NOT_KNOWN_JSON}: expected ${expected} at ${at}.`);
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field; absent or null gives `fallback`, any other type is an error. */
export function optionalString(object: JsonObject, key: string, at: string, fallback = ''): string {
  const value = object[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') throw shapeError('a string', `${at}.${key}`);
  return value;
}

/** A date field given as an ISO string (or milliseconds); unreadable dates give null. */
export function optionalDate(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
