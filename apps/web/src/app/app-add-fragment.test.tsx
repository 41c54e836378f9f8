// A page sent to the portal by the bookmarklet (`#add?url=…&title=…`, decision 0066): it
// leaves the address at once, waits through the sign-in, and is offered in My Space's add
// panel, filled in; nothing is added without the person's click.
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { takePageToAdd } from '../lib/add-fragment';
import { clearSession, setSessionToken } from '../lib/session-store';
import { mockFetch } from '../test/fetch-mock';
import { makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

afterEach(() => {
  takePageToAdd();
  window.sessionStorage.clear();
  clearSession();
  window.history.replaceState(null, '', '/');
});

const PAGE = { url: 'https://handbook.example.com/onboarding', title: 'Onboarding handbook' };
const sent = `/#add?url=${encodeURIComponent(PAGE.url)}&title=${encodeURIComponent(PAGE.title)}`;

function portal() {
  return mockFetch([
    {
      path: '/api/auth/methods',
      status: 200,
      body: [{ type: 'email-password', name: 'E-mail and password' }],
    },
    { method: 'POST', path: '/api/auth/sessions/', status: 201, body: { token: 'new-token' } },
    { path: '/api/auth/sessions/current', status: 200, body: { user: {} } },
    { path: '/api/consumer/menu', status: 200, body: makeMenu(), headers: { ETag: '"v1"' } },
  ]);
}

async function offeredPanel() {
  const panel = await screen.findByRole('dialog', { name: 'Add link' });
  return {
    panel,
    address: within(panel).getByRole('textbox', { name: 'Link address' }),
    name: within(panel).getByRole('textbox', { name: 'Link name' }),
  };
}

describe('a page sent with #add', () => {
  it('signed in: opens My Space’s add panel filled in, and clears the address', async () => {
    window.history.replaceState(null, '', sent);
    setSessionToken('token-a');
    const { requests } = portal();
    renderApp();
    expect(window.location.hash).toBe('');
    const { address, name } = await offeredPanel();
    expect(address).toHaveValue(PAGE.url);
    expect(name).toHaveValue(PAGE.title);
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('signed out: leaves the address, waits through the sign-in, then is offered', async () => {
    window.history.replaceState(null, '', sent);
    const { requests } = portal();
    const { user } = renderApp();
    const login = screen.getByRole('dialog', { name: 'Sign in' });
    expect(window.location.hash).toBe('');
    await user.type(await within(login).findByLabelText('E-mail'), 'ada@example.com');
    await user.type(within(login).getByLabelText('Password'), 'secret-password');
    await user.click(within(login).getByRole('button', { name: 'Log in' }));

    const { address, name } = await offeredPanel();
    expect(address).toHaveValue(PAGE.url);
    expect(name).toHaveValue(PAGE.title);
    expect(
      requests.filter((request) => request.method === 'POST').map((request) => request.url),
    ).toEqual(['/api/auth/sessions/']);
  });

  it('while the portal is open: offers a page that arrives in the address', async () => {
    setSessionToken('token-a');
    portal();
    renderApp();
    await screen.findByRole('region', { name: 'My Space' });
    expect(screen.queryByRole('dialog', { name: 'Add link' })).not.toBeInTheDocument();
    window.history.replaceState(null, '', sent);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    const { address } = await offeredPanel();
    expect(address).toHaveValue(PAGE.url);
    expect(window.location.hash).toBe('');
  });
});
