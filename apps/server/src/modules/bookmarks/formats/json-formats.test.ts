import { beforeAll, describe, expect, it } from 'vitest';
import { loadBookmarkReaders, readBookmarks } from './read.ts';
import { readSignpostExport } from './signpost.ts';
import { BookmarkFileError } from './tree.ts';
import { fixture, folder, link, thrown } from './test-support.ts';
import type { SignpostExport } from './export-tree.ts';

beforeAll(loadBookmarkReaders);

const message = (read: () => unknown) => {
  const error = thrown(read);
  expect(error).toBeInstanceOf(BookmarkFileError);
  return (error as Error).message;
};
const json = (value: unknown) => JSON.stringify(value);

describe('ManagedBookmarks policies', () => {
  it('reads Chrome’s list: toplevel_name as the title, addresses as typed', () => {
    expect(readBookmarks(fixture('managed-chrome.json'))).toEqual({
      format: 'managed',
      title: 'Acme',
      roots: [
        link('Intranet', 'https://intranet.acme.example/'),
        link('Google', 'google.com'),
        folder('People', [
          link('Payroll', 'https://payroll.acme.example/'),
          link('Holidays', 'https://people.acme.example/holidays'),
          folder('Benefits', [
            link('Health insurance', 'https://people.acme.example/benefits/health'),
            link('Pension', 'https://people.acme.example/benefits/pension'),
          ]),
        ]),
        folder('Engineering', [
          link('Chromium', 'chromium.org'),
          link('Chromium Developers', 'dev.chromium.org'),
        ]),
        folder('Announcements', []),
        link('Kantine – Speiseplan', 'https://kantine.acme.example/woche'),
      ],
    });
  });

  it('reads Firefox’s policies.json: ManagedBookmarks, then the Bookmarks policy by folder', () => {
    expect(readBookmarks(fixture('policies-firefox.json'))).toEqual({
      format: 'managed',
      title: 'Acme links',
      roots: [
        link('Intranet', 'https://intranet.acme.example/'),
        folder('Support', [
          link('Open a ticket', 'https://helpdesk.acme.example/new'),
          link('Service status', 'https://status.acme.example/'),
        ]),
        link('Firefox for Enterprise', 'https://support.mozilla.org/products/firefox-enterprise'),
        folder('Administration', [
          link('Policy templates', 'https://mozilla.github.io/policy-templates/'),
          link('Release notes', 'https://www.mozilla.org/firefox/releases/'),
        ]),
      ],
    });
  });

  it('reads the object form of a policy file', () => {
    const { roots, title } = readBookmarks(
      json({ ManagedBookmarks: [{ name: 'A', url: 'https://a.example/' }] }),
    );
    expect(title).toBeNull();
    expect(roots).toEqual([link('A', 'https://a.example/')]);
  });

  it('says where an entry is of the wrong shape', () => {
    expect(message(() => readBookmarks(json([{ name: 'A', url: 'x' }, { name: 'B' }])))).toBe(
      'This JSON is not a bookmark export Signpost knows: expected a bookmark (name and url) or a folder (name and children) at ManagedBookmarks[1].',
    );
    expect(
      message(() => readBookmarks(json([{ name: 'F', children: [{ name: 'A', url: 7 }] }]))),
    ).toBe(
      'This JSON is not a bookmark export Signpost knows: expected a string at ManagedBookmarks[0].children[0].url.',
    );
  });
});

