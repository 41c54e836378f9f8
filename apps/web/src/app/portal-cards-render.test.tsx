import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSessionToken } from '../lib/session-store';
import * as processMenu from '../lib/menu/process-menu';
import { mockFetch } from '../test/fetch-mock';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

// Every render of a space card asks for the space's items once: counting those calls counts
// card renders.
vi.mock('../lib/menu/process-menu', async (importOriginal) => {
  const original = await importOriginal<typeof processMenu>();
  return { ...original, spaceItems: vi.fn(original.spaceItems) };
});

afterEach(() => {
  clearSession();
});

describe('space cards', () => {
  it('are not rendered again when a panel opens, while typing a search, or when it closes', async () => {
    setSessionToken('token-a');
    mockFetch([
      {
        path: '/api/consumer/menu',
        status: 200,
        body: makeMenu({ teamItems: [makeLink({ name: 'Grafana' })] }),
        headers: { ETag: '"v1"' },
      },
    ]);
    const { user } = renderApp();
    await screen.findByRole('region', { name: 'Engineering' });
    const renders = vi.mocked(processMenu.spaceItems);
    const before = renders.mock.calls.length;
    expect(before).toBeGreaterThan(0);

    await user.keyboard('/');
    const panel = await screen.findByRole('dialog', { name: 'Search' });
    await user.type(within(panel).getByRole('combobox', { name: 'Search links' }), 'graf');
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    // It fades out first (the overlay's exit time), then goes.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull());
    expect(renders.mock.calls.length).toBe(before);
  });
});
