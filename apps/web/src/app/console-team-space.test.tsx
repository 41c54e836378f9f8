// A team's space in the console (decision 0077): an administrator outside the team sees it as
// the portal shows a space, and runs it with the portal's own panels.
import type { Space } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSessionToken } from '../lib/session-store';
import { RUNS } from '../test/can-fixture';
import { mockFetch } from '../test/fetch-mock';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

afterEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
});

const EVENTS = '/api/admin/teams/t-platform/space/events';

/**
 * The stream of the team's space, on top of a mocked fetch: the test writes its frames. Every
 * other call goes to the mock.
 */
function teamSpaceStream(mocked: ReturnType<typeof mockFetch>) {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const opened: { url: string; init: RequestInit }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    if (!url.endsWith('/events')) return mocked.fetchMock(input, init);
    opened.push({ url, init });
    const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
    return new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    opened,
    send: (frame: string) => controller.enqueue(encoder.encode(`event: ${frame}\ndata:\n\n`)),
  };
}

const platform: Space = {
  id: 't-platform',
  name: 'Platform',
  type: 'team',
  buddy: null,
  can: { addCollection: true },
  openSuggestions: 0,
  collections: [
    {
      type: 'collection',
      id: 'c-deploy',
      name: 'Deploy',
      description: '',
      color: null,
      can: { ...RUNS, suggest: false },
      linkCan: { edit: true, delete: true, move: true, favorite: false },
      items: [makeLink({ id: 'l-ci', name: 'Build server', url: 'https://ci.example' })],
    },
  ],
};

describe("a team's space in the console", () => {
  it('shows an administrator outside the team its space, with what they may do there', async () => {
    setSessionToken('token-a');
    // The administrator's own menu does not hold the team.
    mockFetch([
      { path: '/api/consumer/menu', status: 200, body: makeMenu({ admin: true }) },
      { path: '/api/admin/teams/t-platform/space', status: 200, body: platform },
    ]);
    window.history.replaceState(null, '', '/console/teams/t-platform/space');
    const { user } = renderApp();
    const space = await screen.findByRole('region', { name: 'Platform' });
    expect(within(space).getByRole('link', { name: /^Build server/ })).toBeInTheDocument();
    // Its editors' actions: add a link first in it, and add a collection.
    expect(within(space).getByRole('button', { name: 'Add' })).toBeInTheDocument();
    expect(within(space).getByRole('button', { name: 'Add collection' })).toBeInTheDocument();
    // The portal's panels run it: the link's menu offers to edit and delete, not to favorite.
    await user.click(within(space).getByRole('button', { name: /More actions for Build server/ }));
    const menu = await screen.findByRole('dialog');
    expect(within(menu).getByRole('button', { name: /Delete/ })).toBeInTheDocument();
    expect(within(menu).queryByRole('button', { name: /My Space/ })).toBeNull();
  });

  it("follows the changes the team's editors make elsewhere, without a reload", async () => {
    setSessionToken('token-a');
    const mocked = mockFetch([
      { path: '/api/consumer/menu', status: 200, body: makeMenu({ admin: true }) },
      { path: '/api/admin/teams/t-platform/space', status: 200, body: platform },
    ]);
    const stream = teamSpaceStream(mocked);
    window.history.replaceState(null, '', '/console/teams/t-platform/space');
    renderApp();
    const space = await screen.findByRole('region', { name: 'Platform' });
    // One stream, the console's of this team, with the session's token in its header.
    await waitFor(() => expect(stream.opened).toHaveLength(1));
    expect(stream.opened[0]?.url).toBe(EVENTS);
    expect((stream.opened[0]?.init.headers as Record<string, string>).Authorization).toBe(
      'Bearer token-a',
    );
    stream.send('ready');
    const reads = () =>
      mocked.requests.filter((r) => r.url === '/api/admin/teams/t-platform/space').length;
    await waitFor(() => expect(reads()).toBe(2));

    // An editor adds a link in their browser: the server says the space changed.
    const [deploy] = platform.collections;
    mocked.routes[1] = {
      path: '/api/admin/teams/t-platform/space',
      status: 200,
      body: {
        ...platform,
        collections: [
          {
            ...deploy!,
            items: [
              ...deploy!.items,
              makeLink({ id: 'l-status', name: 'Status page', url: 'https://status.example' }),
            ],
          },
        ],
      },
    };
    stream.send('menu');
    expect(await within(space).findByRole('link', { name: /^Status page/ })).toBeInTheDocument();
    expect(within(space).getByRole('link', { name: /^Build server/ })).toBeInTheDocument();
    expect(reads()).toBe(3);
    // The portal's own stream is not opened beside it.
    expect(stream.opened.map((call) => call.url)).toEqual([EVENTS]);
  });

  it('says so when the team can no longer be read after a change', async () => {
    setSessionToken('token-a');
    const mocked = mockFetch([
      { path: '/api/consumer/menu', status: 200, body: makeMenu({ admin: true }) },
      { path: '/api/admin/teams/t-platform/space', status: 200, body: platform },
    ]);
    const stream = teamSpaceStream(mocked);
    window.history.replaceState(null, '', '/console/teams/t-platform/space');
    renderApp();
    await screen.findByRole('region', { name: 'Platform' });
    await waitFor(() => expect(stream.opened).toHaveLength(1));
    // The team was deleted meanwhile.
    mocked.routes[1] = {
      path: '/api/admin/teams/t-platform/space',
      status: 404,
      body: { message: 'Team t-platform was not found' },
    };
    stream.send('menu');
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be loaded');
  });

  it('opens at the collection a broken link lives in, when the console asked for it', async () => {
    setSessionToken('token-a');
    mockFetch([
      { path: '/api/consumer/menu', status: 200, body: makeMenu({ admin: true }) },
      { path: '/api/admin/teams/t-platform/space', status: 200, body: platform },
    ]);
    window.history.replaceState(
      { openCollection: 'c-deploy' },
      '',
      '/console/teams/t-platform/space',
    );
    renderApp();
    const panel = await screen.findByRole('dialog', { name: 'Deploy' });
    expect(within(panel).getByRole('link', { name: /^Build server/ })).toBeInTheDocument();
    // Once: a reload shows the space.
    expect(window.history.state).toEqual({});
  });
});

describe("a link of a team's space the administrator is not in", () => {
  it('opens its details from its menu, and its edit form saves to the link', async () => {
    setSessionToken('token-a');
    const { requests } = mockFetch([
      { path: '/api/consumer/menu', status: 200, body: makeMenu({ admin: true }) },
      { path: '/api/admin/teams/t-platform/space', status: 200, body: platform },
      { path: '/api/consumer/links/l-ci', method: 'PATCH', status: 204 },
    ]);
    window.history.replaceState(null, '', '/console/teams/t-platform/space');
    const { user } = renderApp();
    const space = await screen.findByRole('region', { name: 'Platform' });
    await user.click(within(space).getByRole('button', { name: /More actions for Build server/ }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Edit' }),
    );
    // The link's details, not the space again: the team's links are found like the menu's.
    const details = await screen.findByRole('dialog', { name: 'Link details' });
    const name = within(details).getByLabelText('Link name');
    expect(name).toHaveValue('Build server');
    await user.clear(name);
    await user.type(name, 'Build farm');
    await user.click(within(details).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(requests.find((request) => request.method === 'PATCH')?.body).toEqual({
        name: 'Build farm',
      }),
    );
  });
});