describe('Linkwarden backups', () => {
  it('reads the sample: subcollections by parentId, the sidebar’s order, uploads left out', () => {
    const at = (iso: string) => ({ addedAt: new Date(iso) });
    expect(readBookmarks(fixture('linkwarden.json'))).toEqual({
      format: 'linkwarden',
      title: null,
      roots: [
        folder(
          'Research',
          [
            folder('Machine learning', [
              folder(
                'Optimisers',
                [
                  link(
                    'An overview of gradient descent optimization algorithms',
                    'https://www.ruder.io/optimizing-gradient-descent/',
                    at('2024-03-01T09:00:00.000Z'),
                  ),
                ],
                { description: 'Gradient descent and friends' },
              ),
              link(
                'Distill — Latest articles',
                'https://distill.pub/',
                at('2024-03-01T09:00:00.000Z'),
              ),
            ]),
            // The date it was imported into Linkwarden (from a browser) comes first.
            link('Attention Is All You Need', 'https://arxiv.org/abs/1706.03762', {
              ...at('2023-11-20T00:00:00.000Z'),
              description: 'The transformer paper',
            }),
          ],
          { description: 'Papers and reading for the thesis' },
        ),
        folder('Unorganized', [
          link('Linkwarden', 'https://linkwarden.app/', {
            ...at('2024-03-01T09:00:00.000Z'),
            description: 'Bookmarks, evolved',
          }),
          link('', 'https://www.example.com/untitled', at('2024-03-02T10:30:00.000Z')),
        ]),
        folder(
          'Recettes',
          [
            link(
              'Crème brûlée',
              'https://cuisine.example.fr/creme-brulee',
              at('2024-04-10T18:45:00.000Z'),
            ),
          ],
          { description: 'Cuisine française' },
        ),
        // Its parent (id 42) is someone else's collection, not in the file.
        folder('Shared with me: Lab', [
          link('Lab wiki', 'https://lab.example.edu/wiki', {
            ...at('2024-03-01T09:00:00.000Z'),
            description: 'Ask Grace for access',
          }),
        ]),
      ],
    });
  });

  it('puts collections in a cycle of parents, or without ids, at the top level', () => {
    const collection = (id: number | undefined, parentId: number | null, name: string) => ({
      id,
      parentId,
      name,
      links: [],
    });
    const { roots } = readBookmarks(
      json({
        collections: [
          collection(1, 2, 'A'),
          collection(2, 1, 'B'),
          collection(undefined, null, 'No id'),
          collection(3, 3, 'Own parent'),
        ],
      }),
    );
    expect(roots).toEqual([
      folder('No id', []),
      folder('Own parent', []),
      folder('A', [folder('B', [])]),
    ]);
  });
});

describe('linkding lists', () => {
  it('reads a page of its API: every link at the top level, the page title when none was given', () => {
    expect(readBookmarks(fixture('linkding.json'))).toEqual({
      format: 'linkding',
      title: null,
      roots: [
        link('linkding', 'https://github.com/sissbruecker/linkding', {
          description:
            'Self-hosted bookmark manager that is designed be to be minimal, fast, and easy to set up.',
          addedAt: new Date('2024-02-12T08:15:30.123Z'),
        }),
        link('PostgreSQL Documentation', 'https://www.postgresql.org/docs/current/', {
          addedAt: new Date('2024-02-10T17:02:11.000Z'),
        }),
        link('Julia Evans', 'https://jvns.ca/', {
          description: 'A blog about programming',
          addedAt: new Date('2023-12-24T09:00:00.000Z'),
        }),
        link(
          'Öffentliche Verkehrsmittel in Zürich',
          'https://blog.example.org/öffentliche-verkehrsmittel',
          { description: 'Tram, Bus & S-Bahn', addedAt: new Date('2023-11-02T12:00:00Z') },
        ),
      ],
    });
  });

  it('reads the bare list of results too', () => {
    const { format, roots } = readBookmarks(
      json([{ url: 'https://a.example/', title: 'A', tag_names: ['x'] }]),
    );
    expect(format).toBe('linkding');
    expect(roots).toEqual([link('A', 'https://a.example/')]);
  });
});

