import { UNDO_HEADERS } from '@signpost/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findMySpace, locateItem } from '../../../lib/menu/locate-item';
import type { DisplayItem } from '../../../lib/menu/menu-types';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { dismissUndo, getPendingUndo } from '../../../lib/undo/pending-undo';
import { mockFetch } from '../../../test/fetch-mock';
import { PROFILE } from '../../../test/menu-fixture';
import { panelsMenu } from '../../../test/panels-fixture';
import { runItemAction, type ItemAction } from './item-actions';

const menu = panelsMenu();
const mySpaceId = findMySpace(menu.spaces)!.id;
const UNDO_ID = 'u'.repeat(21);

beforeEach(() => setSessionToken('token'));
afterEach(() => {
  dismissUndo();
  window.sessionStorage.clear();
  clearSession();
});

describe('runItemAction: every deletion offers an undo named after the item', () => {
  it.each<[ItemAction, DisplayItem['type'], string, string, string, string]>([
    ['delete-link', 'link', 'root-link', '/api/consumer/links/root-link', 'link', 'Root link'],
    [
      'delete-favorite',
      'link-favorite',
      'fav-1',
      '/api/consumer/favorites/fav-1',
      'favorite',
      'Team wiki (favorite)',
    ],
    [
      'delete-collection',
      'collection',
      'projects',
      '/api/consumer/collections/projects/',
      'collection',
      'Projects',
    ],
    [
      'delete-share',
      'collection-share',
      'own',
      '/api/consumer/collection-shares/share-own/',
      'collection',
      'Share own',
    ],
    [
      'leave-share',
      'collection-share',
      'theirs',
      `/api/consumer/collection-shares/share-theirs/members/${PROFILE.id}`,
      'leave',
      'Share theirs',
    ],
  ])('%s', async (action, type, id, path, kind, label) => {
    mockFetch([{ method: 'DELETE', path, status: 204, headers: { [UNDO_HEADERS.id]: UNDO_ID } }]);
    const { item } = locateItem(menu.spaces, type, id)!;
    await runItemAction({ action, item, profileId: PROFILE.id, mySpaceId });
    expect(getPendingUndo()).toMatchObject({ id: UNDO_ID, kind, label });
  });

  it('offers nothing when the server names no undo, nor for a failed deletion', async () => {
    mockFetch([
      { method: 'DELETE', path: '/api/consumer/links/root-link', status: 204 },
      {
        method: 'DELETE',
        path: '/api/consumer/collections/projects/',
        status: 403,
        headers: { [UNDO_HEADERS.id]: UNDO_ID },
      },
    ]);
    const link = locateItem(menu.spaces, 'link', 'root-link')!.item;
    await runItemAction({ action: 'delete-link', item: link, profileId: PROFILE.id, mySpaceId });
    expect(getPendingUndo()).toBeNull();
    const collection = locateItem(menu.spaces, 'collection', 'projects')!.item;
    await expect(
      runItemAction({
        action: 'delete-collection',
        item: collection,
        profileId: PROFILE.id,
        mySpaceId,
      }),
    ).rejects.toThrow();
    expect(getPendingUndo()).toBeNull();
  });
});
