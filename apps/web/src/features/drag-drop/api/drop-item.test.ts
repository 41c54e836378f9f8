import { UNDO_HEADERS } from '@signpost/contract';
import { describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { dismissUndo, getPendingUndo } from '../../../lib/undo/pending-undo';
import { mockFetch } from '../../../test/fetch-mock';
import { makeLink } from '../../../test/menu-fixture';
import { favorite } from '../../../test/panels-fixture';
import { renderHookWithQuery } from '../../../test/render-with-query';
import { dropItem, useDropItem } from './drop-item';
import { OWNED } from '../../../test/can-fixture';

const link = makeLink({ id: 'l1' });
const collection = {
  type: 'collection' as const,
  id: 'c9',
  name: 'Nine',
  description: '',
  color: null,
  can: OWNED,
  items: [],
};

describe('dropItem', () => {
  it.each([
    [
      'a link on a collection moves it',
      link,
      { kind: 'collection', id: 'c2', name: 'Two' },
      'PUT',
      '/api/consumer/links/l1/collection',
      { collectionId: 'c2' },
    ],
    [
      'a favorite on a collection moves it',
      favorite,
      { kind: 'collection', id: 'c2', name: 'Two' },
      'PUT',
      '/api/consumer/favorites/fav-1/collection',
      { collectionId: 'c2' },
    ],
    [
      'a link on the to-parent zone moves it up',
      link,
      { kind: 'to-parent', id: 'parent', name: 'Parent' },
      'PUT',
      '/api/consumer/links/l1/collection',
      { collectionId: 'parent' },
    ],
    [
      'a link on the trash deletes it',
      link,
      { kind: 'trash' },
      'DELETE',
      '/api/consumer/links/l1',
      undefined,
    ],
    [
      'a favorite on the trash deletes it',
      favorite,
      { kind: 'trash' },
      'DELETE',
      '/api/consumer/favorites/fav-1',
      undefined,
    ],
  ] as const)('%s', async (_case, item, target, method, path, body) => {
    const { requests } = mockFetch([{ method, path, status: 204 }]);
    const { result } = renderHookWithQuery(() => useDropItem());
    await expect(result.current.write({ item, target })).resolves.toBe(true);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method, url: path });
    expect(requests[0]!.body).toEqual(body);
  });

  it('offers to undo a drop on the trash, named after what was dropped', async () => {
    setSessionToken('token');
    mockFetch([
      {
        method: 'DELETE',
        path: '/api/consumer/links/l1',
        status: 204,
        headers: { [UNDO_HEADERS.id]: 'u'.repeat(21) },
      },
    ]);
    const { result } = renderHookWithQuery(() => useDropItem());
    await expect(result.current.write({ item: link, target: { kind: 'trash' } })).resolves.toBe(
      true,
    );
    expect(getPendingUndo()).toMatchObject({ id: 'u'.repeat(21), kind: 'link', label: link.name });
    dismissUndo();
    window.sessionStorage.clear();
    clearSession();
  });

  it('a drop on another item’s place sends the new order, and offers to undo it', async () => {
    setSessionToken('token');
    const other = makeLink({ id: 'l2' });
    const { requests } = mockFetch([
      {
        method: 'PUT',
        path: '/api/consumer/collections/c9/order',
        status: 204,
        headers: { [UNDO_HEADERS.id]: 'o'.repeat(21) },
      },
    ]);
    const { result } = renderHookWithQuery(() => useDropItem());
    const target = {
      kind: 'place' as const,
      item: other,
      collection: { id: 'c9', name: 'Nine', items: [link, other, favorite] },
    };
    await expect(result.current.write({ item: link, target })).resolves.toBe(true);
    expect(requests[0]!.body).toEqual({
      items: [
        { type: 'link', id: 'l2' },
        { type: 'link', id: 'l1' },
        { type: 'link-favorite', id: 'fav-1' },
      ],
    });
    expect(getPendingUndo()).toMatchObject({ kind: 'reordered', label: 'Nine' });
    expect(dropItem(link, { ...target, item: link })).toBeNull();
    dismissUndo();
    window.sessionStorage.clear();
    clearSession();
  });

  it('leaves collections alone: only links and favorites may be dropped', () => {
    const { requests } = mockFetch([]);
    expect(dropItem(collection, { kind: 'collection', id: 'c2', name: 'Two' })).toBeNull();
    expect(dropItem(collection, { kind: 'trash' })).toBeNull();
    expect(requests).toHaveLength(0);
  });
});
