import type { BookmarkNode, ParsedBookmarks } from './tree.ts';
import { EntryCounter } from './limits.ts';
import { isObject, optionalDate, optionalString, shapeError } from './json-shape.ts';

// linkding's bookmarks as its REST API lists them (`GET /api/bookmarks/`): a page
// `{"count", "next", "previous", "results": [...]}`, or the bare list of its results. Each has
// `url`, `title`, `description`, `tag_names` and `date_added`. linkding has tags but no
// folders: every link stands at the top level, and the tags are not read. Older versions
// left `title` empty and filled `website_title` from the page; that stands in for it.
// (linkding's own export is a Netscape bookmark file, read as one.)

const LINKDING_KEYS = ['title', 'tag_names', 'date_added', 'website_title'];

/** Whether a parsed JSON value is a linkding page of results, or a bare list of them. */
export function isLinkdingList(value: unknown): boolean {
  if (isObject(value)) return Array.isArray(value.results);
  return (
    Array.isArray(value) &&
    value.some(
      (item) => isObject(item) && 'url' in item && LINKDING_KEYS.some((key) => key in item),
    )
  );
}

/** Reads a value isLinkdingList accepted. */
export function readLinkding(value: unknown): ParsedBookmarks {
  const page = isObject(value);
  const results = (page ? value.results : value) as unknown[];
  const counter = new EntryCounter();
  const roots: BookmarkNode[] = [];
  results.forEach((item, index) => {
    const at = page ? `results[${index}]` : `[${index}]`;
    if (!isObject(item)) throw shapeError('a bookmark', at);
    if (typeof item.url !== 'string') throw shapeError('a string', `${at}.url`);
    counter.add();
    const title = optionalString(item, 'title', at).trim();
    const description = optionalString(item, 'description', at).trim();
    roots.push({
      kind: 'link',
      name: title || optionalString(item, 'website_title', at).trim(),
      url: item.url.trim(),
      description: description || optionalString(item, 'website_description', at).trim(),
      addedAt: optionalDate(item.date_added),
      keyword: null,
      icon: null,
    });
  });
  return { format: 'linkding', title: null, roots };
}
