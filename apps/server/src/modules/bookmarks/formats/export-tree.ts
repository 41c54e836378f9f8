// What the writers are given: a person's collections and links as Signpost has them, in the
// order they are shown, whatever file they are written to. Signpost nests collections at
// most 10 deep; the writers walk the tree without recursion all the same.

export interface ExportCollection {
  type: 'collection';
  id: string;
  name: string;
  description: string;
  /** The collection's color, as Signpost stores it; null when it has none. */
  color: string | null;
  items: ExportItem[];
}

export interface ExportLink {
  type: 'link';
  id: string;
  name: string;
  description: string;
  url: string;
  /** The name of the app the link opens, if one was set. */
  appName: string | null;
  keyword: string | null;
  /** When the link was added; browsers show it, so the Netscape file carries it. */
  addedAt: Date | null;
}

export type ExportItem = ExportCollection | ExportLink;

/** A whole Signpost JSON export, as written and as read back. */
export interface SignpostExport {
  title: string;
  exportedAt: Date;
  items: ExportItem[];
}

/** The `format` of Signpost's JSON export, and the version this code writes and reads. */
export const SIGNPOST_FORMAT = 'signpost-bookmarks';
export const SIGNPOST_VERSION = 1;
