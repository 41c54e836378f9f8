// Bookmarks in and out (decision 0087), where the portal offers them: a space's info (for the
// people who may add a collection there), a collection's menu (where links may be added), the
// settings, and a bookmark file dropped anywhere on the portal. What is offered follows the
// server's `can`; the dialogs load on first use.
import type { BookmarkImportPreview, Menu } from '@signpost/contract';
import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSessionToken } from '../lib/session-store';
import { dismissUndo } from '../lib/undo/pending-undo';
import { OWN_LINK, OWNED, RUNS } from '../test/can-fixture';
import { mockFetch, type MockRoute } from '../test/fetch-mock';
import { makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

const MENU = '/api/consumer/menu';
const PREVIEW = '/api/consumer/bookmarks/import/preview';
const IMPORT = '/api/consumer/bookmarks/import';
const EXPORT = '/api/consumer/bookmarks/export';
const UNDO_ID = 'u'.repeat(21);
const HTML = '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><p><DT><A HREF="https://a.example">A</A></DL>';

afterEach(() => {
  dismissUndo();
  window.sessionStorage.clear();
  clearSession();
});

const preview: BookmarkImportPreview = {
  format: 'netscape',
  targetName: 'Bookmarks',
  links: 120,
  folders: 8,
  depth: 2,
  topFolders: [],
  duplicateCount: 0,
  duplicates: [],
  refusedCount: 0,
  refused: [],
  notices: [],
};

const withProjects = (over: Parameters<typeof makeMenu>[0] = {}): Menu =>
  makeMenu({
    myItems: [
      {
        type: 'collection',
        id: 'projects',
        name: 'Projects',
        description: '',
        color: null,
        can: OWNED,
        linkCan: OWN_LINK,
        items: [],
      },
    ],
    ...over,
  });

function start(menu: Menu, routes: MockRoute[] = []) {
  setSessionToken('token-a');
  const mock = mockFetch([
    { path: MENU, status: 200, body: menu, headers: { ETag: '"v1"' } },
    { method: 'POST', path: PREVIEW, status: 200, body: preview },
    ...routes,
    { path: '/api/auth/tokens', status: 200, body: { items: [] } },
    { path: '/api/auth/sessions', status: 200, body: { items: [] } },
    {
      path: '/api/auth/second-factor',
      status: 200,
      body: { available: true, enabled: false, recoveryCodesLeft: 0 },
    },
  ]);
  const app = renderApp();
  const posted = (path: string) =>
    mock.requests.filter((request) => request.method === 'POST' && request.url === path);
  return { ...mock, ...app, posted };
}

/** Opens a space's info, from its name. */
async function spaceInfo(user: ReturnType<typeof renderApp>['user'], name: string) {
  const card = await screen.findByRole('region', { name });
  await user.click(within(card).getByRole('button', { name: new RegExp(name) }));
  return within(card).getByRole('dialog', { name });
}

const bookmarkFile = (name = 'bookmarks.html', content = HTML) =>
  new File([content], name, { type: 'text/html' });

/** A drag of files from outside, as the browser gives it. */
const files = (...list: File[]) => ({ dataTransfer: { types: ['Files'], files: list } });

describe('bookmarks in a space’s info', () => {
  it('offers the import where the person may add a collection, and the export everywhere', async () => {
    const { user } = start(withProjects({ teamEditor: true, teamCan: RUNS }));
    const team = await spaceInfo(user, 'Engineering');
    expect(within(team).getByRole('button', { name: 'Import bookmarks…' })).toBeInTheDocument();
    expect(within(team).getByRole('button', { name: 'Export…' })).toBeInTheDocument();
    // The editor of a team does not run the organization: its links go out, none come in.
    const organization = await spaceInfo(user, 'Acme Corp');
    expect(within(organization).queryByRole('button', { name: 'Import bookmarks…' })).toBeNull();
    expect(within(organization).getByRole('button', { name: 'Export…' })).toBeInTheDocument();
    // My Space is its owner's.
    const mine = await spaceInfo(user, 'My Space');
    expect(within(mine).getByRole('button', { name: 'Import bookmarks…' })).toBeInTheDocument();
  });

  it('gives a plain member of a team the export only', async () => {
    const { user } = start(withProjects());
    const team = await spaceInfo(user, 'Engineering');
    expect(within(team).queryByRole('button', { name: 'Import bookmarks…' })).toBeNull();
    expect(within(team).getByRole('button', { name: 'Export…' })).toBeInTheDocument();
  });

  it('imports into a new collection at the top of the team space', async () => {
    const { user, posted } = start(withProjects({ teamEditor: true, teamCan: RUNS }));
    const team = await spaceInfo(user, 'Engineering');
    await user.click(within(team).getByRole('button', { name: 'Import bookmarks…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import bookmarks' });
    expect(
      within(dialog).getByText(
        'They go into a new collection at the top of Engineering, named after the file.',
      ),
    ).toBeInTheDocument();
    await user.upload(within(dialog).getByLabelText('Bookmark file'), bookmarkFile());
    await within(dialog).findByText('120 links and 8 folders, 2 levels deep');
    expect(posted(PREVIEW)[0]!.body).toMatchObject({
      target: { into: 'new', spaceId: 'team-1' },
    });
  });

  it('exports the organization space, with the managed-bookmarks policy among the formats', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:org'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user, requests } = start(withProjects(), [{ path: EXPORT, status: 200, body: '{}' }]);
    const organization = await spaceInfo(user, 'Acme Corp');
    await user.click(within(organization).getByRole('button', { name: 'Export…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export “Acme Corp”' });
    const format = within(dialog).getByLabelText('Format');
    await user.selectOptions(format, 'Managed bookmarks policy (JSON)');
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(requests.find((request) => request.url.startsWith(EXPORT))!.url).toBe(
      `${EXPORT}?format=managed&space=organization`,
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Export/ })).toBeNull());
  });
});

