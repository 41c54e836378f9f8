import { act, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderHookWithQuery } from '../../../test/render-with-query';
import { useAddMembers } from './add-members';

const addMembers = () => renderHookWithQuery(() => useAddMembers()).result.current.write;

describe('addMembers', () => {
  it('shares a collection that is not shared yet', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collection-shares/', status: 204 },
    ]);
    await expect(addMembers()({ collection: { id: 'c1' }, memberIds: ['a', 'b'] })).resolves.toBe(
      true,
    );
    expect(requests[0]).toMatchObject({
      method: 'POST',
      body: { collectionId: 'c1', memberIds: ['a', 'b'] },
    });
  });

  it('adds members to the existing share', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collection-shares/s1/members', status: 204 },
    ]);
    await expect(
      addMembers()({ collection: { id: 'c1', shareId: 's1' }, memberIds: ['a'] }),
    ).resolves.toBe(true);
    expect(requests[0]).toMatchObject({ body: { memberIds: ['a'] } });
  });

  it('shares with teams in the same call, and adds teams to an existing share after its people', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collection-shares/', status: 204 },
      { method: 'POST', path: '/api/consumer/collection-shares/s1/members', status: 204 },
      { method: 'POST', path: '/api/consumer/collection-shares/s1/teams', status: 204 },
    ]);
    await expect(
      addMembers()({ collection: { id: 'c1' }, memberIds: [], teamIds: ['t1'] }),
    ).resolves.toBe(true);
    expect(requests[0]).toMatchObject({
      body: { collectionId: 'c1', memberIds: [], teamIds: ['t1'] },
    });
    await expect(
      addMembers()({ collection: { id: 'c1', shareId: 's1' }, memberIds: ['a'], teamIds: ['t2'] }),
    ).resolves.toBe(true);
    expect(requests.slice(1)).toMatchObject([
      {
        method: 'POST',
        url: '/api/consumer/collection-shares/s1/members',
        body: { memberIds: ['a'] },
      },
      {
        method: 'POST',
        url: '/api/consumer/collection-shares/s1/teams',
        body: { teamIds: ['t2'] },
      },
    ]);
  });

  it('resolves false when the server refuses', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([
      { method: 'POST', path: '/api/consumer/collection-shares/', status: 409, body: {} },
    ]);
    await expect(addMembers()({ collection: { id: 'c1' }, memberIds: ['a'] })).resolves.toBe(false);
  });

  it('holds the server’s message for the caller after a refusal', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([
      {
        method: 'POST',
        path: '/api/consumer/collection-shares/',
        status: 409,
        body: { message: 'Already shared' },
      },
    ]);
    const { result } = renderHookWithQuery(() => useAddMembers());
    await act(() => result.current.write({ collection: { id: 'c1' }, memberIds: ['a'] }));
    await waitFor(() => expect(result.current.error?.message).toBe('Already shared'));
  });
});
