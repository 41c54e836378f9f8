import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { DisplayItem } from '../../../lib/menu/menu-types';
import { findMySpace, locateItem } from '../../../lib/menu/locate-item';
import { mockFetch } from '../../../test/fetch-mock';
import { processMenu } from '../../../lib/menu/process-menu';
import { FAVORITE, RUN_LINK, RUNS } from '../../../test/can-fixture';
import { makeLink, makeMenu, PROFILE } from '../../../test/menu-fixture';
import { panelsMenu } from '../../../test/panels-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { dismissUndo, getPendingUndo } from '../../../lib/undo/pending-undo';
import { ItemMenu } from './item-menu';

const menu = panelsMenu();
const mySpaceId = findMySpace(menu.spaces)!.id;

function renderMenu(
  type: DisplayItem['type'],
  id: string,
  spaces = menu.spaces,
  favoriteId: string | null = null,
) {
  const location = locateItem(spaces, type, id);
  if (!location) throw new Error(`no ${type} ${id} in the fixture`);
  const onOpenDetails = vi.fn();
  const onClose = vi.fn();
  const onImportBookmarks = vi.fn();
  const onExportBookmarks = vi.fn();
  renderWithQuery(
    <ItemMenu
      location={location}
      profileId={PROFILE.id}
      mySpaceId={mySpaceId}
      favoriteId={favoriteId}
      onMoveTo={vi.fn()}
      onImportBookmarks={onImportBookmarks}
      onExportBookmarks={onExportBookmarks}
      onOpenDetails={onOpenDetails}
      onClose={onClose}
    />,
  );
  return { onOpenDetails, onClose, onImportBookmarks, onExportBookmarks };
}

const actionNames = () =>
  within(screen.getByRole('list'))
    .getAllByRole('button')
    .map((button) => button.textContent);

// Spec §6's actions, with those of the people who run a space (decision 0008): Edit, and
// Move up, Move down and Move to… where the item may go (decision 0075).
describe('item context menu: the actions of spec §6 per context', () => {
  it.each<[string, DisplayItem['type'], string, string[]]>([
    [
      'personal link in My Space',
      'link',
      'root-link',
      ['Info', 'Edit', 'Move down', 'Move to…', 'Delete'],
    ],
    [
      'personal link in a sub-collection',
      'link',
      'nested-link',
      ['Info', 'Edit', 'Move down', 'Move to…', 'Delete', 'Move to My Space'],
    ],
    [
      'link in a collection shared with me',
      'link',
      'in-share',
      ['Info', 'Edit', 'Move to…', 'Delete', 'Move to My Space'],
    ],
    ['team link', 'link', 'team-link', ['Info', 'Add to favorites']],
    [
      'organization link',
      'link',
      menu.spaces[2]!.collections[0]!.items[0]!.id,
      ['Info', 'Add to favorites'],
    ],
    [
      'favorite',
      'link-favorite',
      'fav-1',
      ['Info', 'Move up', 'Move down', 'Move to…', 'Delete favorite'],
    ],
    [
      'collection in personal',
      'collection',
      'projects',
      [
        'Details',
        'Edit',
        'Move up',
        'Move down',
        'Move to…',
        'Import bookmarks…',
        'Export…',
        'Delete',
      ],
    ],
    [
      'nested collection in personal',
      'collection',
      'inner',
      ['Details', 'Edit', 'Move up', 'Move to…', 'Import bookmarks…', 'Export…', 'Delete'],
    ],
    [
      'shared collection with more than one member',
      'collection-share',
      'theirs',
      ['Details', 'Import bookmarks…', 'Export…', 'Leave'],
    ],
    [
      'shared collection with one member',
      'collection-share',
      'alone',
      ['Details', 'Edit', 'Move up', 'Move to…', 'Import bookmarks…', 'Export…', 'Delete'],
    ],
    [
      'own shared collection (the owner deletes)',
      'collection-share',
      'own',
      [
        'Details',
        'Edit',
        'Move up',
        'Move down',
        'Move to…',
        'Import bookmarks…',
        'Export…',
        'Delete',
      ],
    ],
    // A plain member sees it, so may take it out as a file, but may not add to it.
    ['collection in a team space', 'collection', 'team-sub', ['Details', 'Export…']],
  ])('%s', (_context, type, id, expected) => {
    renderMenu(type, id);
    expect(actionNames()).toEqual(expected);
  });
});

