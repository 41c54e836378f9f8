import { readFileSync } from 'node:fs';
import type { BookmarkFolder, BookmarkLink, BookmarkNode, ParsedBookmarks } from './tree.ts';

// What the tests of the bookmark formats share: the sample files, short ways to write the
// trees they should read into, and a check that a tree is of the types it claims.

/** A sample file of test/fixtures/bookmarks, as text. */
export function fixture(name: string): string {
  return readFileSync(
    new URL(`../../../../test/fixtures/bookmarks/${name}`, import.meta.url),
    'utf8',
  );
}

/** A date of a Netscape file: seconds since the epoch. */
export const seconds = (value: number) => new Date(value * 1000);

export function link(name: string, url: string, fields: Partial<BookmarkLink> = {}): BookmarkLink {
  return {
    kind: 'link',
    name,
    url,
    description: '',
    addedAt: null,
    keyword: null,
    icon: null,
    ...fields,
  };
}

export function folder(
  name: string,
  children: BookmarkNode[],
  fields: Partial<BookmarkFolder> = {},
): BookmarkFolder {
  return { kind: 'folder', name, description: '', toolbar: false, children, ...fields };
}

const FORMATS = ['netscape', 'csv', 'managed', 'linkwarden', 'linkding', 'signpost'];
const LINK_KEYS = ['addedAt', 'description', 'icon', 'keyword', 'kind', 'name', 'url'];
const FOLDER_KEYS = ['children', 'description', 'kind', 'name', 'toolbar'];

const sameKeys = (value: object, keys: string[]) =>
  Object.keys(value).sort().join() === keys.join();
const nullOr = (value: unknown, type: string) => value === null || typeof value === type;

/**
 * Throws unless `parsed` is a ParsedBookmarks in every node: the fields the types name, of
 * their types, and nothing else. Walked without recursion, as deep trees may come.
 */
export function checkParsedBookmarks(parsed: ParsedBookmarks): void {
  if (!sameKeys(parsed, ['format', 'roots', 'title'])) throw new Error('fields of the result');
  if (!FORMATS.includes(parsed.format)) throw new Error(`format ${parsed.format}`);
  if (!nullOr(parsed.title, 'string')) throw new Error('title');
  const lists: unknown[][] = [parsed.roots];
  for (let list = lists.pop(); list; list = lists.pop()) {
    if (!Array.isArray(list)) throw new Error('children');
    for (const node of list as BookmarkNode[]) {
      if (typeof node.name !== 'string' || typeof node.description !== 'string') {
        throw new Error('name or description');
      }
      if (node.kind === 'link') {
        if (!sameKeys(node, LINK_KEYS)) throw new Error('fields of a link');
        if (typeof node.url !== 'string') throw new Error('url');
        if (!nullOr(node.keyword, 'string') || !nullOr(node.icon, 'string')) {
          throw new Error('keyword or icon');
        }
        const date = node.addedAt;
        if (date !== null && (!(date instanceof Date) || Number.isNaN(date.getTime()))) {
          throw new Error('addedAt');
        }
      } else if (node.kind === 'folder') {
        if (!sameKeys(node, FOLDER_KEYS)) throw new Error('fields of a folder');
        if (typeof node.toolbar !== 'boolean') throw new Error('toolbar');
        lists.push(node.children);
      } else {
        throw new Error('kind');
      }
    }
  }
}

/** The message of what `read` throws, and that it threw at all. */
export function thrown(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}
