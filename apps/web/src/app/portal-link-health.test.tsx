// Link health in the portal (decision 0069): the list is read once the menu shows, its marks
// reach the tiles, the header offers the links the person can fix, and nothing is asked
// signed out or offline.
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSessionToken } from '../lib/session-store';
import { mockFetch } from '../test/fetch-mock';
import { attentionLink } from '../test/link-health-fixture';
import { makeLink, makeMenu, PROFILE } from '../test/menu-fixture';
import { makeShare, OTHER } from '../test/panels-fixture';
import { renderApp } from '../test/render-app';

const MENU = '/api/consumer/menu';
const ATTENTION = '/api/consumer/links/attention';

afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

const menu = () =>
  makeMenu({
    myItems: [
      makeLink({ id: 'wiki', name: 'Wiki', url: 'https://wiki.example.com/' }),
      makeLink({ id: 'docs', name: 'Docs', url: 'http://docs.example.com/' }),
      makeLink({ id: 'fine', name: 'Calendar', url: 'https://calendar.example.com/' }),
    ],
    sharedItems: [
      makeShare('trip', OTHER.id, [PROFILE, OTHER], [makeLink({ id: 'trip-map', name: 'Map' })]),
    ],
  });

const wiki = attentionLink({ linkId: 'wiki', name: 'Wiki' });
const docs = attentionLink({
  linkId: 'docs',
  name: 'Docs',
  state: 'moved',
  movedTo: 'https://docs.example.com/',
  status: 301,
});
const tripMap = attentionLink({ linkId: 'trip-map', name: 'Map', canChange: false });

function start(items = [wiki, docs, tripMap]) {
  setSessionToken('token-a');
  const mock = mockFetch([
    { path: MENU, status: 200, body: menu(), headers: { ETag: '"v1"' } },
    { path: ATTENTION, status: 200, body: { items } },
  ]);
  return { ...mock, ...renderApp() };
}

const attentionReads = (requests: { url: string }[]) =>
  requests.filter((request) => request.url === ATTENTION).length;

describe('link health in the portal', () => {
  it('marks the listed links on their tiles, and only them', async () => {
    start();
    expect(
      await screen.findByRole('link', { name: 'Wiki — broken link (opens in a new tab)' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Docs — moved to a new address (opens in a new tab)' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Calendar (opens in a new tab)' })).toBeInTheDocument();
  });

  it('offers the links the person can fix from the header, with their count, in a dialog', async () => {
    const { user } = start();
    const button = await screen.findByRole('button', { name: '2 links need attention' });
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Links that need attention' });
    expect(await within(dialog).findByRole('listitem', { name: 'Wiki' })).toHaveTextContent(
      'My Space',
    );
    expect(within(dialog).getByRole('listitem', { name: 'Docs' })).toBeInTheDocument();
    // The shared link is there too, in its own part, with nothing to do.
    const shared = within(dialog).getByRole('listitem', { name: 'Map' });
    expect(shared).toHaveTextContent('Shared with me › Share trip');
    expect(within(shared).queryByRole('button')).toBeNull();
  });

  it('says one link in the singular', async () => {
    start([wiki]);
    expect(
      await screen.findByRole('button', { name: '1 link needs attention' }),
    ).toBeInTheDocument();
  });

  it('shows no button when only links of shares the person is a member of are listed', async () => {
    const { user } = start([tripMap]);
    await user.click(await screen.findByRole('button', { name: 'Share trip' }));
    // The member sees the mark of the share's link, so the list was read …
    expect(
      await screen.findByRole('link', { name: 'Map — broken link (opens in a new tab)' }),
    ).toBeInTheDocument();
    // … and is asked for nothing.
    expect(screen.queryByRole('button', { name: /need(s)? attention/ })).toBeNull();
  });

  it('reads the list again when the menu changes, and the marks follow it', async () => {
    const { routes, requests, client } = start();
    await screen.findByRole('button', { name: '2 links need attention' });
    expect(attentionReads(requests)).toBe(1);
    // Someone fixed the wiki elsewhere: the menu changed, and the list with it.
    routes[0]!.headers = { ETag: '"v2"' };
    routes[1]!.body = { items: [docs] };
    await act(() => client.invalidateQueries({ queryKey: ['menu'] }));
    expect(
      await screen.findByRole('button', { name: '1 link needs attention' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Wiki (opens in a new tab)' })).toBeInTheDocument();
    expect(attentionReads(requests)).toBe(2);
  });

  it('asks nothing while offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { requests } = start();
    await screen.findByRole('link', { name: 'Wiki (opens in a new tab)' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests.some((request) => request.url === MENU)).toBe(true);
    expect(attentionReads(requests)).toBe(0);
  });

  it('asks nothing signed out', async () => {
    const { requests } = mockFetch([{ path: '/api/auth/methods', status: 200, body: [] }]);
    renderApp();
    await screen.findByRole('heading', { name: /sign in/i });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(attentionReads(requests)).toBe(0);
  });
});
