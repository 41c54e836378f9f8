// Bookmarks in and out (decision 0087): importing a browser's bookmark file, a CSV, a
// managed-bookmarks policy or another link manager's export into a place of Signpost, and
// exporting a place in those formats and in Signpost's own JSON.
import { Type, type Static } from 'typebox';
import { Id } from './common.ts';
import { multiline } from './text.ts';

/** Limits of a bookmark import. */
export const BOOKMARK_IMPORT_LIMITS = {
  /** The file's size in bytes once encoded as UTF-8. */
  bytes: 20 * 1024 * 1024,
  /** Links and folders together. */
  entries: 100_000,
  /** Refused entries and duplicates the preview lists one by one (the counts are whole). */
  listed: 200,
  /** Top folders the preview names. */
  topFolders: 20,
} as const;

/** The formats a file may be in; the server recognises which. */
export const BOOKMARK_FORMATS = [
  'netscape',
  'csv',
  'managed',
  'linkwarden',
  'linkding',
  'signpost',
] as const;
export const BookmarkFormat = Type.Union([
  Type.Literal('netscape'),
  Type.Literal('csv'),
  Type.Literal('managed'),
  Type.Literal('linkwarden'),
  Type.Literal('linkding'),
  Type.Literal('signpost'),
]);
export type BookmarkFormat = Static<typeof BookmarkFormat>;

/**
 * Where an import goes: a new collection named after the file, at the top of My Space or of
 * a team or organization space the person runs (`spaceId`); or into an existing collection
 * the person may add to.
 */
export const BookmarkImportTarget = Type.Union([
  Type.Object(
    {
      into: Type.Literal('new'),
      spaceId: Type.Optional(
        Type.String({
          description:
            'A team or the organization whose top level gets the new collection; My Space when left out',
          pattern: '^[A-Za-z0-9_-]{21}$',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { into: Type.Literal('collection'), collectionId: Id },
    { additionalProperties: false },
  ),
]);
export type BookmarkImportTarget = Static<typeof BookmarkImportTarget>;

const file = Type.String({
  title: 'Bookmark file',
  description:
    "The file as text (UTF-8): a browser's bookmark file (Chrome, Edge, Firefox, Safari), a CSV " +
    'with a header (`url`, `name`, `description`, `path` as `Folder > Sub folder`), a ' +
    '`ManagedBookmarks` policy, or a Linkwarden, linkding or Signpost JSON export. 20 MB and ' +
    '100,000 links and folders at most.',
  ...multiline,
});

export const BookmarkImportPreviewBody = Type.Object(
  {
    file,
    fileName: Type.Optional(
      Type.String({
        maxLength: 255,
        description: 'Names the new collection when the file has no title',
      }),
    ),
    target: BookmarkImportTarget,
  },
  { additionalProperties: false },
);
export type BookmarkImportPreviewBody = Static<typeof BookmarkImportPreviewBody>;

export const BookmarkImportBody = Type.Object(
  {
    ...BookmarkImportPreviewBody.properties,
    duplicates: Type.Union([Type.Literal('skip'), Type.Literal('keep')], {
      description:
        'Links whose address is in the target space already: left out, or imported as well',
    }),
  },
  { additionalProperties: false },
);
export type BookmarkImportBody = Static<typeof BookmarkImportBody>;

/** An entry of the file that will not be imported, and why. */
export const BookmarkRefusal = Type.Object({
  /** The folders it is in, as `Folder > Sub folder` (empty at the top). */
  path: Type.String(),
  name: Type.String(),
  url: Type.String(),
  reason: Type.String(),
});
export type BookmarkRefusal = Static<typeof BookmarkRefusal>;

/** A link of the file whose address the target space holds already. */
export const BookmarkDuplicate = Type.Object({
  path: Type.String(),
  name: Type.String(),
  url: Type.String(),
  /** The link of the space with that address. */
  existing: Type.Object({ id: Type.String(), name: Type.String(), collectionName: Type.String() }),
});
export type BookmarkDuplicate = Static<typeof BookmarkDuplicate>;

export const BookmarkImportPreview = Type.Object({
  format: BookmarkFormat,
  /** What the new collection will be called, or the existing collection's name. */
  targetName: Type.String(),
  links: Type.Integer({ description: 'Links that will be imported (duplicates counted)' }),
  folders: Type.Integer(),
  /** Folder levels below the target (0: links only). */
  depth: Type.Integer(),
  topFolders: Type.Array(
    Type.Object({ name: Type.String(), links: Type.Integer(), folders: Type.Integer() }),
  ),
  duplicateCount: Type.Integer(),
  duplicates: Type.Array(BookmarkDuplicate),
  refusedCount: Type.Integer(),
  refused: Type.Array(BookmarkRefusal),
  /** Changes made so the file fits (a folder renamed, folders too deep flattened), in words. */
  notices: Type.Array(Type.String()),
});
export type BookmarkImportPreview = Static<typeof BookmarkImportPreview>;

export const BookmarkImportResult = Type.Object({
  /** The collection that holds the import: the new one, or the existing target. */
  collectionId: Type.String(),
  links: Type.Integer(),
  folders: Type.Integer(),
  skipped: Type.Integer({ description: 'Duplicates left out' }),
  refusedCount: Type.Integer(),
  refused: Type.Array(BookmarkRefusal),
  undo: Type.Object({ id: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }),
});
export type BookmarkImportResult = Static<typeof BookmarkImportResult>;

/** The formats of an export. `managed` is for team and organization spaces. */
export const BOOKMARK_EXPORT_FORMATS = ['netscape', 'json', 'csv', 'managed'] as const;
export const BookmarkExportFormat = Type.Union([
  Type.Literal('netscape'),
  Type.Literal('json'),
  Type.Literal('csv'),
  Type.Literal('managed'),
]);
export type BookmarkExportFormat = Static<typeof BookmarkExportFormat>;

/**
 * `GET /bookmarks/export`: one collection (`collectionId`), or a whole space (`space`:
 * `personal`, a team's id, or `organization`).
 */
export const BookmarkExportQuery = Type.Object(
  {
    format: BookmarkExportFormat,
    collectionId: Type.Optional(Id),
    space: Type.Optional(
      Type.String({
        description: '`personal` (My Space), a team id, or `organization` (the organization space)',
        pattern: '^(personal|organization|[A-Za-z0-9_-]{21})$',
      }),
    ),
  },
  { additionalProperties: false },
);
export type BookmarkExportQuery = Static<typeof BookmarkExportQuery>;

/** Signpost's own export: every item in order, with ids, descriptions and keywords. */
export interface SignpostBookmarkLink {
  type: 'link';
  id: string;
  name: string;
  description: string;
  url: string;
  appName: string | null;
  /** A short name from the file it came from (Firefox keywords), for go links. */
  keyword: string | null;
}
export interface SignpostBookmarkCollection {
  type: 'collection';
  id: string;
  name: string;
  description: string;
  color: string | null;
  items: SignpostBookmarkItem[];
}
export type SignpostBookmarkItem = SignpostBookmarkLink | SignpostBookmarkCollection;
/** The document of a JSON export (`format` and `version` first). */
export interface SignpostBookmarkExport {
  format: 'signpost-bookmarks';
  version: 1;
  exportedAt: string;
  title: string;
  items: SignpostBookmarkItem[];
}