describe('Signpost’s own export', () => {
  const exported: SignpostExport = {
    title: 'Acme',
    exportedAt: new Date('2024-06-01T12:00:00.000Z'),
    items: [
      {
        type: 'collection',
        id: 'c1',
        name: 'Team',
        description: 'Our links',
        color: '#0ea5e9',
        items: [
          {
            type: 'link',
            id: 'l1',
            name: 'Wiki',
            description: '',
            url: 'https://wiki.example/',
            appName: 'Confluence',
            keyword: 'wiki',
            addedAt: null,
          },
        ],
      },
      {
        type: 'link',
        id: 'l2',
        name: 'Mail',
        description: 'Webmail',
        url: 'https://mail.example/',
        appName: null,
        keyword: null,
        addedAt: null,
      },
    ],
  };
  // As Signpost writes it (write.test.ts holds the writer to this shape).
  const text = JSON.stringify(
    {
      format: 'signpost-bookmarks',
      version: 1,
      exportedAt: exported.exportedAt.toISOString(),
      title: exported.title,
      items: exported.items,
    },
    (key, value) => (key === 'addedAt' ? undefined : value),
    2,
  );

  it('reads it whole, ids, colors and app names too', () => {
    expect(readSignpostExport(JSON.parse(text))).toEqual(exported);
    expect(readBookmarks(text)).toEqual({
      format: 'signpost',
      title: 'Acme',
      roots: [
        folder('Team', [link('Wiki', 'https://wiki.example/', { keyword: 'wiki' })], {
          description: 'Our links',
        }),
        link('Mail', 'https://mail.example/', { description: 'Webmail' }),
      ],
    });
  });

  it('refuses any other shape, saying what it expected and where', () => {
    const document = JSON.parse(text);
    const broken = (change: (value: typeof document) => void) => {
      const copy = structuredClone(document);
      change(copy);
      return message(() => readBookmarks(JSON.stringify(copy)));
    };
    expect(broken((value) => (value.items[0].items[0].name = 3))).toBe(
      'This JSON is not a bookmark export Signpost knows: expected a string at items[0].items[0].name.',
    );
    expect(broken((value) => (value.items[1].type = 'folder'))).toBe(
      'This JSON is not a bookmark export Signpost knows: expected "collection" or "link" at items[1].type.',
    );
    expect(broken((value) => (value.items[0].items = {}))).toBe(
      'This JSON is not a bookmark export Signpost knows: expected a list at items[0].items.',
    );
    expect(broken((value) => (value.items[1].tags = []))).toBe(
      'This JSON is not a bookmark export Signpost knows: expected a link with only the fields type, id, name, description, url, appName and keyword at items[1].',
    );
    expect(broken((value) => delete value.items[0].color)).toBe(
      'This JSON is not a bookmark export Signpost knows: expected a string or null at items[0].color.',
    );
    expect(broken((value) => (value.exportedAt = 'last week'))).toBe(
      'This JSON is not a bookmark export Signpost knows: expected a date at exportedAt.',
    );
    expect(broken((value) => (value.version = 2))).toBe(
      'This file was exported by a newer Signpost (version 2 of its export); this Signpost reads version 1.',
    );
    expect(broken((value) => (value.version = '1'))).toBe(
      'This JSON is not a bookmark export Signpost knows: expected 1 at version.',
    );
  });

  it('refuses JSON of no shape it knows, and JSON that is not JSON', () => {
    expect(message(() => readBookmarks(json({ bookmarks: [] })))).toBe(
      'This JSON is not a bookmark export Signpost knows: expected a Signpost export, a ManagedBookmarks policy (of Chrome, Edge or Firefox), a Linkwarden backup or a linkding list of bookmarks.',
    );
    expect(message(() => readBookmarks(json([1, 2, 3])))).toBe(
      'This JSON is not a bookmark export Signpost knows: expected a Signpost export, a ManagedBookmarks policy (of Chrome, Edge or Firefox), a Linkwarden backup or a linkding list of bookmarks.',
    );
    expect(message(() => readBookmarks('{"format": "signpost-bookmarks", "items": ['))).toBe(
      'This is not a bookmark file: it starts like JSON, but is not valid JSON (it may have been cut off).',
    );
  });
});
