import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { addMembers } from './add-members';

describe('addMembers', () => {
  it('shares a collection that is not shared yet', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collection-shares/', status: 204 },
    ]);
    await expect(addMembers({ id: 'c1' }, ['a', 'b'])).resolves.toBe(true);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      body: { collectionId: 'c1', memberIds: ['a', 'b'] },
    });
  });

  it('adds members to the existing share', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collection-shares/s1/members', status: 204 },
    ]);
    await expect(addMembers({ id: 'c1', shareId: 's1' }, ['a'])).resolves.toBe(true);
    expect(requests[0]).toMatchObject({ body: { memberIds: ['a'] } });
  });

  it('resolves false when the server refuses', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([
      { method: 'POST', path: '/api/consumer/collection-shares/', status: 409, body: {} },
    ]);
    await expect(addMembers({ id: 'c1' }, ['a'])).resolves.toBe(false);
  });
});
