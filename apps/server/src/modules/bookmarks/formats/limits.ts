import { BOOKMARK_FILE_LIMITS, BookmarkFileError, type BookmarkFolder } from './tree.ts';

// The limits of BOOKMARK_FILE_LIMITS, counted by every reader as it goes, so that a file over
// one is refused as soon as that is known, not once a tree of a million nodes stands.

const MEGABYTE = 1024 * 1024;
const count = (n: number) => n.toLocaleString('en-US');

/** Refuses text of more than the byte limit (its length in UTF-8). */
export function checkSize(text: string): void {
  // A UTF-8 character takes at most 3 bytes per UTF-16 unit: most files need no counting.
  if (text.length * 3 <= BOOKMARK_FILE_LIMITS.bytes) return;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= BOOKMARK_FILE_LIMITS.bytes) return;
  // Rounded up, so that a file just over the limit never reads as the limit itself.
  const size = (Math.ceil((bytes / MEGABYTE) * 10) / 10).toFixed(1);
  throw new BookmarkFileError(
    `The file is ${size} MB; at most ${BOOKMARK_FILE_LIMITS.bytes / MEGABYTE} MB can be imported.`,
  );
}

export function tooManyEntries(): BookmarkFileError {
  const most = count(BOOKMARK_FILE_LIMITS.entries);
  return new BookmarkFileError(
    `The file has more than ${most} bookmarks and folders; at most ${most} can be imported at once.`,
  );
}

export function tooDeep(): BookmarkFileError {
  return new BookmarkFileError(
    `Folders are nested more than ${BOOKMARK_FILE_LIMITS.depth} levels deep.`,
  );
}

/** Counts links and folders as a reader makes them, and refuses the one over the limit. */
export class EntryCounter {
  private entries = 0;

  add(): void {
    this.entries += 1;
    if (this.entries > BOOKMARK_FILE_LIMITS.entries) throw tooManyEntries();
  }
}

/** A folder as the readers make it: no description, not the toolbar. */
export function newFolder(name: string): BookmarkFolder {
  return { kind: 'folder', name, description: '', toolbar: false, children: [] };
}

/** Refuses a folder `level` deep (a folder at the top level is 1 deep). */
export function checkDepth(level: number): void {
  if (level > BOOKMARK_FILE_LIMITS.depth) throw tooDeep();
}
