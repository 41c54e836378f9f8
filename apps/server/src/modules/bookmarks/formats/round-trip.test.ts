// What Signpost writes, it reads back: for any tree of collections and links (same-named
// collections side by side and nested, names of any script up to 200 characters, empty
// collections, descriptions with line breaks and <>&"'), each writer's file read by
// readBookmarks gives the tree again, as much of it as the format holds.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBookmarkReaders, readBookmarks } from './read.ts';
import { readSignpostExport } from './signpost.ts';
import { writeCsv, writeManaged, writeNetscape, writeSignpostJson } from './write.ts';
import type { BookmarkNode } from './tree.ts';
import type { ExportCollection, ExportItem, ExportLink } from './export-tree.ts';

beforeAll(loadBookmarkReaders);

// Characters that stress the formats: HTML's and CSV's own, the path separator and its
// escape, the formula marks a spreadsheet runs, line breaks, and letters of many scripts.
// Left out are what no Signpost text holds and the readers refuse or change by design: NUL
// and U+FFFD (a file holding them is refused as not text), and carriage returns (HTML
// reads every line break as \n).
const TRICKY = [
  ...'<>&"\'\\ >=+-@,;\t\n',
  ' > ',
  '\\>',
  'é',
  'ß',
  '日本',
  '😀',
  '𝒜',
  'ﷺ',
  '\u00a0',
];
/** Any character but the C0 and C1 controls and lone surrogates. */
const character = fc
  .oneof(
    fc.integer({ min: 0x20, max: 0x7e }),
    fc.integer({ min: 0xa0, max: 0xd7ff }),
    fc.integer({ min: 0xe000, max: 0xfffd }),
    fc.integer({ min: 0x10000, max: 0x10ffff }),
  )
  .map((code) => String.fromCodePoint(code));
const letter = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...TRICKY) },
  { weight: 3, arbitrary: character },
  { weight: 3, arbitrary: fc.constantFrom(...'abcdefghij ') },
);
const clean = (text: string) =>
  [...text]
    .filter((c) => c !== '\r' && c !== '\u0000' && c !== '\ufffd')
    .join('')
    .trim();
// Arrays of letters joined, not fc.string with a unit, which fast-check maps back to its
// units for every value, slowly.
const text = (maxLength: number) =>
  fc.array(letter, { maxLength }).map((units) => clean(units.join('')).slice(0, maxLength).trim());
/** A name: never empty (a CSV path has no place for an empty folder name). */
const name = fc
  .oneof(
    { weight: 1, arbitrary: fc.constantFrom('Docs', 'A > B', 'Café') },
    { weight: 4, arbitrary: text(200) },
  )
  .filter((value) => value !== '');
const ascii = (chars: string, maxLength: number) =>
  fc.array(fc.constantFrom(...chars), { maxLength }).map((units) => units.join(''));
const id = ascii('abcdefghijklmnopqrstuvwxyz0123456789', 8).map((value) => `id${value}`);
const webUrl = ascii('abcdefghijklmnopqrstuvwxyz0123456789-._~/?=&%#', 40).map(
  (path) => `https://example.com/${path}`,
);
/** A date in whole seconds, as a Netscape file keeps it. */
const date = fc.integer({ min: 1, max: 4_102_444_800 }).map((seconds) => new Date(seconds * 1000));

const link: fc.Arbitrary<ExportLink> = fc.record({
  type: fc.constant('link' as const),
  id,
  name,
  description: text(300),
  url: fc.oneof(
    webUrl,
    text(100).filter((value) => value !== ''),
  ),
  appName: fc.option(text(40)),
  keyword: fc.option(text(20).filter((value) => value !== '')),
  addedAt: fc.option(date),
});

const { items } = fc.letrec<{
  items: ExportItem[];
  item: ExportItem;
  collection: ExportCollection;
}>((tie) => ({
  items: fc.array(tie('item'), { maxLength: 5 }),
  item: fc.oneof(
    // Collections at most 10 deep, as Signpost nests them.
    { maxDepth: 10, depthIdentifier: 'tree' },
    link,
    tie('collection'),
  ),
  collection: fc.record({
    type: fc.constant('collection' as const),
    id,
    name,
    description: text(300),
    color: fc.option(fc.constantFrom('#0ea5e9', '#f97316')),
    items: tie('items'),
  }),
}));

