import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderHookWithQuery } from '../../../test/render-with-query';
import { useRemoveShareTeam } from './share-teams';

describe('removeShareTeam', () => {
  it('stops sharing with a team', async () => {
    const { requests } = mockFetch([
      { method: 'DELETE', path: '/api/consumer/collection-shares/s1/teams/t1', status: 204 },
    ]);
    const { result } = renderHookWithQuery(() => useRemoveShareTeam());
    await expect(result.current.write({ shareId: 's1', teamId: 't1' })).resolves.toBe(true);
    expect(requests).toMatchObject([
      { method: 'DELETE', url: '/api/consumer/collection-shares/s1/teams/t1' },
    ]);
  });

  it('resolves false when the server refuses', async () => {
    mockFetch([
      {
        method: 'DELETE',
        path: '/api/consumer/collection-shares/s1/teams/t1',
        status: 404,
        body: { message: 'Team t1 is not in this share' },
      },
    ]);
    const { result } = renderHookWithQuery(() => useRemoveShareTeam());
    await expect(result.current.write({ shareId: 's1', teamId: 't1' })).resolves.toBe(false);
  });
});
