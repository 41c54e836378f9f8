import { BookmarkFileError } from './tree.ts';
import type { BookmarkFolder, BookmarkNode, ParsedBookmarks } from './tree.ts';
import { EntryCounter, checkDepth } from './limits.ts';
import { isObject, shapeError, type JsonObject } from './json-shape.ts';
import {
  SIGNPOST_FORMAT,
  SIGNPOST_VERSION,
  type ExportCollection,
  type ExportItem,
  type SignpostExport,
} from './export-tree.ts';

// Signpost's own JSON export, read back: the one format that carries everything Signpost
// has (ids, colors, app names). It is checked strictly, field by field, and a file of
// another shape is refused with where it differs, since only Signpost writes it:
//
//   { "format": "signpost-bookmarks", "version": 1, "exportedAt": "<ISO date>", "title": "…",
//     "items": [ { "type": "collection", "id", "name", "description", "color", "items": [] }
//              | { "type": "link", "id", "name", "description", "url", "appName", "keyword" } ] }

const DOCUMENT_KEYS = ['format', 'version', 'exportedAt', 'title', 'items'];
const COLLECTION_KEYS = ['type', 'id', 'name', 'description', 'color', 'items'];
const LINK_KEYS = ['type', 'id', 'name', 'description', 'url', 'appName', 'keyword'];

/** Whether a parsed JSON value says it is a Signpost export (whether or not it is one). */
export function isSignpostExport(value: unknown): boolean {
  return isObject(value) && value.format === SIGNPOST_FORMAT;
}

function list(keys: string[]): string {
  return `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}`;
}

function checkKeys(object: JsonObject, keys: string[], what: string, at: string): void {
  for (const key of Object.keys(object)) {
    if (!keys.includes(key)) throw shapeError(`${what} with only the fields ${list(keys)}`, at);
  }
}

/** A field path for error messages: `items[2].name`, or `title` at the top. */
const field = (at: string, key: string) => (at ? `${at}.${key}` : key);

function string(object: JsonObject, key: string, at: string): string {
  const value = object[key];
  if (typeof value !== 'string') throw shapeError('a string', field(at, key));
  return value;
}

function nullableString(object: JsonObject, key: string, at: string): string | null {
  const value = object[key];
  if (value === null) return null;
  if (typeof value !== 'string') throw shapeError('a string or null', field(at, key));
  return value;
}

/** An item's path for error messages: `items[2].items[0]`. */
const path = (at: string, index: number) => field(at, `items[${index}]`);

/** Reads a Signpost export whole, ids and colors included; throws on any other shape. */
export function readSignpostExport(value: unknown): SignpostExport {
  if (!isObject(value)) throw shapeError('an object', 'the top');
  checkKeys(value, DOCUMENT_KEYS, 'an export', 'the top');
  if (value.format !== SIGNPOST_FORMAT) throw shapeError(`"${SIGNPOST_FORMAT}"`, 'format');
  if (typeof value.version === 'number' && value.version > SIGNPOST_VERSION) {
    throw new BookmarkFileError(
      `This file was exported by a newer Signpost (version ${value.version} of its export); this Signpost reads version ${SIGNPOST_VERSION}.`,
    );
  }
  if (value.version !== SIGNPOST_VERSION) throw shapeError(`${SIGNPOST_VERSION}`, 'version');
  const exportedAt = new Date(string(value, 'exportedAt', ''));
  if (Number.isNaN(exportedAt.getTime())) throw shapeError('a date', 'exportedAt');
  const title = string(value, 'title', '');
  if (!Array.isArray(value.items)) throw shapeError('a list', 'items');

  const counter = new EntryCounter();
  const items: ExportItem[] = [];
  const levels = [{ list: value.items as unknown[], next: 0, into: items, at: '', depth: 0 }];
  while (levels.length > 0) {
    const level = levels[levels.length - 1] as (typeof levels)[number];
    if (level.next >= level.list.length) {
      levels.pop();
      continue;
    }
    const index = level.next;
    level.next += 1;
    const item = level.list[index];
    const at = path(level.at, index);
    if (!isObject(item)) throw shapeError('a collection or a link', at);
    counter.add();
    if (item.type === 'collection') {
      checkKeys(item, COLLECTION_KEYS, 'a collection', at);
      checkDepth(level.depth + 1);
      if (!Array.isArray(item.items)) throw shapeError('a list', `${at}.items`);
      const collection: ExportCollection = {
        type: 'collection',
        id: string(item, 'id', at),
        name: string(item, 'name', at),
        description: string(item, 'description', at),
        color: nullableString(item, 'color', at),
        items: [],
      };
      level.into.push(collection);
      levels.push({
        list: item.items as unknown[],
        next: 0,
        into: collection.items,
        at,
        depth: level.depth + 1,
      });
    } else if (item.type === 'link') {
      checkKeys(item, LINK_KEYS, 'a link', at);
      level.into.push({
        type: 'link',
        id: string(item, 'id', at),
        name: string(item, 'name', at),
        description: string(item, 'description', at),
        url: string(item, 'url', at),
        appName: nullableString(item, 'appName', at),
        keyword: nullableString(item, 'keyword', at),
        addedAt: null,
      });
    } else {
      throw shapeError('"collection" or "link"', `${at}.type`);
    }
  }
  return { title, exportedAt, items };
}

/** A Signpost export in the common tree: names, addresses and text trimmed, as every reader. */
export function signpostToBookmarks(exported: SignpostExport): ParsedBookmarks {
  const roots: BookmarkNode[] = [];
  const levels = [{ items: exported.items, next: 0, into: roots }];
  while (levels.length > 0) {
    const level = levels[levels.length - 1] as (typeof levels)[number];
    const item = level.items[level.next];
    if (!item) {
      levels.pop();
      continue;
    }
    level.next += 1;
    if (item.type === 'collection') {
      const folder: BookmarkFolder = {
        kind: 'folder',
        name: item.name.trim(),
        description: item.description.trim(),
        toolbar: false,
        children: [],
      };
      level.into.push(folder);
      levels.push({ items: item.items, next: 0, into: folder.children });
    } else {
      level.into.push({
        kind: 'link',
        name: item.name.trim(),
        url: item.url.trim(),
        description: item.description.trim(),
        addedAt: item.addedAt,
        keyword: item.keyword?.trim() || null,
        icon: null,
      });
    }
  }
  return { format: 'signpost', title: exported.title.trim() || null, roots };
}
