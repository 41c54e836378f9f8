import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { addItem } from './add-item';

describe('addItem', () => {
  it('adds a link to the target collection with name, description and url', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collections/c1/links', status: 204 },
    ]);
    const link = { name: 'Wiki', description: '', url: 'wiki.example.com' };
    await expect(addItem('c1', link, 'link')).resolves.toBe(true);
    expect(requests[0]!.body).toEqual(link);
  });

  it('adds a collection under the target with name, description and parentId', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collections/', status: 204 },
    ]);
    await expect(addItem('my', { name: 'Trips', description: 'x' }, 'collection')).resolves.toBe(
      true,
    );
    expect(requests[0]!.body).toEqual({ name: 'Trips', description: 'x', parentId: 'my' });
  });

  it('resolves false on any other status', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([
      { method: 'POST', path: '/api/consumer/collections/c1/links', status: 400, body: {} },
    ]);
    await expect(addItem('c1', { name: '', description: '', url: '' }, 'link')).resolves.toBe(
      false,
    );
  });
});
