// The portal without the network (decision 0065): the menu last read stays, marked offline,
// with its links and its search; opened offline it shows the copy this browser kept, with no
// write control; a change tried offline says that it waits and loses nothing; back online the
// mark goes and the menu is read again.
import { act, screen, waitFor, within } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTOCOMPLETE_DELAY_MS } from '../lib/constants';
import { setKeptMenuLoader } from '../lib/offline/keep';
import { forgetKeptMenu, keepMenu } from '../lib/offline/kept-menu';
import { clearSession, setSessionToken } from '../lib/session-store';
import { mockFetch } from '../test/fetch-mock';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

const MENU = '/api/consumer/menu';
const WRITES_WAIT =
  'You are offline, so this change was not made. What you entered is still here: try again once you are back online.';

const menu = () =>
  makeMenu({
    myItems: [makeLink({ name: 'Wiki', url: 'https://wiki.example.com/' })],
    teamItems: [makeLink({ name: 'Runbooks', url: 'https://runbooks.example.com/' })],
  });

let online = true;
beforeAll(() => {
  vi.stubGlobal('indexedDB', new IDBFactory());
  setKeptMenuLoader(() => import('../lib/offline/kept-menu'));
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
});
afterAll(async () => {
  await forgetKeptMenu();
  vi.unstubAllGlobals();
});
beforeEach(async () => {
  online = true;
  await forgetKeptMenu();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
});
afterEach(() => clearSession());

/** No network at all: every call fails as fetch does then. */
function noNetwork() {
  const fetchMock = vi.fn(async () => {
    throw new TypeError('Failed to fetch');
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function goOffline() {
  online = false;
  act(() => {
    window.dispatchEvent(new Event('offline'));
  });
}

function goOnline() {
  online = true;
  act(() => {
    window.dispatchEvent(new Event('online'));
  });
}

const mark = () => screen.queryByRole('status');

describe('the portal opened without the network', () => {
  it('shows the kept menu read-only with the offline mark, its links and its search', async () => {
    setSessionToken('token-a');
    await keepMenu('token-a', menu(), '"v1"', new Date(2026, 10, 24, 9, 5).getTime());
    online = false;
    noNetwork();
    const { user } = renderApp();

    const personal = await screen.findByRole('region', { name: 'My Space' });
    expect(await screen.findByRole('status')).toHaveTextContent(
      /^Offline — showing your links as of .*9.05.*\. Changes wait/,
    );
    // The links still open.
    expect(
      within(personal).getByRole('link', { name: 'Wiki (opens in a new tab)' }),
    ).toHaveAttribute('href', 'https://wiki.example.com/');
    // No write control: no Add item, no item actions but Info.
    expect(within(personal).queryByRole('button', { name: 'Add' })).toBeNull();
    await user.click(within(personal).getByRole('button', { name: 'More actions for Wiki' }));
    const actions = await screen.findByRole('list', { name: 'More actions for Wiki' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Info']);
    await user.keyboard('{Escape}');

    // The search works over the kept menu.
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const panel = await screen.findByRole('dialog', { name: 'Search' });
    await user.type(within(panel).getByRole('combobox', { name: 'Search links' }), 'runb');
    expect(
      await within(panel).findByRole(
        'option',
        { name: /Runbooks/ },
        { timeout: AUTOCOMPLETE_DELAY_MS + 2000 },
      ),
    ).toBeInTheDocument();
  });

  it('reads the menu again when the network is back, and the mark goes', async () => {
    setSessionToken('token-a');
    await keepMenu('token-a', menu(), '"v1"', Date.now());
    online = false;
    noNetwork();
    renderApp();
    const personal = await screen.findByRole('region', { name: 'My Space' });
    expect(await screen.findByRole('status')).toBeInTheDocument();

    const { requests } = mockFetch([
      { path: MENU, status: 200, body: menu(), headers: { ETag: '"v2"' } },
    ]);
    goOnline();
    await waitFor(() => expect(mark()).toBeNull());
    // The kept copy's permissions were off: the menu is read whole, not revalidated.
    const read = requests.find((request) => request.url === MENU);
    expect(read?.headers['If-None-Match']).toBeUndefined();
    expect(await within(personal).findByRole('button', { name: 'Add' })).toBeInTheDocument();
  });

  it('says so when this browser has no copy yet', async () => {
    setSessionToken('token-a');
    online = false;
    noNetwork();
    renderApp();
    expect(
      await screen.findByText(
        'You are offline, and this browser has no copy of your links yet. They will show once you are back online.',
      ),
    ).toBeInTheDocument();
  });

  it('never shows the copy kept for another session', async () => {
    setSessionToken('token-b');
    await keepMenu('token-b', menu(), '"v1"', Date.now());
    setSessionToken('token-a');
    noNetwork();
    renderApp();
    expect(
      await screen.findByText(/this browser has no copy of your links yet/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'My Space' })).toBeNull();
  });
});

describe('the portal when the network goes', () => {
  it('keeps the menu with the mark, refuses a change with the message, and the mark goes when back', async () => {
    setSessionToken('token-a');
    mockFetch([{ path: MENU, status: 200, body: menu(), headers: { ETag: '"v1"' } }]);
    const { user } = renderApp();
    const personal = await screen.findByRole('region', { name: 'My Space' });
    expect(mark()).toBeNull();

    noNetwork();
    goOffline();
    expect(await screen.findByRole('status')).toHaveTextContent(
      /^Offline — showing your links as of/,
    );
    expect(
      within(personal).getByRole('link', { name: 'Wiki (opens in a new tab)' }),
    ).toBeInTheDocument();

    // A change tried now: the message, and the form keeps what was typed.
    await user.click(within(personal).getByRole('button', { name: 'Add' }));
    const add = await screen.findByRole('dialog', { name: 'Add' });
    await user.click(within(add).getByRole('button', { name: 'New Collection' }));
    const form = await screen.findByRole('dialog', { name: 'Add collection' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Travel');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(WRITES_WAIT);
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('Travel');

    mockFetch([{ path: MENU, status: 304, headers: { ETag: '"v1"' } }]);
    goOnline();
    await waitFor(() => expect(mark()).toBeNull());
  });
});
