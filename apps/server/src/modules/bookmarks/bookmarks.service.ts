import {
  LIMITS,
  type BookmarkExportFormat,
  type BookmarkImportBody,
  type BookmarkImportPreview,
  type BookmarkImportPreviewBody,
  type BookmarkImportResult,
  type BookmarkImportTarget,
} from '@signpost/contract';
import type { Database, Executor } from '../../db/client.ts';
import { lockPerson } from '../../db/locks.ts';
import { findRoot, nextPosition, nextTopPosition } from '../../db/positions.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { AuditOrigin } from '../../lib/request-context.ts';
import { MAX_DEPTH } from '../access/permissions.ts';
import type { AccessService } from '../access/access.service.ts';
import type { AuditService, ContentPlace } from '../audit/audit.service.ts';
import type { IconsService } from '../icons/icons.service.ts';
import type { UndoService } from '../undo/undo.service.ts';
import {
  planImport,
  plannedRows,
  type ImportPlan,
  type PlannedFolder,
} from './bookmarks-import.plan.ts';
import type {
  BookmarksRepository,
  ExportCollectionRow,
  ExportLinkRow,
  NewCollectionRow,
  NewLinkRow,
  SpaceOwner,
} from './bookmarks.repository.ts';
import { loadBookmarkReaders, readBookmarks } from './formats/read.ts';
import { BookmarkFileError, type ParsedBookmarks } from './formats/tree.ts';
import type { ExportItem } from './formats/export-tree.ts';
import { writeCsv, writeManaged, writeNetscape, writeSignpostJson } from './formats/write.ts';

export interface BookmarksDeps {
  db: Database;
  bookmarks: BookmarksRepository;
  access: AccessService;
  audit: AuditService;
  undo: UndoService;
  icons: Pick<IconsService, 'lookSoon'>;
}

/** Where an import goes, authorized: the place's owner and how deep its folders may go. */
interface ImportPlace {
  /** The collection that receives the items: null while the new one is not made yet. */
  collectionId: string | null;
  /** For a new collection: its parent (null at the top of a team or organization space). */
  parentId: string | null;
  name: string;
  levels: number;
  owner: SpaceOwner;
  row: {
    organizationId: string;
    ownerType: 'user' | 'team' | 'organization';
    ownerUserId: string | null;
    ownerTeamId: string | null;
  };
  audit: ContentPlace;
}

const NEW_COLLECTION_NAME = 'Imported bookmarks';

/** The name of a new collection: the file's title, else its name without the extension. */
function newCollectionName(parsed: ParsedBookmarks, fileName: string | undefined): string {
  const fromFile = fileName?.replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
  const title = [parsed.title?.trim(), fromFile].find((text) => text && text.length > 0);
  const name = (title ?? NEW_COLLECTION_NAME).replace(/\s+/g, ' ');
  return name.length > LIMITS.name ? `${name.slice(0, LIMITS.name - 1)}…` : name;
}

/** The file read, or its problem as a 400 in words. */
async function read(file: string, fileName: string | undefined): Promise<ParsedBookmarks> {
  // The HTML parser loads at the first import, not at the server's start.
  await loadBookmarkReaders();
  try {
    return readBookmarks(file, fileName);
  } catch (error) {
    if (error instanceof BookmarkFileError) throw badRequest(error.message);
    throw error;
  }
}

/** Every normalized address of a planned tree, for the duplicate look-up. */
function addressesOf(planned: ImportPlan): string[] {
  const urls: string[] = [];
  for (const { item } of plannedRows(planned.items)) if (item.kind === 'link') urls.push(item.url);
  return urls;
}

