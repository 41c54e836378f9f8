// The one shape every bookmark file is read into, whatever wrote it: a browser's HTML export,
// a CSV sheet, a ManagedBookmarks policy, a Linkwarden or linkding export, or Signpost's own.
// The readers only read: they check no address and name nothing. What becomes of a link (its
// name from its address, the link rules, the person's rights) is the service's to decide.

/** A bookmark as the file has it. */
export interface BookmarkLink {
  kind: 'link';
  /** As in the file, trimmed; '' allowed (the service will name it from the URL). */
  name: string;
  /** Raw and trimmed, NOT validated here (the service applies the link rules). */
  url: string;
  /** '' when none. */
  description: string;
  /** Netscape ADD_DATE (seconds since the epoch), linkding's date_added, and the like. */
  addedAt: Date | null;
  /** Firefox's SHORTCUTURL; formats without keywords give null. */
  keyword: string | null;
  /** The Netscape ICON attribute (a data: URI) as given, else null. */
  icon: string | null;
}

/** A folder of bookmarks (a collection, once imported). */
export interface BookmarkFolder {
  kind: 'folder';
  name: string;
  description: string;
  /** Netscape PERSONAL_TOOLBAR_FOLDER="true": the browser's bookmarks bar. */
  toolbar: boolean;
  /** In file order. */
  children: BookmarkNode[];
}

export type BookmarkNode = BookmarkLink | BookmarkFolder;

export type BookmarkFormat =
  'netscape' | 'csv' | 'managed' | 'linkwarden' | 'linkding' | 'signpost';

export interface ParsedBookmarks {
  format: BookmarkFormat;
  title: string | null;
  roots: BookmarkNode[];
}

/** A problem with the file as a whole: its message is shown to the person as is, in plain words. */
export class BookmarkFileError extends Error {
  override name = 'BookmarkFileError';
}

/**
 * What one import reads at most: 20 MB of text, 100,000 links and folders together, and
 * folders 100 levels deep. A file over them is refused whole, before it is read to the end.
 */
export const BOOKMARK_FILE_LIMITS = {
  bytes: 20 * 1024 * 1024,
  entries: 100_000,
  depth: 100,
} as const;
