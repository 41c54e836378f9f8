// A top-level collection of a team or organization space, added from the portal by the people
// who run the space (decision 0008): the action follows the space's `can.addCollection`, the
// call carries `spaceId`, and the menu reloads after it.
import type { Menu } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSessionToken } from '../lib/session-store';
import { RUNS } from '../test/can-fixture';
import { mockFetch } from '../test/fetch-mock';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

afterEach(() => clearSession());

const MENU = '/api/consumer/menu';
const CREATE = { method: 'POST', path: '/api/consumer/collections/' };

function start(menu: Menu, create: { status: number; body?: unknown } = { status: 204 }) {
  setSessionToken('token-a');
  const mock = mockFetch([
    { path: MENU, status: 200, body: menu, headers: { ETag: '"v1"' } },
    { ...CREATE, ...create },
  ]);
  renderApp();
  const sent = () => mock.requests.filter((request) => request.method === 'POST');
  // Reads of the menu itself, not of its live-update stream (`/menu/events`).
  const menuLoads = () =>
    mock.requests.filter((request) => request.url.split('?')[0] === MENU).length;
  return { mock, sent, menuLoads };
}

/** The team space without any collection. */
function withoutTeamCollections(menu: Menu) {
  menu.spaces[1]!.collections = [];
  return menu;
}

const card = (name: string) => screen.findByRole('region', { name });
const addButton = (region: HTMLElement) =>
  within(region).queryByRole('button', { name: 'Add collection' });

describe('adding a top-level collection to a space', () => {
  it('is offered only where the space’s can.addCollection holds', async () => {
    start(makeMenu({ teamEditor: true, teamCan: RUNS }));
    expect(addButton(await card('Engineering'))).toBeInTheDocument();
    // The editor does not run the organization space, and nobody adds to the personal one.
    expect(addButton(await card('Acme Corp'))).not.toBeInTheDocument();
    expect(addButton(await card('My Space'))).not.toBeInTheDocument();
  });

  it('is not offered to a plain member, whose empty team space keeps today’s view', async () => {
    start(withoutTeamCollections(makeMenu()));
    const team = await card('Engineering');
    expect(addButton(team)).not.toBeInTheDocument();
    expect(within(team).getByText('Nothing here yet.')).toBeInTheDocument();
    expect(within(team).queryByText('This space has no collections yet')).not.toBeInTheDocument();
  });

  it('shows an administrator the action on the organization space', async () => {
    start(makeMenu({ admin: true }));
    expect(addButton(await card('Acme Corp'))).toBeInTheDocument();
  });

  it('gives the editor of an empty team space an empty state with the action', async () => {
    const user = userEvent.setup();
    start(withoutTeamCollections(makeMenu({ teamEditor: true })));
    const team = await card('Engineering');
    expect(within(team).getByText('This space has no collections yet')).toBeInTheDocument();
    // One action only: the empty state's, not the toolbar's as well.
    expect(within(team).getAllByRole('button', { name: 'Add collection' })).toHaveLength(1);
    await user.click(addButton(team)!);
    const panel = await screen.findByRole('dialog', { name: 'Add collection' });
    expect(within(panel).getByText('In Engineering')).toBeInTheDocument();
    expect(within(panel).getByText('Enter a name for your collection')).toBeInTheDocument();
  });

  it('sends spaceId and no parentId, reloads the menu and closes the panel', async () => {
    const user = userEvent.setup();
    const { mock, sent, menuLoads } = start(withoutTeamCollections(makeMenu({ teamEditor: true })));
    await user.click(addButton(await card('Engineering'))!);
    const panel = await screen.findByRole('dialog', { name: 'Add collection' });
    await user.type(within(panel).getByRole('textbox', { name: 'Name' }), 'Runbooks');
    // The next menu holds the new collection.
    const after = makeMenu({ teamEditor: true });
    after.spaces[1]!.collections[0]!.name = 'Runbooks';
    mock.routes[0]!.body = after;
    const loadsBefore = menuLoads();
    await user.click(within(panel).getByRole('button', { name: 'Add' }));

    expect(sent()).toEqual([
      expect.objectContaining({
        url: CREATE.path,
        body: { name: 'Runbooks', description: '', spaceId: 'team-1' },
      }),
    ]);
    expect(sent()[0]!.body).not.toHaveProperty('parentId');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add collection' })).not.toBeInTheDocument(),
    );
    expect(menuLoads()).toBeGreaterThan(loadsBefore);
    const team = await card('Engineering');
    // The space has a collection now: the action moves to the toolbar.
    await waitFor(() =>
      expect(within(team).queryByText('This space has no collections yet')).not.toBeInTheDocument(),
    );
    expect(addButton(team)).toBeInTheDocument();
  });

  it('shows the server’s message on failure and keeps the panel open', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const message = 'A team collection with this name already exists.';
    const { sent, menuLoads } = start(makeMenu({ teamEditor: true, teamCan: RUNS }), {
      status: 409,
      body: { message },
    });
    await user.click(addButton(await card('Engineering'))!);
    const panel = await screen.findByRole('dialog', { name: 'Add collection' });
    await user.type(within(panel).getByRole('textbox', { name: 'Name' }), 'Tools');
    const loadsBefore = menuLoads();
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(message);
    expect(sent()).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Add collection' })).toBeInTheDocument();
    expect(menuLoads()).toBe(loadsBefore);
  });

  it('is offered in Show all too, which shows again once the collection is added', async () => {
    const user = userEvent.setup();
    const teamItems = Array.from({ length: 13 }, (_, index) => makeLink({ name: `Tool ${index}` }));
    const { sent } = start(makeMenu({ teamEditor: true, teamCan: RUNS, teamItems }));
    await user.click(within(await card('Engineering')).getByRole('button', { name: /Show all/ }));
    const showAll = await screen.findByRole('dialog', { name: 'Engineering' });
    await user.click(within(showAll).getByRole('button', { name: 'Add collection' }));
    const panel = await screen.findByRole('dialog', { name: 'Add collection' });
    await user.type(within(panel).getByRole('textbox', { name: 'Name' }), 'Runbooks');
    await user.click(within(panel).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add collection' })).not.toBeInTheDocument(),
    );
    expect(sent()[0]!.body).toEqual({ name: 'Runbooks', description: '', spaceId: 'team-1' });
    expect(await screen.findByRole('dialog', { name: 'Engineering' })).toBeInTheDocument();
  });
});