export function createBookmarksService({
  db,
  bookmarks,
  access,
  audit,
  undo,
  icons,
}: BookmarksDeps) {
  async function placeOf(
    tx: Executor,
    me: AuthContext,
    target: BookmarkImportTarget,
    parsed: ParsedBookmarks,
    fileName: string | undefined,
  ): Promise<ImportPlace> {
    if (target.into === 'collection') {
      const found = await access.allowed(tx, me, target.collectionId, 'addLink');
      const { collection } = found;
      const owner: SpaceOwner =
        collection.ownerType === 'user'
          ? { type: 'user', userId: collection.ownerUserId! }
          : collection.ownerType === 'team'
            ? { type: 'team', teamId: collection.ownerTeamId! }
            : { type: 'organization', organizationId: me.organizationId };
      return {
        collectionId: collection.id,
        parentId: collection.parentId,
        name: collection.name,
        levels: found.can.addCollection ? MAX_DEPTH - (await access.depthOf(tx, collection.id)) : 0,
        owner,
        row: {
          organizationId: me.organizationId,
          ownerType: collection.ownerType,
          ownerUserId: collection.ownerUserId,
          ownerTeamId: collection.ownerTeamId,
        },
        audit: { space: found.space, relation: found.relation },
      };
    }
    const name = newCollectionName(parsed, fileName);
    if (target.spaceId) {
      const space = await access.space(tx, me, target.spaceId);
      const teamId = space.type === 'team' ? space.id : null;
      return {
        collectionId: null,
        parentId: null,
        name,
        // A space's top collection stands at depth 0: MAX_DEPTH levels below it.
        levels: MAX_DEPTH,
        owner: teamId
          ? { type: 'team', teamId }
          : { type: 'organization', organizationId: me.organizationId },
        row: {
          organizationId: me.organizationId,
          ownerType: space.type,
          ownerUserId: null,
          ownerTeamId: teamId,
        },
        audit: { space: space.type, relation: space.relation },
      };
    }
    const rootId = await findRoot(tx, me.userId);
    if (!rootId) throw notFound('My Space was not found');
    return {
      collectionId: null,
      parentId: rootId,
      name,
      // Below My Space (depth 0) the new collection is at depth 1.
      levels: MAX_DEPTH - 1,
      owner: { type: 'user', userId: me.userId },
      row: {
        organizationId: me.organizationId,
        ownerType: 'user',
        ownerUserId: me.userId,
        ownerTeamId: null,
      },
      audit: { space: 'personal' },
    };
  }

  /** Plans an import: once to find the addresses, once with the target's links known. */
  async function plan(
    tx: Executor,
    place: ImportPlace,
    parsed: ParsedBookmarks,
    duplicates: 'skip' | 'keep',
  ): Promise<ImportPlan> {
    const first = planImport(parsed, {
      levels: place.levels,
      existing: new Map(),
      duplicates: 'keep',
    });
    const existing = await bookmarks.linksByUrl(tx, place.owner, addressesOf(first));
    if (existing.size === 0) return first;
    return planImport(parsed, { levels: place.levels, existing, duplicates });
  }

  return {
    /** What importing the file would make, writing nothing. */
    async preview(
      me: AuthContext,
      body: BookmarkImportPreviewBody,
    ): Promise<BookmarkImportPreview> {
      const parsed = await read(body.file, body.fileName);
      return db.transaction(async (tx) => {
        const place = await placeOf(tx, me, body.target, parsed, body.fileName);
        const planned = await plan(tx, place, parsed, 'keep');
        const { items: _items, ...preview } = planned;
        return { format: parsed.format, targetName: place.name, ...preview };
      });
    },

    /**
     * Imports the file in one transaction: the new collection (or the existing one) gets the
     * file's folders as collections and its links, in order. Undoable: the undo takes away
     * what the import made.
     */
    async import(
      me: AuthContext,
      body: BookmarkImportBody,
      origin: AuditOrigin,
    ): Promise<BookmarkImportResult> {
      const parsed = await read(body.file, body.fileName);
      const result = await db.transaction(async (tx) => {
        await lockPerson(tx, me.userId);
        const place = await placeOf(tx, me, body.target, parsed, body.fileName);
        const planned = await plan(tx, place, parsed, body.duplicates);
        if (planned.links === 0 && planned.folders === 0) {
          throw badRequest(
            planned.refusedCount > 0
              ? 'Nothing in this file can be imported: every entry was refused. The preview lists why.'
              : body.duplicates === 'skip' && planned.duplicateCount > 0
                ? 'Nothing to import: every link of the file is here already.'
                : 'Nothing to import: the file holds no links.',
          );
        }
        const collectionRows: NewCollectionRow[] = [];
        const linkRows: NewLinkRow[] = [];
        let targetId = place.collectionId;
        let topCollections: string[] = [];
        const topLinks: string[] = [];
        if (targetId === null) {
          targetId = newId();
          const position =
            place.parentId === null
              ? await nextTopPosition(tx, me.organizationId, place.row.ownerTeamId)
              : await nextPosition(tx, place.parentId);
          if (place.parentId) await access.hold(tx, place.parentId);
          collectionRows.push({
            id: targetId,
            parentId: place.parentId,
            name: place.name,
            description: '',
            position,
          });
          topCollections = [targetId];
        } else {
          await access.hold(tx, targetId);
        }
        const start = place.collectionId ? await nextPosition(tx, targetId) : 0;
        const ids = new Map<PlannedFolder, string>();
        for (const { item, parent, position } of plannedRows(planned.items)) {
          const parentId = parent ? ids.get(parent)! : targetId;
          const at = parent ? position : start + position;
          const id = newId();
          if (item.kind === 'folder') {
            ids.set(item, id);
            collectionRows.push({
              id,
              parentId,
              name: item.name,
              description: item.description,
              position: at,
            });
            if (!parent && place.collectionId) topCollections.push(id);
          } else {
            linkRows.push({
              id,
              collectionId: parentId,
              name: item.name,
              description: item.description,
              url: item.url,
              keyword: item.keyword,
              position: at,
            });
            if (!parent && place.collectionId) topLinks.push(id);
          }
        }
        await bookmarks.insertCollections(
          tx,
          { ...place.row, createdBy: me.userId },
          collectionRows,
        );
        await bookmarks.insertLinks(
          tx,
          { organizationId: me.organizationId, createdBy: me.userId },
          linkRows,
        );
        const ticket = await undo.keepImport(tx, me, targetId, place.name, {
          collections: collectionRows.map((row) => row.id),
          links: linkRows.map((row) => row.id),
          top: { collections: topCollections, links: topLinks },
        });
        await audit.recordContentChange(tx, me, origin, place.audit, {
          action: 'content.bookmarks-imported',
          target: { type: 'collection', id: targetId, label: place.name },
          after: {
            format: parsed.format,
            links: linkRows.length,
            collections: collectionRows.length - (place.collectionId ? 0 : 1),
            newCollection: place.collectionId === null,
          },
        });
        return {
          collectionId: targetId,
          links: linkRows.length,
          folders: planned.folders,
          skipped: body.duplicates === 'skip' ? planned.duplicateCount : 0,
          refusedCount: planned.refusedCount,
          refused: planned.refused,
          undo: { id: ticket.id, expiresAt: ticket.expiresAt.toISOString() },
        };
      });
      icons.lookSoon();
      return result;
    },

    /**
     * A place as a file: one collection the person sees, My Space, a team space they see, the
     * organization space, or (administrators) everything of the organization. Answers the
     * file's name and its content as chunks.
     */
    async export(
      me: AuthContext,
      query: { format: BookmarkExportFormat; collectionId?: string; space?: string },
    ): Promise<{ fileName: string; title: string; chunks: Iterable<string> }> {
      if ((query.collectionId === undefined) === (query.space === undefined)) {
        throw badRequest('Name either collectionId or space to export.');
      }
      const { title, items } = await db.transaction(async (tx) => exportTree(tx, me, query));
      const chunks =
        query.format === 'netscape'
          ? writeNetscape(title, items)
          : query.format === 'csv'
            ? writeCsv(items)
            : query.format === 'managed'
              ? writeManaged(title, items)
              : writeSignpostJson({ title, exportedAt: new Date(), items });
      const extension = { netscape: 'html', csv: 'csv', managed: 'json', json: 'json' }[
        query.format
      ];
      const base =
        title
          .replace(/[^\p{L}\p{N} ._-]+/gu, '')
          .trim()
          .slice(0, 80) || 'bookmarks';
      const suffix = query.format === 'managed' ? ' (managed bookmarks)' : '';
      return { fileName: `${base}${suffix}.${extension}`, title, chunks };
    },
  };

  /** The tree of a place to export, in the portal's order. */
  async function exportTree(
    tx: Executor,
    me: AuthContext,
    query: { collectionId?: string; space?: string },
  ): Promise<{ title: string; items: ExportItem[] }> {
    if (query.collectionId) {
      const { collection } = await access.collection(tx, me, query.collectionId);
      const rows = await bookmarks.exportRows(tx, { collectionId: collection.id });
      return { title: collection.name, items: treeOf(rows, collection.id) };
    }
    if (query.space === 'personal') {
      const rows = await bookmarks.exportRows(tx, { owner: { type: 'user', userId: me.userId } });
      const root = rows.collections.find((c) => c.isRoot);
      return { title: 'My Space', items: root ? treeOf(rows, root.id) : [] };
    }
    if (query.space === 'organization') {
      const rows = await bookmarks.exportRows(tx, {
        owner: { type: 'organization', organizationId: me.organizationId },
      });
      return { title: me.organizationName, items: treeOf(rows, null) };
    }
    const team = await access.spaceToRead(tx, me, query.space!);
    if (team.type !== 'team') throw notFound(`Space ${query.space} was not found`);
    const rows = await bookmarks.exportRows(tx, { owner: { type: 'team', teamId: team.id } });
    return { title: team.name, items: treeOf(rows, null) };
  }
}
export type BookmarksService = ReturnType<typeof createBookmarksService>;