describe('item context menu: the actions follow the can flags of the menu', () => {
  // The same team as its editor sees it: what they may do comes from the server.
  const editor = processMenu(
    makeMenu({
      teamEditor: true,
      teamCan: RUNS,
      teamItems: [
        makeLink({ id: 'runbook', name: 'Runbook', can: RUN_LINK }),
        makeLink({ id: 'kept', name: 'Kept', can: { ...RUN_LINK, delete: false } }),
        {
          type: 'collection',
          id: 'oncall',
          name: 'On call',
          description: '',
          color: null,
          can: RUNS,
          linkCan: RUN_LINK,
          items: [],
        },
      ],
    }),
  ).spaces;

  it.each<[string, DisplayItem['type'], string, string[]]>([
    // Team content never moves to My Space, even for its editor.
    [
      'a team link its editor may delete',
      'link',
      'runbook',
      ['Info', 'Edit', 'Move down', 'Move to…', 'Delete', 'Add to favorites'],
    ],
    [
      'a team link without delete',
      'link',
      'kept',
      ['Info', 'Edit', 'Move up', 'Move down', 'Move to…', 'Add to favorites'],
    ],
    [
      'a team collection its editor may delete',
      'collection',
      'oncall',
      ['Details', 'Edit', 'Move up', 'Import bookmarks…', 'Export…', 'Delete'],
    ],
  ])('%s', (_context, type, id, expected) => {
    renderMenu(type, id, editor);
    expect(actionNames()).toEqual(expected);
  });

  it('offers no delete for a favorite the server says cannot be deleted', () => {
    const spaces = processMenu(
      makeMenu({
        myItems: [
          {
            type: 'link-favorite',
            id: 'fav-x',
            linkId: 'l',
            name: 'Pinned',
            description: '',
            url: 'https://pinned.example',
            icon: null,
            appName: null,
            can: { ...FAVORITE, delete: false },
          },
        ],
      }),
    ).spaces;
    renderMenu('link-favorite', 'fav-x', spaces);
    expect(actionNames()).toEqual(['Info']);
  });
});

