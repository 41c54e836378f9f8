import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { useMenu } from '../../../lib/menu/get-menu';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { makeMenu } from '../../../test/menu-fixture';
import { renderHookWithQuery } from '../../../test/render-with-query';
import { useAddItem } from './add-item';

afterEach(() => clearSession());

const addItem = () => renderHookWithQuery(() => useAddItem()).result.current.write;

describe('addItem', () => {
  it('adds a link to the target collection with name, description and url', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collections/c1/links', status: 204 },
    ]);
    const link = { name: 'Wiki', description: '', url: 'wiki.example.com' };
    await expect(addItem()({ targetId: 'c1', kind: 'link', data: link })).resolves.toBe(true);
    expect(requests[0]!.body).toEqual(link);
  });

  it('adds a collection under the target with name, description and parentId', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collections/', status: 204 },
    ]);
    await expect(
      addItem()({ targetId: 'my', kind: 'collection', data: { name: 'Trips', description: 'x' } }),
    ).resolves.toBe(true);
    expect(requests[0]!.body).toEqual({ name: 'Trips', description: 'x', parentId: 'my' });
  });

  it('adds a top-level collection of a space with its spaceId and no parentId', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collections/', status: 204 },
    ]);
    await expect(
      addItem()({ spaceId: 'team-1', kind: 'space-collection', data: { name: 'Runbooks' } }),
    ).resolves.toBe(true);
    expect(requests[0]!.body).toEqual({ name: 'Runbooks', spaceId: 'team-1' });
  });

  it('resolves false on any other status', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([
      { method: 'POST', path: '/api/consumer/collections/c1/links', status: 400, body: {} },
    ]);
    const data = { name: '', description: '', url: '' };
    await expect(addItem()({ targetId: 'c1', kind: 'link', data })).resolves.toBe(false);
  });
});

describe('useAddItem', () => {
  const link = { name: 'Wiki', description: '', url: 'wiki.example.com' };

  function start(status: number, body?: unknown) {
    setSessionToken('t');
    const mock = mockFetch([
      { path: '/api/consumer/menu', status: 200, body: makeMenu() },
      { method: 'POST', path: '/api/consumer/collections/c1/links', status, body },
    ]);
    const view = renderHookWithQuery(() => ({ menu: useMenu(), add: useAddItem() }));
    const menuReads = () => mock.requests.filter((request) => request.url === '/api/consumer/menu');
    return { ...view, menuReads };
  }

  it('reloads the menu after a success, before it settles', async () => {
    const { result, menuReads } = start(204);
    await waitFor(() => expect(result.current.menu.data).toBeDefined());
    expect(menuReads()).toHaveLength(1);
    let ok: boolean | undefined;
    await act(async () => {
      ok = await result.current.add.write({ targetId: 'c1', kind: 'link', data: link });
    });
    expect(ok).toBe(true);
    expect(menuReads()).toHaveLength(2);
    await waitFor(() => expect(result.current.add.isSuccess).toBe(true));
  });

  it('keeps the menu and holds the server’s error after a failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { result, menuReads } = start(400, { message: 'url must be a web address' });
    await waitFor(() => expect(result.current.menu.data).toBeDefined());
    await act(async () => {
      await result.current.add.write({ targetId: 'c1', kind: 'link', data: link });
    });
    await waitFor(() => expect(result.current.add.isError).toBe(true));
    expect(menuReads()).toHaveLength(1);
    expect(result.current.add.error).toBeInstanceOf(ApiError);
    expect(result.current.add.error).toMatchObject({
      status: 400,
      message: 'url must be a web address',
    });
  });
});