/** The items below `topId` (null: a space's top collections), links and collections in order. */
export function treeOf(
  rows: { collections: ExportCollectionRow[]; links: ExportLinkRow[] },
  topId: string | null,
): ExportItem[] {
  type Entry = { at: number; kind: number; item: ExportItem };
  const children = new Map<string | null, Entry[]>();
  const add = (parentId: string | null, entry: Entry) => {
    const list = children.get(parentId) ?? [];
    list.push(entry);
    children.set(parentId, list);
  };
  const known = new Set(rows.collections.map((c) => c.id));
  const collections = new Map<string, ExportItem & { type: 'collection' }>();
  for (const c of rows.collections) {
    const item = {
      type: 'collection' as const,
      id: c.id,
      name: c.name,
      description: c.description,
      color: c.color,
      items: [] as ExportItem[],
    };
    collections.set(c.id, item);
    // A collection whose parent is outside the export stands at its top.
    const parent = c.parentId !== null && known.has(c.parentId) ? c.parentId : null;
    if (c.id !== topId) add(parent, { at: c.position, kind: 1, item });
  }
  for (const l of rows.links) {
    add(l.collectionId, {
      at: l.position,
      kind: 0,
      item: {
        type: 'link',
        id: l.id,
        name: l.name,
        description: l.description,
        url: l.url,
        appName: l.appName,
        keyword: l.keyword,
        addedAt: l.createdAt instanceof Date ? l.createdAt : new Date(l.createdAt),
      },
    });
  }
  for (const [parentId, list] of children) {
    list.sort((a, b) => a.at - b.at || a.kind - b.kind);
    const items = list.map((entry) => entry.item);
    if (parentId === null) continue;
    const collection = collections.get(parentId);
    if (collection) collection.items = items;
  }
  const top = topId === null ? (children.get(null) ?? []) : (children.get(topId) ?? []);
  if (topId === null) return top.map((entry) => entry.item);
  return collections.get(topId)?.items ?? top.map((entry) => entry.item);
}
