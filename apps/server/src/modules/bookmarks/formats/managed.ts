import type { BookmarkFolder, BookmarkNode, ParsedBookmarks } from './tree.ts';
import { EntryCounter, checkDepth, newFolder } from './limits.ts';
import { isObject, optionalString, shapeError, type JsonObject } from './json-shape.ts';

// The ManagedBookmarks policy, with which administrators give every browser of an
// organization the same bookmarks: Chrome and Edge take a list whose first entry may name
// the folder they stand in (`toplevel_name`), then links (`name`, `url`) and folders (`name`,
// `children`). It comes bare, as in the admin consoles, or as `{"ManagedBookmarks": [...]}`, as
// in a policy file. Firefox takes the same list in its policies.json
// (`{"policies": {"ManagedBookmarks": [...]}}`), and has a `Bookmarks` policy of its own there:
// a flat list of `Title`, `URL` and an optional `Folder`, read too, after the managed ones.
// The addresses are as the administrator typed them (Chrome accepts `example.com`).

/** Whether a parsed JSON value is a ManagedBookmarks list or a policy file holding one. */
export function isManagedBookmarks(value: unknown): boolean {
  if (Array.isArray(value)) {
    if (value.length === 0) return true;
    return value.some(
      (item) =>
        isObject(item) &&
        ('toplevel_name' in item || 'children' in item || ('name' in item && 'url' in item)),
    );
  }
  if (!isObject(value)) return false;
  if (Array.isArray(value.ManagedBookmarks)) return true;
  const policies = value.policies;
  return (
    isObject(policies) &&
    (Array.isArray(policies.ManagedBookmarks) || Array.isArray(policies.Bookmarks))
  );
}

interface Level {
  list: unknown[];
  next: number;
  children: BookmarkNode[];
  at: string;
  depth: number;
}

/** Reads the managed list `list` (found at `at`) into `roots`; returns its toplevel_name. */
function readManagedList(
  list: unknown[],
  at: string,
  roots: BookmarkNode[],
  counter: EntryCounter,
): string | null {
  let title: string | null = null;
  const levels: Level[] = [{ list, next: 0, children: roots, at, depth: 0 }];
  while (levels.length > 0) {
    const level = levels[levels.length - 1] as Level;
    if (level.next >= level.list.length) {
      levels.pop();
      continue;
    }
    const index = level.next;
    level.next += 1;
    const item = level.list[index];
    const here = `${level.at}[${index}]`;
    if (!isObject(item)) {
      throw shapeError('a bookmark (name and url) or a folder (name and children)', here);
    }
    if ('toplevel_name' in item) {
      const name = optionalString(item, 'toplevel_name', here).trim();
      title ??= name || null;
      continue;
    }
    const name = optionalString(item, 'name', here).trim();
    if ('children' in item) {
      const children = item.children;
      if (!Array.isArray(children)) throw shapeError('a list', `${here}.children`);
      counter.add();
      checkDepth(level.depth + 1);
      const folder: BookmarkFolder = newFolder(name);
      level.children.push(folder);
      levels.push({
        list: children,
        next: 0,
        children: folder.children,
        at: `${here}.children`,
        depth: level.depth + 1,
      });
      continue;
    }
    if (typeof item.url !== 'string') {
      throw shapeError(
        'url' in item ? 'a string' : 'a bookmark (name and url) or a folder (name and children)',
        'url' in item ? `${here}.url` : here,
      );
    }
    counter.add();
    level.children.push({
      kind: 'link',
      name,
      url: item.url.trim(),
      description: '',
      addedAt: null,
      keyword: null,
      icon: null,
    });
  }
  return title;
}

/** Firefox's `Bookmarks` policy: a flat list, each bookmark in its `Folder` (by name), if any. */
function readFirefoxBookmarks(
  list: unknown[],
  at: string,
  roots: BookmarkNode[],
  counter: EntryCounter,
) {
  const folders = new Map<string, BookmarkFolder>();
  list.forEach((item, index) => {
    const here = `${at}[${index}]`;
    if (!isObject(item)) throw shapeError('a bookmark (Title and URL)', here);
    const url = (item as JsonObject).URL;
    if (typeof url !== 'string') throw shapeError('a string', `${here}.URL`);
    const folderName = optionalString(item, 'Folder', here).trim();
    let children = roots;
    if (folderName) {
      let folder = folders.get(folderName);
      if (!folder) {
        counter.add();
        folder = newFolder(folderName);
        folders.set(folderName, folder);
        roots.push(folder);
      }
      children = folder.children;
    }
    counter.add();
    children.push({
      kind: 'link',
      name: optionalString(item, 'Title', here).trim(),
      url: url.trim(),
      description: '',
      addedAt: null,
      keyword: null,
      icon: null,
    });
  });
}

/** Reads a value isManagedBookmarks accepted. */
export function readManagedBookmarks(value: unknown): ParsedBookmarks {
  const roots: BookmarkNode[] = [];
  const counter = new EntryCounter();
  let title: string | null = null;
  if (Array.isArray(value)) {
    title = readManagedList(value, 'ManagedBookmarks', roots, counter);
  } else if (isObject(value) && Array.isArray(value.ManagedBookmarks)) {
    title = readManagedList(value.ManagedBookmarks, 'ManagedBookmarks', roots, counter);
  } else if (isObject(value) && isObject(value.policies)) {
    const { ManagedBookmarks: managed, Bookmarks: bookmarks } = value.policies;
    if (managed !== undefined) {
      if (!Array.isArray(managed)) throw shapeError('a list', 'policies.ManagedBookmarks');
      title = readManagedList(managed, 'policies.ManagedBookmarks', roots, counter);
    }
    if (bookmarks !== undefined) {
      if (!Array.isArray(bookmarks)) throw shapeError('a list', 'policies.Bookmarks');
      readFirefoxBookmarks(bookmarks, 'policies.Bookmarks', roots, counter);
    }
  }
  return { format: 'managed', title, roots };
}