describe('bookmarks in a collection’s menu', () => {
  it('imports into the collection, and exports it', async () => {
    const { user, posted } = start(withProjects());
    const mine = await screen.findByRole('region', { name: 'My Space' });
    await user.click(within(mine).getByRole('button', { name: 'More actions for Projects' }));
    const menu = await screen.findByRole('dialog', { name: 'Projects' });
    await user.click(within(menu).getByRole('button', { name: 'Import bookmarks…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import bookmarks' });
    expect(within(dialog).getByText('They go into “Projects”.')).toBeInTheDocument();
    await user.upload(within(dialog).getByLabelText('Bookmark file'), bookmarkFile());
    await within(dialog).findByText('120 links and 8 folders, 2 levels deep');
    expect(posted(PREVIEW)[0]!.body).toMatchObject({
      target: { into: 'collection', collectionId: 'projects' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(within(mine).getByRole('button', { name: 'More actions for Projects' }));
    const again = await screen.findByRole('dialog', { name: 'Projects' });
    await user.click(within(again).getByRole('button', { name: 'Export…' }));
    const exporting = await screen.findByRole('dialog', { name: 'Export “Projects”' });
    // A personal collection cannot become a policy.
    expect(
      within(within(exporting).getByLabelText('Format')).queryByRole('option', {
        name: 'Managed bookmarks policy (JSON)',
      }),
    ).toBeNull();
  });
});

describe('bookmarks in the settings', () => {
  it('opens the import into My Space, and comes back to the settings after it', async () => {
    const { user } = start(withProjects());
    const footer = await screen.findByRole('contentinfo');
    await user.click(within(footer).getByRole('button', { name: 'Settings' }));
    const settings = await screen.findByRole('dialog', { name: 'Settings' });
    const section = within(settings).getByRole('region', { name: 'Bookmarks' });
    await user.click(within(section).getByRole('button', { name: 'Import bookmarks…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import bookmarks' });
    expect(
      within(dialog).getByText('They go into a new collection in My Space, named after the file.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Settings' })).toBeInTheDocument();
  });
});

describe('a bookmark file dropped on the portal', () => {
  it('opens the import into My Space with the file, and its undo after the import', async () => {
    const { user, posted, requests } = start(withProjects(), [
      {
        method: 'POST',
        path: IMPORT,
        status: 200,
        body: {
          collectionId: 'new-collection',
          links: 120,
          folders: 8,
          skipped: 0,
          refusedCount: 0,
          refused: [],
          undo: { id: UNDO_ID, expiresAt: new Date(Date.now() + 60_000).toISOString() },
        },
      },
    ]);
    const mine = await screen.findByRole('region', { name: 'My Space' });
    const file = bookmarkFile('export.html');
    expect(fireEvent.dragOver(mine, files(file))).toBe(false);
    fireEvent.drop(mine, files(file));
    const dialog = await screen.findByRole('dialog', { name: 'Import bookmarks' });
    expect(await within(dialog).findByText('File: export.html')).toBeInTheDocument();
    await within(dialog).findByText('120 links and 8 folders, 2 levels deep');
    expect(posted(PREVIEW)[0]!.body).toEqual({
      file: HTML,
      fileName: 'export.html',
      target: { into: 'new' },
    });
    // Reads of the menu itself, not of its live-update stream.
    const menuLoads = () => requests.filter((request) => request.url.split('?')[0] === MENU).length;
    const before = menuLoads();
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported 120 links into Bookmarks.')).toBeInTheDocument();
    // The menu is read again, with what came in.
    expect(menuLoads()).toBeGreaterThan(before);
    expect(screen.queryByRole('dialog', { name: 'Import bookmarks' })).toBeNull();
    expect(posted(IMPORT)[0]!.body).toEqual({
      file: HTML,
      fileName: 'export.html',
      target: { into: 'new' },
      duplicates: 'skip',
    });
  });

  it('leaves drags that carry no files alone, so the tiles’ drag and drop goes on', async () => {
    start(withProjects());
    const mine = await screen.findByRole('region', { name: 'My Space' });
    const link = { dataTransfer: { types: ['text/uri-list', 'text/plain'], files: [] } };
    expect(fireEvent.dragOver(mine, link)).toBe(true);
    fireEvent.drop(mine, link);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('leaves a drop on a field to the field, and opens nothing for another kind of file', async () => {
    const { user } = start(withProjects());
    const footer = await screen.findByRole('contentinfo');
    await user.click(within(footer).getByRole('button', { name: 'Settings' }));
    const settings = await screen.findByRole('dialog', { name: 'Settings' });
    const field = within(settings).getByLabelText('Format');
    const onField = createEvent.drop(field, files(bookmarkFile()));
    fireEvent(field, onField);
    expect(onField.defaultPrevented).toBe(false);
    // An image is kept from replacing the portal, and opens nothing.
    const mine = screen.getByRole('region', { name: 'My Space', hidden: true });
    const image = createEvent.drop(
      mine,
      files(new File(['x'], 'photo.png', { type: 'image/png' })),
    );
    fireEvent(mine, image);
    expect(image.defaultPrevented).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog', { name: 'Import bookmarks' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeInTheDocument();
  });
});
