// The portal opened from the browser's address bar, `/?q=wiki` (decision 0065): its search
// opens with the terms and their results, after the sign-in when there is one.
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AUTOCOMPLETE_DELAY_MS } from '../lib/constants';
import { takeSearchAddress } from '../lib/search-address';
import { clearSession, initSession, setSessionToken } from '../lib/session-store';
import { mockFetch } from '../test/fetch-mock';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

afterEach(() => {
  clearSession();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

const ROUTES = [
  {
    path: '/api/consumer/menu',
    status: 200,
    body: makeMenu({ teamItems: [makeLink({ name: 'Team wiki' }), makeLink({ name: 'Grafana' })] }),
    headers: { ETag: '"v1"' },
  },
  { path: '/api/auth/methods', status: 200, body: [] },
  { path: '/api/setup/status', status: 200, body: { required: false } },
];

async function searchOpenedWith(terms: string) {
  const panel = await screen.findByRole('dialog', { name: 'Search' });
  expect(within(panel).getByRole('combobox', { name: 'Search links' })).toHaveValue(terms);
  return panel;
}

describe('the portal opened with /?q=', () => {
  it('opens its search with the terms, and shows their results', async () => {
    window.history.replaceState(null, '', '/?q=wiki');
    takeSearchAddress();
    setSessionToken('token-a');
    mockFetch(ROUTES);
    renderApp();
    const panel = await searchOpenedWith('wiki');
    expect(
      await within(panel).findByRole(
        'option',
        { name: /Team wiki/ },
        { timeout: AUTOCOMPLETE_DELAY_MS + 2000 },
      ),
    ).toBeInTheDocument();
    expect(within(panel).queryByRole('option', { name: /Grafana/ })).toBeNull();
    expect(window.location.search).toBe('');
  });

  it('keeps the terms through the sign-in', async () => {
    window.history.replaceState(null, '', '/?q=grafana');
    takeSearchAddress();
    initSession(null);
    mockFetch(ROUTES);
    renderApp();
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull();
    // What a successful sign-in does.
    act(() => setSessionToken('token-a'));
    const panel = await searchOpenedWith('grafana');
    expect(
      await within(panel).findByRole(
        'option',
        { name: /Grafana/ },
        { timeout: AUTOCOMPLETE_DELAY_MS + 2000 },
      ),
    ).toBeInTheDocument();
  });

  it('opens the search once: not again after closing it', async () => {
    window.history.replaceState(null, '', '/?q=wiki');
    takeSearchAddress();
    setSessionToken('token-a');
    mockFetch(ROUTES);
    const { user } = renderApp();
    const panel = await searchOpenedWith('wiki');
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull());
    await screen.findByRole('region', { name: 'My Space' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull();
  });
});
