import { BookmarkFileError, type ParsedBookmarks } from './tree.ts';
import { checkSize } from './limits.ts';
import { NOT_KNOWN_JSON, parseJson } from './json-shape.ts';
import { loadNetscapeReader, looksLikeNetscape, readNetscape } from './netscape.ts';
import { looksLikeCsv, readCsv } from './csv.ts';
import { isManagedBookmarks, readManagedBookmarks } from './managed.ts';
import { isLinkwardenBackup, readLinkwarden } from './linkwarden.ts';
import { isLinkdingList, readLinkding } from './linkding.ts';
import { isSignpostExport, readSignpostExport, signpostToBookmarks } from './signpost.ts';

// One entry for every bookmark file: the format is told from the content, not from the
// file's name, which people change (a name ending in .csv only lets a sheet without a known
// column be read as one, to say which column it lacks). HTML is a browser's export; JSON is
// told apart by its shape; anything else must be a sheet with a header.

/** Loads what the readers load lazily (the HTML parser): once, before readBookmarks. */
export function loadBookmarkReaders(): Promise<void> {
  return loadNetscapeReader();
}

const NOT_BOOKMARKS = 'This is not a bookmark file';
const WHAT_WE_READ =
  "Signpost imports a browser's bookmark export (an HTML file), a CSV file with a url column, and the JSON of a Signpost export, a ManagedBookmarks policy, Linkwarden or linkding.";

function notBookmarks(why: string): BookmarkFileError {
  return new BookmarkFileError(`${NOT_BOOKMARKS}: ${why} ${WHAT_WE_READ}`);
}

/** The byte order mark some programs put first, which is no part of the text. */
const BOM = '\ufeff';

/**
 * Whether text decoded as UTF-8 was in fact UTF-16 (as Windows Notepad saves "Unicode"): a
 * NUL in every other character, after the byte order mark (two bad bytes).
 */
function looksLikeUtf16(text: string): boolean {
  const start = text.replace(/^\ufffd+/, '').slice(0, 100);
  let even = 0;
  let odd = 0;
  for (let i = 0; i < start.length; i += 1) {
    if (start[i] !== '\u0000') continue;
    if (i % 2 === 0) even += 1;
    else odd += 1;
  }
  return start.length >= 4 && Math.max(even, odd) >= 0.8 * Math.floor(start.length / 2);
}

/** Refuses what is not text: binary files, and text in another encoding than UTF-8. */
function checkText(text: string): void {
  const invalid = text.includes('\ufffd');
  const binary = text.includes('\u0000');
  if (!invalid && !binary) return;
  if (binary && !looksLikeUtf16(text)) {
    throw notBookmarks('it holds binary data (a picture or a program, say), not text.');
  }
  throw new BookmarkFileError(
    'The file is not valid UTF-8 text: it was saved in another encoding. Save or export it again as UTF-8 (most programs offer it), and import that.',
  );
}

function readJson(text: string): ParsedBookmarks {
  const value = parseJson(text);
  if (isSignpostExport(value)) return signpostToBookmarks(readSignpostExport(value));
  if (isLinkwardenBackup(value)) return readLinkwarden(value);
  if (isLinkdingList(value)) return readLinkding(value);
  if (isManagedBookmarks(value)) return readManagedBookmarks(value);
  throw new BookmarkFileError(
    `${NOT_KNOWN_JSON}: expected a Signpost export, a ManagedBookmarks policy (of Chrome, Edge or Firefox), a Linkwarden backup or a linkding list of bookmarks.`,
  );
}

/**
 * Reads a bookmark file of any format Signpost knows into the common tree. `text` is the
 * file decoded as UTF-8 by the caller (bad bytes become U+FFFD); `fileName`, if known, only
 * helps with sheets. Throws BookmarkFileError, whose message is for the person, when the
 * file is not one Signpost can read, is over a limit, or was cut off; nothing else.
 * loadBookmarkReaders must have been awaited once before.
 */
export function readBookmarks(text: string, fileName?: string): ParsedBookmarks {
  checkSize(text);
  checkText(text);
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const start = body.trimStart();
  if (start === '') throw notBookmarks('it is empty.');
  if (start.startsWith('{') || start.startsWith('[')) return readJson(body);
  if (start.startsWith('<')) {
    if (looksLikeNetscape(start)) return readNetscape(body);
    throw notBookmarks('it is a web page or other markup, without a list of bookmarks in it.');
  }
  if (looksLikeCsv(start) || /\.(csv|tsv)$/i.test(fileName ?? '')) return readCsv(start);
  throw notBookmarks('its content is none of the formats Signpost knows.');
}
