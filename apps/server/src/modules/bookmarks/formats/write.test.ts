import { describe, expect, it } from 'vitest';
import { writeCsv, writeManaged, writeNetscape, writeSignpostJson } from './write.ts';
import type { ExportItem } from './export-tree.ts';

const items: ExportItem[] = [
  {
    type: 'collection',
    id: 'c1',
    name: 'Team & Co',
    description: 'Our "shared" links\nLine <two>',
    color: '#0ea5e9',
    items: [
      {
        type: 'link',
        id: 'l1',
        name: 'Wiki <main>',
        description: '',
        url: 'https://wiki.example/?a=1&b=2',
        appName: 'Confluence',
        keyword: 'w',
        addedAt: new Date('2024-01-01T00:00:00.000Z'),
      },
      { type: 'collection', id: 'c2', name: 'Empty', description: '', color: null, items: [] },
    ],
  },
  {
    type: 'link',
    id: 'l2',
    name: 'Mail’s =inbox',
    description: 'Webmail',
    url: 'https://mail.example/',
    appName: null,
    keyword: null,
    addedAt: null,
  },
];

const text = (chunks: Iterable<string>) => [...chunks].join('');

describe('writers', () => {
  it('writes a Netscape bookmark file as Chrome lays it out, escaped, descriptions in <DD>', () => {
    expect(text(writeNetscape('Acme & friends', items))).toBe(
      [
        '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
        '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
        '<TITLE>Acme &amp; friends</TITLE>',
        '<H1>Acme &amp; friends</H1>',
        '<DL><p>',
        '    <DT><H3>Team &amp; Co</H3>',
        '    <DD>Our &quot;shared&quot; links',
        'Line &lt;two&gt;',
        '    <DL><p>',
        '        <DT><A HREF="https://wiki.example/?a=1&amp;b=2" ADD_DATE="1704067200" SHORTCUTURL="w">Wiki &lt;main&gt;</A>',
        '        <DT><H3>Empty</H3>',
        '        <DL><p>',
        '        </DL><p>',
        '    </DL><p>',
        '    <DT><A HREF="https://mail.example/">Mail’s =inbox</A>',
        '    <DD>Webmail',
        '</DL><p>',
        '',
      ].join('\n'),
    );
  });

  it('keeps every name on its line, as Chrome’s importer reads a line at a time', () => {
    const link: ExportItem = { ...(items[1] as ExportItem), name: 'Two\nlines\r\nhere' };
    expect(text(writeNetscape('T', [link]))).toContain('>Two&#10;lines&#10;here</A>\n');
  });

  it('writes a sheet of links, with their folder paths, after a byte order mark', () => {
    expect(text(writeCsv(items))).toBe(
      '\ufeffurl,name,description,path\n' +
        'https://wiki.example/?a=1&b=2,Wiki <main>,,Team & Co\n' +
        'https://mail.example/,Mail’s =inbox,Webmail,\n',
    );
  });

  it('writes the ManagedBookmarks policy, toplevel_name first', () => {
    expect(text(writeManaged('Acme', items))).toBe(
      `${JSON.stringify(
        [
          { toplevel_name: 'Acme' },
          {
            name: 'Team & Co',
            children: [
              { name: 'Wiki <main>', url: 'https://wiki.example/?a=1&b=2' },
              { name: 'Empty', children: [] },
            ],
          },
          { name: 'Mail’s =inbox', url: 'https://mail.example/' },
        ],
        null,
        2,
      )}\n`,
    );
    expect(JSON.parse(text(writeManaged('Acme', [])))).toEqual([{ toplevel_name: 'Acme' }]);
  });

  it('writes Signpost’s JSON, its keys in a fixed order, two spaces a level', () => {
    const exportedAt = new Date('2024-06-01T12:00:00.000Z');
    expect(text(writeSignpostJson({ title: 'Acme', exportedAt, items }))).toBe(
      `${JSON.stringify(
        {
          format: 'signpost-bookmarks',
          version: 1,
          exportedAt: '2024-06-01T12:00:00.000Z',
          title: 'Acme',
          items: [
            {
              type: 'collection',
              id: 'c1',
              name: 'Team & Co',
              description: 'Our "shared" links\nLine <two>',
              color: '#0ea5e9',
              items: [
                {
                  type: 'link',
                  id: 'l1',
                  name: 'Wiki <main>',
                  description: '',
                  url: 'https://wiki.example/?a=1&b=2',
                  appName: 'Confluence',
                  keyword: 'w',
                },
                {
                  type: 'collection',
                  id: 'c2',
                  name: 'Empty',
                  description: '',
                  color: null,
                  items: [],
                },
              ],
            },
            {
              type: 'link',
              id: 'l2',
              name: 'Mail’s =inbox',
              description: 'Webmail',
              url: 'https://mail.example/',
              appName: null,
              keyword: null,
            },
          ],
        },
        null,
        2,
      )}\n`,
    );
    expect(text(writeSignpostJson({ title: 'T', exportedAt, items: [] }))).toBe(
      '{\n  "format": "signpost-bookmarks",\n  "version": 1,\n  "exportedAt": "2024-06-01T12:00:00.000Z",\n  "title": "T",\n  "items": []\n}\n',
    );
  });

  it('writes in pieces, never the whole file at once', () => {
    const many: ExportItem[] = Array.from({ length: 2000 }, (_, i) => ({
      ...(items[1] as ExportItem & { type: 'link' }),
      id: `l${i}`,
    }));
    for (const chunks of [
      writeNetscape('T', many),
      writeCsv(many),
      writeManaged('T', many),
      writeSignpostJson({ title: 'T', exportedAt: new Date(0), items: many }),
    ]) {
      const pieces = [...chunks];
      expect(pieces.length).toBeGreaterThan(3);
      expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(50_000);
    }
  });
});