/** The common tree a format that keeps everything should read `tree` into. */
function asNodes(tree: ExportItem[], keep: { addedAt: boolean }): BookmarkNode[] {
  return tree.map((item) =>
    item.type === 'collection'
      ? {
          kind: 'folder',
          name: item.name,
          description: item.description,
          toolbar: false,
          children: asNodes(item.items, keep),
        }
      : {
          kind: 'link',
          name: item.name,
          url: item.url,
          description: item.description,
          addedAt: keep.addedAt ? item.addedAt : null,
          keyword: item.keyword,
          icon: null,
        },
  );
}

const join = (chunks: Iterable<string>) => [...chunks].join('');
const RUNS = { numRuns: 150 };

describe('round trips through each format', () => {
  it('Signpost JSON gives back the whole tree (the export holds no dates)', () => {
    fc.assert(
      fc.property(items, text(100), (tree, title) => {
        const exportedAt = new Date('2024-06-01T12:00:00.000Z');
        const written = join(writeSignpostJson({ title, exportedAt, items: tree }));
        expect(readBookmarks(written)).toEqual({
          format: 'signpost',
          title: title || null,
          roots: asNodes(tree, { addedAt: false }),
        });
        const withoutDates = JSON.parse(
          JSON.stringify(tree, (key, value) => (key === 'addedAt' ? null : value)),
        );
        expect(readSignpostExport(JSON.parse(written))).toEqual({
          title,
          exportedAt,
          items: withoutDates,
        });
      }),
      RUNS,
    );
  });

  it('a Netscape file keeps names, addresses, descriptions, keywords, dates and folders', () => {
    fc.assert(
      fc.property(items, text(100), (tree, title) => {
        expect(readBookmarks(join(writeNetscape(title, tree)))).toEqual({
          format: 'netscape',
          title: title || null,
          roots: asNodes(tree, { addedAt: true }),
        });
      }),
      RUNS,
    );
  });

  it('a CSV file keeps each link’s address, name, description and folder path', () => {
    /** The links under each folder path, in order: what a sheet holds of a tree. */
    const byPath = (nodes: Array<ExportItem | BookmarkNode>) => {
      const paths = new Map<string, string[][]>();
      const visit = (list: Array<ExportItem | BookmarkNode>, path: string[]) => {
        for (const node of list) {
          if ('url' in node) {
            const key = JSON.stringify(path);
            paths.set(key, [...(paths.get(key) ?? []), [node.url, node.name, node.description]]);
          } else {
            visit('items' in node ? node.items : node.children, [...path, node.name]);
          }
        }
      };
      visit(nodes, []);
      return paths;
    };
    fc.assert(
      fc.property(items, (tree) => {
        const read = readBookmarks(join(writeCsv(tree)));
        expect(read.format).toBe('csv');
        // Same-named collections side by side become one folder, and an empty collection
        // is not in the sheet at all (it has no link to give it a row): the links under
        // each path are what survives, in their order.
        expect(byPath(read.roots)).toEqual(byPath(tree));
      }),
      RUNS,
    );
  });

  it('the ManagedBookmarks policy keeps names, addresses and folders, as JSON.stringify writes them', () => {
    type Managed = { name: string; url: string } | { name: string; children: Managed[] };
    const asPolicy = (tree: ExportItem[]): Managed[] =>
      tree.map((item) =>
        item.type === 'link'
          ? { name: item.name, url: item.url }
          : { name: item.name, children: asPolicy(item.items) },
      );
    const asRead = (tree: ExportItem[]): BookmarkNode[] =>
      tree.map((item) =>
        item.type === 'link'
          ? {
              kind: 'link',
              name: item.name,
              url: item.url,
              description: '',
              addedAt: null,
              keyword: null,
              icon: null,
            }
          : {
              kind: 'folder',
              name: item.name,
              description: '',
              toolbar: false,
              children: asRead(item.items),
            },
      );
    fc.assert(
      fc.property(items, text(100), (tree, title) => {
        const written = join(writeManaged(title, tree));
        expect(written).toBe(
          `${JSON.stringify([{ toplevel_name: title }, ...asPolicy(tree)], null, 2)}\n`,
        );
        expect(readBookmarks(written)).toEqual({
          format: 'managed',
          title: title || null,
          roots: asRead(tree),
        });
      }),
      RUNS,
    );
  });
});
