import type { BookmarkFolder, BookmarkNode, ParsedBookmarks } from './tree.ts';
import { EntryCounter, checkDepth, newFolder } from './limits.ts';
import {
  isObject,
  optionalDate,
  optionalString,
  shapeError,
  type JsonObject,
} from './json-shape.ts';

// Linkwarden's backup ("Export Data" in its settings): the account, with `collections`, each
// with its `links`. A collection names its parent by `parentId` (null at the top level); a
// parent missing from the file (shared with the person, not theirs), a cycle, or no ids at
// all (early versions left them out of the export) put the collection at the top level. The
// account's `collectionOrder`, the order of its sidebar, orders collections among their
// siblings; the others follow in file order. In a collection, its subcollections come first,
// as Linkwarden shows them, then its links. A link without a `url` is a file uploaded to
// Linkwarden (a PDF, an image): there is nothing to link to, and it is left out.

/** Whether a parsed JSON value is a Linkwarden backup. */
export function isLinkwardenBackup(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.collections);
}

type Id = string | number;

function idOf(value: unknown): Id | null {
  return typeof value === 'number' || typeof value === 'string' ? value : null;
}

/** Reads a value isLinkwardenBackup accepted. */
export function readLinkwarden(value: unknown): ParsedBookmarks {
  const backup = value as JsonObject;
  const collections = backup.collections as unknown[];
  const counter = new EntryCounter();

  const order = new Map<Id, number>();
  if (Array.isArray(backup.collectionOrder)) {
    backup.collectionOrder.forEach((id, index) => {
      const key = idOf(id);
      if (key !== null && !order.has(key)) order.set(key, index);
    });
  }

  interface Entry {
    index: number;
    object: JsonObject;
    id: Id | null;
    parent: Id | null;
    folder: BookmarkFolder;
    subcollections: Entry[];
    placed: boolean;
  }
  const entries: Entry[] = collections.map((object, index) => {
    const at = `collections[${index}]`;
    if (!isObject(object)) throw shapeError('a collection', at);
    if (!Array.isArray(object.links)) throw shapeError('a list', `${at}.links`);
    counter.add();
    const folder = newFolder(optionalString(object, 'name', at).trim());
    folder.description = optionalString(object, 'description', at).trim();
    return {
      index,
      object,
      id: idOf(object.id),
      parent: idOf(object.parentId),
      folder,
      subcollections: [],
      placed: false,
    };
  });
  const byId = new Map<Id, Entry>();
  for (const entry of entries)
    if (entry.id !== null && !byId.has(entry.id)) byId.set(entry.id, entry);

  // Where a collection stands in the sidebar's order; those it leaves out come after.
  const rank = (entry: Entry) => (entry.id === null ? undefined : order.get(entry.id)) ?? Infinity;
  const sorted = [...entries].sort((a, b) => {
    const ranks = rank(a) - rank(b);
    return Number.isNaN(ranks) || ranks === 0 ? a.index - b.index : ranks;
  });
  const tops: Entry[] = [];
  for (const entry of sorted) {
    const parent = entry.parent === null ? undefined : byId.get(entry.parent);
    if (parent && parent !== entry) parent.subcollections.push(entry);
    else tops.push(entry);
  }

  const roots: BookmarkNode[] = [];
  /** Places a collection and everything under it, breadth first, in order. */
  const place = (top: Entry, into: BookmarkNode[]) => {
    const queue: Array<{ entry: Entry; into: BookmarkNode[]; depth: number }> = [
      { entry: top, into, depth: 1 },
    ];
    for (let i = 0; i < queue.length; i += 1) {
      const { entry, into: siblings, depth } = queue[i] as (typeof queue)[number];
      if (entry.placed) continue;
      entry.placed = true;
      checkDepth(depth);
      siblings.push(entry.folder);
      for (const sub of entry.subcollections) {
        queue.push({ entry: sub, into: entry.folder.children, depth: depth + 1 });
      }
    }
  };
  for (const top of tops) place(top, roots);
  // Collections in a cycle of parents reach no top: each cycle hangs from its first one.
  for (const entry of sorted) if (!entry.placed) place(entry, roots);

  for (const entry of entries) {
    const links = entry.object.links as unknown[];
    links.forEach((link, index) => {
      const at = `collections[${entry.index}].links[${index}]`;
      if (!isObject(link)) throw shapeError('a link', at);
      const url = optionalString(link, 'url', at).trim();
      if (!url) return;
      counter.add();
      entry.folder.children.push({
        kind: 'link',
        name: optionalString(link, 'name', at).trim(),
        url,
        description: optionalString(link, 'description', at).trim(),
        addedAt: optionalDate(link.importDate) ?? optionalDate(link.createdAt),
        keyword: null,
        icon: null,
      });
    });
  }
  return { format: 'linkwarden', title: null, roots };
}
