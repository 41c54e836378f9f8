import { stringify } from 'csv-stringify/sync';
import { formatFolderPath, csvCell } from './csv.ts';
import {
  SIGNPOST_FORMAT,
  SIGNPOST_VERSION,
  type ExportCollection,
  type ExportItem,
  type ExportLink,
  type SignpostExport,
} from './export-tree.ts';

// The writers: each yields the file in pieces (a line, an item, a batch of rows), so that the
// server streams an export of any size without holding it whole. They walk the tree with a
// stack of their own, not by recursion.

/** One step of a walk through the items: an item met, or the end of a collection's items. */
type Step =
  | { kind: 'item'; item: ExportItem; depth: number; last: boolean; path: readonly string[] }
  | { kind: 'end'; collection: ExportCollection; depth: number; last: boolean };

/**
 * The items in document order: each item as it is met (`depth` 0 at the top, `path` the names
 * of the collections it is in), and after a collection's items, the end of the collection.
 * `last` says whether the item is the last among its siblings (where JSON puts no comma).
 */
function* walk(items: readonly ExportItem[]): Generator<Step> {
  const levels: Array<{
    items: readonly ExportItem[];
    next: number;
    collection: ExportCollection | null;
    path: readonly string[];
    last: boolean;
  }> = [{ items, next: 0, collection: null, path: [], last: true }];
  while (levels.length > 0) {
    const level = levels[levels.length - 1] as (typeof levels)[number];
    const depth = levels.length - 1;
    const item = level.items[level.next];
    if (!item) {
      levels.pop();
      if (level.collection) {
        yield { kind: 'end', collection: level.collection, depth: depth - 1, last: level.last };
      }
      continue;
    }
    level.next += 1;
    const last = level.next === level.items.length;
    yield { kind: 'item', item, depth, last, path: level.path };
    if (item.type === 'collection') {
      levels.push({
        items: item.items,
        next: 0,
        collection: item,
        path: [...level.path, item.name],
        last,
      });
    }
  }
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for HTML, in an element or a quoted attribute. */
function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/**
 * A name or an attribute on one line: Chrome's importer reads the file a line at a time, and
 * a line break in a name would end the bookmark there.
 */
function htmlLine(text: string): string {
  return html(text).replace(/\r\n?|\n/g, '&#10;');
}

/**
 * A Netscape bookmark file, the format every browser imports: the shape Chrome writes (each
 * item on its own line, four spaces a level), with the date a link was added, its keyword
 * (Firefox's SHORTCUTURL) and descriptions in `<DD>`, after the item they describe, as
 * Firefox wrote them.
 */
export function* writeNetscape(title: string, items: readonly ExportItem[]): Generator<string> {
  yield [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    `<TITLE>${htmlLine(title)}</TITLE>`,
    `<H1>${htmlLine(title)}</H1>`,
    '<DL><p>',
    '',
  ].join('\n');
  for (const step of walk(items)) {
    const indent = '    '.repeat(step.depth + 1);
    if (step.kind === 'end') {
      yield `${indent}</DL><p>\n`;
      continue;
    }
    const { item } = step;
    const description = item.description ? `${indent}<DD>${html(item.description)}\n` : '';
    if (item.type === 'collection') {
      yield `${indent}<DT><H3>${htmlLine(item.name)}</H3>\n${description}${indent}<DL><p>\n`;
    } else {
      yield `${indent}<DT><A${linkAttributes(item)}>${htmlLine(item.name)}</A>\n${description}`;
    }
  }
  yield '</DL><p>\n';
}

function linkAttributes(link: ExportLink): string {
  let attributes = ` HREF="${htmlLine(link.url)}"`;
  if (link.addedAt && !Number.isNaN(link.addedAt.getTime())) {
    attributes += ` ADD_DATE="${Math.floor(link.addedAt.getTime() / 1000)}"`;
  }
  if (link.keyword) attributes += ` SHORTCUTURL="${htmlLine(link.keyword)}"`;
  return attributes;
}

/** Rows of CSV written at once: the pieces stay small and the calls few. */
const CSV_BATCH = 500;

/**
 * A sheet of the links, one a row, under the header `url,name,description,path` (the shape
 * the CSV reader reads back). A spreadsheet opens it as UTF-8 thanks to the byte order mark
 * first. Collections appear only in the paths of their links: an empty collection is not in
 * the sheet at all.
 */
export function* writeCsv(items: readonly ExportItem[]): Generator<string> {
  yield `\ufeff${stringify([['url', 'name', 'description', 'path']])}`;
  let rows: string[][] = [];
  for (const step of walk(items)) {
    if (step.kind !== 'item' || step.item.type !== 'link') continue;
    const { item } = step;
    rows.push([item.url, item.name, item.description, formatFolderPath(step.path)].map(csvCell));
    if (rows.length === CSV_BATCH) {
      yield stringify(rows);
      rows = [];
    }
  }
  if (rows.length > 0) yield stringify(rows);
}

/** A JSON value on lines of its own, indented `depth` levels of two spaces, as JSON.stringify. */
function jsonLines(value: unknown, depth: number): string {
  const indent = '  '.repeat(depth);
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/**
 * The ManagedBookmarks policy of Chrome, Edge and Firefox: `toplevel_name` first (the folder
 * the browser shows them in), then links as `name` and `url`, collections as `name` and
 * `children`. The policy has no place for descriptions, keywords or dates.
 */
export function* writeManaged(title: string, items: readonly ExportItem[]): Generator<string> {
  yield `[\n  ${jsonLines({ toplevel_name: title }, 1)}${items.length > 0 ? ',' : ''}\n`;
  for (const step of walk(items)) {
    const indent = '  '.repeat(step.depth * 2 + 1);
    const comma = step.last ? '' : ',';
    if (step.kind === 'end') {
      // An empty collection was written whole where it was met.
      if (step.collection.items.length > 0) yield `${indent}  ]\n${indent}}${comma}\n`;
    } else if (step.item.type === 'link') {
      const { name, url } = step.item;
      yield `${indent}${jsonLines({ name, url }, step.depth * 2 + 1)}${comma}\n`;
    } else if (step.item.items.length === 0) {
      yield `${indent}${jsonLines({ name: step.item.name, children: [] }, step.depth * 2 + 1)}${comma}\n`;
    } else {
      yield `${indent}{\n${indent}  "name": ${JSON.stringify(step.item.name)},\n${indent}  "children": [\n`;
    }
  }
  yield ']\n';
}

/**
 * Signpost's own JSON export, everything Signpost keeps of the items: the keys always in the
 * same order, two spaces a level, a line break at the end. Read back by readSignpostExport.
 */
export function* writeSignpostJson(exported: SignpostExport): Generator<string> {
  const head = {
    format: SIGNPOST_FORMAT,
    version: SIGNPOST_VERSION,
    exportedAt: exported.exportedAt.toISOString(),
    title: exported.title,
  };
  const fields = jsonLines(head, 0).slice(0, -2);
  if (exported.items.length === 0) {
    yield `${fields},\n  "items": []\n}\n`;
    return;
  }
  yield `${fields},\n  "items": [\n`;
  for (const step of walk(exported.items)) {
    // An item of depth d stands at 2 + 2d levels: the document, its items, then per level
    // the collection and its items.
    const level = 2 + step.depth * 2;
    const indent = '  '.repeat(level);
    const comma = step.last ? '' : ',';
    if (step.kind === 'end') {
      // An empty collection was written whole where it was met.
      if (step.collection.items.length > 0) yield `${indent}  ]\n${indent}}${comma}\n`;
      continue;
    }
    const { item } = step;
    if (item.type === 'link') {
      const { id, name, description, url, appName, keyword } = item;
      const link = { type: 'link', id, name, description, url, appName, keyword };
      yield `${indent}${jsonLines(link, level)}${comma}\n`;
      continue;
    }
    const { id, name, description, color } = item;
    const collection = { type: 'collection', id, name, description, color, items: [] };
    if (item.items.length === 0) {
      yield `${indent}${jsonLines(collection, level)}${comma}\n`;
    } else {
      // The collection's fields, its list of items left open for the items that follow.
      yield `${indent}${jsonLines(collection, level).slice(0, -`[]\n${indent}}`.length)}[\n`;
    }
  }
  yield '  ]\n}\n';
}
