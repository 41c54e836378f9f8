import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTOCOMPLETE_DELAY_MS, SPACE_PANEL_MAX_ITEMS } from '../lib/constants';
import { clearSession, getSession, setSessionToken } from '../lib/session-store';
import { setTrackingConsent } from '../lib/tracking';
import { mockFetch, type MockRoute } from '../test/fetch-mock';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

afterEach(() => {
  clearSession();
  setTrackingConsent(false);
});

const many = Array.from({ length: 15 }, (_, i) =>
  makeLink({ name: `Team link ${i + 1}`, url: `https://team.example.com/${i + 1}` }),
);

function start(routes: MockRoute[] = []) {
  setSessionToken('token-a');
  const mock = mockFetch([
    ...routes,
    {
      path: '/api/consumer/menu',
      status: 200,
      body: makeMenu({
        myItems: [
          makeLink({ name: 'Grafana', url: 'https://grafana.example.com', icon: null }),
          makeLink({ name: 'Evil', url: 'javascript:alert(1)' }),
        ],
        teamItems: many,
      }),
      headers: { ETag: '"v1"' },
    },
    { method: 'POST', path: '/api/auth/logout', status: 200, body: { logoutUrl: null } },
  ]);
  return { ...renderApp(), ...mock };
}

describe('portal', () => {
  it('shows loading, then one card per space with its intro text', async () => {
    start();
    expect(screen.getByText('loading')).toBeInTheDocument();
    const personal = await screen.findByRole('region', { name: 'My Space' });
    expect(
      within(personal).getByText('Hello Ada Lovelace, these are your own links and collections.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Engineering' })).toBeInTheDocument();
    expect(screen.getAllByRole('region', { name: 'Acme Corp' })).toHaveLength(1);
    expect(screen.queryByText('loading')).not.toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Acme Corp');
  });

  it('opens links in a new tab without opener, never renders unsafe schemes, shows letter badges', async () => {
    start();
    const link = await screen.findByRole('link', { name: 'Grafana (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://grafana.example.com/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link.querySelector('.link-icon--letter')).toHaveTextContent('G');
    expect(screen.queryByRole('link', { name: /Evil/ })).not.toBeInTheDocument();
    expect(screen.getByText('Evil')).toBeInTheDocument();
  });

  it('puts the Add item first in the personal card', async () => {
    start();
    const personal = await screen.findByRole('region', { name: 'My Space' });
    const first = within(personal).getAllByRole('listitem')[0]!;
    expect(within(first).getByRole('button', { name: 'Add' })).toBeInTheDocument();
  });

  it('shows at most 12 items, then Show all with the count, which opens every item', async () => {
    const { user } = start();
    const team = await screen.findByRole('region', { name: 'Engineering' });
    expect(within(team).getAllByRole('link')).toHaveLength(SPACE_PANEL_MAX_ITEMS);
    const showAll = within(team).getByRole('button', { name: /Show all/ });
    expect(showAll).toHaveTextContent('15');
    await user.click(showAll);
    const panel = await screen.findByRole('dialog', { name: 'Engineering' });
    expect(within(panel).getAllByRole('link')).toHaveLength(15);
    expect(
      within(screen.getByRole('region', { name: 'My Space' })).queryByRole('button', {
        name: /Show all/,
      }),
    ).toBeNull();
  });

  it('toggles the space info dialog from the toolbar', async () => {
    const { user } = start();
    const personal = await screen.findByRole('region', { name: 'My Space' });
    const toolbar = within(personal).getByRole('button', { name: /My Space/ });
    expect(toolbar).toHaveAttribute('aria-expanded', 'false');
    expect(toolbar.querySelector('[data-icon="user"]')).not.toBeNull();
    await user.click(toolbar);
    const info = within(personal).getByRole('dialog', { name: 'My Space' });
    expect(info).toHaveTextContent('My Space is yours alone');
    await user.click(toolbar);
    expect(within(personal).queryByRole('dialog')).toBeNull();
    const team = screen.getByRole('region', { name: 'Engineering' });
    expect(
      within(team)
        .getByRole('button', { name: /Engineering/ })
        .querySelector('[data-icon="users"]'),
    ).not.toBeNull();
  });

  it('searches from / after the delay, and remembers last-used links and recent searches', async () => {
    const { user } = start();
    await screen.findByRole('region', { name: 'My Space' });
    await user.keyboard('/');
    const panel = await screen.findByRole('dialog', { name: 'Search' });
    const input = within(panel).getByRole('combobox', { name: 'Search links' });
    await user.type(input, 'GRAF');
    // Nothing before the autocomplete delay, the result after it.
    expect(within(panel).queryByRole('option', { name: /Grafana/ })).toBeNull();
    const result = await within(panel).findByRole(
      'option',
      { name: /Grafana/ },
      { timeout: AUTOCOMPLETE_DELAY_MS + 1000 },
    );
    // The link lives in My Space itself, which is named once.
    expect(
      within(panel).getByText('My Space', { selector: '.result__location' }),
    ).toBeInTheDocument();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    fireEvent.click(result);
    expect(open).toHaveBeenCalledWith(
      'https://grafana.example.com/',
      '_blank',
      'noopener,noreferrer',
    );
    open.mockRestore();
    await user.clear(input);
    expect(within(panel).getByRole('region', { name: 'Last used' })).toHaveTextContent('Grafana');
    const recent = within(panel).getByRole('region', { name: 'Recent searches' });
    expect(within(recent).getByRole('option', { name: 'GRAF' })).toBeInTheDocument();
  });

  it('opens the search with Ctrl+K and the header icon', async () => {
    const { user } = start();
    await screen.findByRole('region', { name: 'My Space' });
    await user.keyboard('{Control>}k{/Control}');
    expect(await screen.findByRole('dialog', { name: 'Search' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('dialog', { name: 'Search' })).toBeInTheDocument();
  });

  it('logs out through the server and returns to the login screen', async () => {
    const { user, requests } = start([{ path: '/api/auth/methods', status: 200, body: [] }]);
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeInTheDocument();
    const call = requests.find((r) => r.url === '/api/auth/logout');
    expect(call!.headers.Authorization).toBe('Bearer token-a');
    expect(getSession()).toEqual({ token: null, authenticated: false });
  });

  it('returns to the login screen when the menu answers 401', async () => {
    setSessionToken('expired');
    mockFetch([
      { path: '/api/consumer/menu', status: 401, body: { message: 'Expired' } },
      { path: '/api/auth/methods', status: 200, body: [] },
    ]);
    renderApp();
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('asks for consent in the consent preferences before any tracking', async () => {
    const { user } = start();
    await user.click(await screen.findByRole('button', { name: 'Consent preferences' }));
    const dialog = await screen.findByRole('dialog', { name: 'Consent preferences' });
    const box = within(dialog).getByRole('checkbox', { name: 'Allow anonymous usage events' });
    expect(box).not.toBeChecked();
    await user.click(box);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(window.localStorage.getItem('signpost:tracking-consent')).toBe('granted'),
    );
    await act(async () => {});
  });

  it('opens the feedback dialog', async () => {
    const { user } = start();
    await user.click(await screen.findByRole('button', { name: 'Feedback' }));
    expect(await screen.findByRole('dialog', { name: 'Feedback' })).toBeInTheDocument();
  });
});