describe('item context menu: what each action calls', () => {
  it.each<[string, DisplayItem['type'], string, string, string, string, unknown]>([
    ['Delete', 'link', 'root-link', 'DELETE', '/api/consumer/links/root-link', '', undefined],
    [
      'Move to My Space',
      'link',
      'nested-link',
      'PUT',
      '/api/consumer/links/nested-link/collection',
      '',
      { collectionId: 'my' },
    ],
    [
      'Add to favorites',
      'link',
      'team-link',
      'POST',
      '/api/consumer/collections/my/favorites',
      '',
      { type: 'link', id: 'team-link' },
    ],
    [
      'Delete favorite',
      'link-favorite',
      'fav-1',
      'DELETE',
      '/api/consumer/favorites/fav-1',
      '',
      undefined,
    ],
    [
      'Delete',
      'collection',
      'projects',
      'DELETE',
      '/api/consumer/collections/projects/',
      '',
      undefined,
    ],
    [
      'Leave',
      'collection-share',
      'theirs',
      'DELETE',
      `/api/consumer/collection-shares/share-theirs/members/${PROFILE.id}`,
      '',
      undefined,
    ],
    [
      'Delete',
      'collection-share',
      'own',
      'DELETE',
      '/api/consumer/collection-shares/share-own/',
      '',
      undefined,
    ],
  ])('%s on %s %s', async (label, type, id, method, path, _unused, body) => {
    const { requests } = mockFetch([{ method, path, status: 204 }]);
    const user = userEvent.setup();
    const { onClose } = renderMenu(type, id);
    await user.click(screen.getByRole('button', { name: label }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const write = requests.find((request) => request.method !== 'GET')!;
    expect(write.url).toBe(path);
    expect(write.body).toEqual(body);
  });

  it('Move down swaps the item with the next one, naming every item of the collection once', async () => {
    const { requests } = mockFetch([
      { method: 'PUT', path: `/api/consumer/collections/${mySpaceId}/order`, status: 204 },
    ]);
    const user = userEvent.setup();
    const { onClose } = renderMenu('link', 'root-link');
    await user.click(screen.getByRole('button', { name: 'Move down' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const write = requests.find((request) => request.method === 'PUT')!;
    const { parent } = locateItem(menu.spaces, 'link', 'root-link')!;
    const before = parent.items
      .filter((item) => item.type !== 'addlink')
      .map((item) => ({
        type: item.type === 'collection-share' ? 'collection' : item.type,
        id: item.id,
      }));
    const at = before.findIndex((item) => item.id === 'root-link');
    const after = [...before];
    [after[at], after[at + 1]] = [after[at + 1]!, after[at]!];
    expect(write.body).toEqual({ items: after });
    expect(new Set((write.body as { items: { id: string }[] }).items.map((i) => i.id)).size).toBe(
      before.length,
    );
  });

  it('Edit opens the details with the fields to edit; Move to… opens the list of places', async () => {
    const user = userEvent.setup();
    const onMoveTo = vi.fn();
    const onOpenDetails = vi.fn();
    renderWithQuery(
      <ItemMenu
        location={locateItem(menu.spaces, 'link', 'root-link')!}
        profileId={PROFILE.id}
        mySpaceId={mySpaceId}
        onMoveTo={onMoveTo}
        onImportBookmarks={vi.fn()}
        onExportBookmarks={vi.fn()}
        onOpenDetails={onOpenDetails}
        onClose={vi.fn()}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(onOpenDetails).toHaveBeenCalledWith(true);
    await user.click(screen.getByRole('button', { name: 'Move to…' }));
    expect(onMoveTo).toHaveBeenCalledTimes(1);
  });

  it('removes the favorite of a team link that already is one, instead of adding it twice', async () => {
    setSessionToken('token-of-the-session');
    onTestFinished(() => {
      dismissUndo();
      clearSession();
    });
    const { requests } = mockFetch([
      {
        method: 'DELETE',
        path: '/api/consumer/favorites/fav-1',
        status: 204,
        headers: { 'signpost-undo-id': 'undo-1', 'signpost-undo-expires': '2099-01-01T00:00:00Z' },
      },
    ]);
    const user = userEvent.setup();
    const { onClose } = renderMenu('link', 'team-link', menu.spaces, 'fav-1');
    expect(actionNames()).toEqual(['Info', 'Remove from favorites']);
    await user.click(screen.getByRole('button', { name: 'Remove from favorites' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const writes = requests.filter((request) => request.method !== 'GET');
    expect(writes.map((write) => `${write.method} ${write.url}`)).toEqual([
      'DELETE /api/consumer/favorites/fav-1',
    ]);
    // The undo it offers names the link (decision 0052).
    expect(getPendingUndo()).toMatchObject({ id: 'undo-1', kind: 'favorite', label: 'Team wiki' });
  });

  it('opens the details for Info and Details', async () => {
    const user = userEvent.setup();
    const { onOpenDetails } = renderMenu('link', 'team-link');
    await user.click(screen.getByRole('button', { name: 'Info' }));
    expect(onOpenDetails).toHaveBeenCalledTimes(1);
  });

  it('stays open with a polite message when the write fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([{ method: 'DELETE', path: '/api/consumer/links/root-link', status: 403, body: {} }]);
    const user = userEvent.setup();
    const { onClose } = renderMenu('link', 'root-link');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, that did not work.');
    expect(onClose).not.toHaveBeenCalled();
  });
});

// Bookmarks in and out (decision 0087): a file comes into a collection where the server says
// the person may add links; any collection they see goes out as a file.
describe('item context menu: bookmarks in and out', () => {
  it('offers the import only where can.addLink holds, and the export everywhere', () => {
    const spaces = processMenu(
      makeMenu({
        myItems: [
          {
            type: 'collection',
            id: 'closed',
            name: 'Closed',
            description: '',
            color: null,
            can: { ...RUNS, addLink: false },
            linkCan: RUN_LINK,
            items: [],
          },
        ],
      }),
    ).spaces;
    renderMenu('collection', 'closed', spaces);
    expect(actionNames()).toContain('Export…');
    expect(actionNames()).not.toContain('Import bookmarks…');
  });

  it('offers neither on a link', () => {
    renderMenu('link', 'root-link');
    expect(actionNames()).not.toContain('Export…');
    expect(actionNames()).not.toContain('Import bookmarks…');
  });

  it('opens the import and the export of the collection, and writes nothing itself', async () => {
    const { requests } = mockFetch([]);
    const user = userEvent.setup();
    const { onImportBookmarks, onExportBookmarks, onClose } = renderMenu('collection', 'projects');
    await user.click(screen.getByRole('button', { name: 'Import bookmarks…' }));
    expect(onImportBookmarks).toHaveBeenCalledTimes(1);
    expect(onExportBookmarks).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    expect(onExportBookmarks).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });
});
