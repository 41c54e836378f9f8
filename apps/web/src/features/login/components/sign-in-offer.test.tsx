// A `#session?token=…` link that this browser's own single sign-on did not hand over
// (decision 0080): the person is asked, the account named, before anything is replaced.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropOfferedSignIn, startSession } from '../../../lib/fragment-sign-in';
import { takeSessionFragment } from '../../../lib/session-fragment';
import { clearSession, getSession } from '../../../lib/session-store';
import { tokenKey, writePerTokenList } from '../../../lib/storage';
import { TOKEN_STORAGE_KEY } from '../../../lib/storage-keys';
import { makeMenu } from '../../../test/menu-fixture';
import { renderApp } from '../../../test/render-app';

afterEach(() => {
  dropOfferedSignIn();
  clearSession();
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
});

const ACCOUNTS: Record<string, { id: string; name: string; email: string }> = {
  'bob-token': { id: 'bob', name: 'Bob Builder', email: 'bob@acme.example' },
  'jane-token': { id: 'jane', name: 'Jane \u202eDoe', email: 'jane@acme.example' },
  'bob-other-session': { id: 'bob', name: 'Bob Builder', email: 'bob@acme.example' },
};

interface Call {
  method: string;
  path: string;
  token: string | null;
}

/** The server: who each token is, Bob's menu, logout; every call recorded with its token. */
function server() {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = String(input).split('?')[0]!;
      const method = init.method ?? 'GET';
      const auth = (init.headers as Record<string, string> | undefined)?.Authorization ?? '';
      const token = auth.startsWith('Bearer ') ? auth.slice(7) : null;
      calls.push({ method, path, token });
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), {
          status,
          headers: { 'Content-Type': 'application/json' },
        });
      const account = token ? ACCOUNTS[token] : undefined;
      if (path === '/api/auth/sessions/current') {
        return account
          ? json(200, {
              user: { ...account, role: 'member' },
              organization: { id: 'acme', name: 'Acme' },
              session: { kind: 'session', expiresAt: null },
            })
          : json(401, { code: 'UNAUTHORIZED', message: 'Sign in again.' });
      }
      if (path === '/api/auth/logout') return json(200, { logoutUrl: null });
      if (path === '/api/consumer/menu') return json(200, makeMenu());
      if (path === '/api/auth/methods') return json(200, []);
      if (path === '/api/setup') return json(200, { required: false });
      return json(404, { message: `no answer for ${method} ${path}` });
    }),
  );
  return calls;
}

/** The page opened with `address`, the browser signed in with `stored` (or not). */
function open(address: string, stored: string | null) {
  if (stored) window.localStorage.setItem(TOKEN_STORAGE_KEY, stored);
  window.history.replaceState(null, '', address);
  startSession(takeSessionFragment());
  return renderApp();
}

describe('a sign-in link this browser did not ask for', () => {
  it('asks a signed-in person, naming both accounts; declining keeps them in their own', async () => {
    const calls = server();
    writePerTokenList('recent-searches', 'bob-token', ['payroll']);
    const { user } = open('/#session?token=jane-token', 'bob-token');

    const dialog = await screen.findByRole('dialog', { name: 'Sign in as jane@acme.example?' });
    // The link's account and the one signed in now, each named; the name as text, without
    // its override.
    expect(dialog).toHaveTextContent('Jane Doe');
    expect(dialog).toHaveTextContent('Bob Builder');
    expect(dialog).toHaveTextContent('bob@acme.example');
    expect(dialog).toHaveTextContent('you are signed out of your account in this browser');
    expect(window.location.hash).toBe('');
    // Nothing of Bob's portal is shown or read meanwhile, and nothing is replaced.
    expect(screen.queryByRole('region', { name: 'My Space' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/consumer/menu')).toEqual([]);
    const stay = within(dialog).getByRole('button', { name: 'Stay signed in as bob@acme.example' });
    await waitFor(() => expect(stay).toHaveFocus());

    await user.click(stay);

    expect(await screen.findByRole('region', { name: 'My Space' })).toBeInTheDocument();
    expect(getSession()).toEqual({ token: 'bob-token', authenticated: true });
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('bob-token');
    expect(window.localStorage.getItem(`signpost:recent-searches:${tokenKey('bob-token')}`)).toBe(
      '["payroll"]',
    );
    // Jane's token only asked who it is: never signed in, never stored.
    expect(calls.filter((c) => c.token === 'jane-token')).toEqual([
      { method: 'GET', path: '/api/auth/sessions/current', token: 'jane-token' },
    ]);
    expect(JSON.stringify({ ...window.localStorage, ...window.sessionStorage })).not.toContain(
      'jane-token',
    );
    expect(calls.filter((c) => c.path === '/api/auth/logout')).toEqual([]);
  });

  it('signs in when the person says so, ending the session it replaces and its traces', async () => {
    const calls = server();
    writePerTokenList('last-used', 'bob-token', [
      { id: 'l', name: 'Payroll', url: '', icon: null },
    ]);
    const { user } = open('/#session?token=jane-token', 'bob-token');
    const dialog = await screen.findByRole('dialog', { name: 'Sign in as jane@acme.example?' });

    await user.click(within(dialog).getByRole('button', { name: 'Sign in as jane@acme.example' }));

    await waitFor(() => expect(getSession()).toEqual({ token: 'jane-token', authenticated: true }));
    expect(await screen.findByRole('region', { name: 'My Space' })).toBeInTheDocument();
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('jane-token');
    expect(window.localStorage.getItem(`signpost:last-used:${tokenKey('bob-token')}`)).toBeNull();
    await waitFor(() =>
      expect(calls).toContainEqual({
        method: 'POST',
        path: '/api/auth/logout',
        token: 'bob-token',
      }),
    );
  });

  it('asks a person who is signed out too, and declining leaves them on the sign-in screen', async () => {
    server();
    const { user } = open('/#session?token=jane-token', null);
    const dialog = await screen.findByRole('dialog', { name: 'Sign in as jane@acme.example?' });
    expect(dialog).toHaveTextContent('Sign in only if you asked for this link');

    await user.click(within(dialog).getByRole('button', { name: 'Do not sign in' }));

    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeInTheDocument();
    expect(getSession()).toEqual({ token: null, authenticated: false });
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('says a link that signs in nobody cannot be used, and changes nothing', async () => {
    server();
    const { user } = open('/#session?token=made-up', 'bob-token');
    const dialog = await screen.findByRole('dialog', { name: 'This sign-in link cannot be used' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Nothing was changed');

    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('region', { name: 'My Space' })).toBeInTheDocument();
    expect(getSession()).toEqual({ token: 'bob-token', authenticated: true });
  });

  it('asks nothing when the link signs in the person already signed in here', async () => {
    const calls = server();
    open('/#session?token=bob-other-session', 'bob-token');
    expect(await screen.findByRole('region', { name: 'My Space' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: /^Sign in as/ })).not.toBeInTheDocument();
    expect(getSession().token).toBe('bob-token');
    expect(calls.filter((c) => c.path === '/api/auth/logout')).toEqual([]);
  });
});
