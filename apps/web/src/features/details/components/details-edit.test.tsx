// Editing in place (decision 0008): the details panel's Edit, what it sends, what it shows
// when the server refuses, and the undo it offers (decision 0076).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { findMySpace, locateCollection } from '../../../lib/menu/locate-item';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { dismissUndo, getPendingUndo } from '../../../lib/undo/pending-undo';
import { mockFetch } from '../../../test/fetch-mock';
import { PROFILE } from '../../../test/menu-fixture';
import { panelsMenu } from '../../../test/panels-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { CollectionDetails } from './collection-details';
import { LinkDetails } from './link-details';

const menu = panelsMenu();
const mySpaceId = findMySpace(menu.spaces)!.id;
const entry = (id: string) => menu.searchIndex.find((candidate) => candidate.item.id === id)!;

const UNDO_HEADERS = {
  'signpost-undo-id': 'undo-edit',
  'signpost-undo-expires': '2099-01-01T00:00:00Z',
};

function renderLink(id: string, startEditing = false) {
  renderWithQuery(
    <LinkDetails
      entry={entry(id)}
      appLinks={[]}
      favoriteId={null}
      mySpaceId={mySpaceId}
      startEditing={startEditing}
      onClose={vi.fn()}
    />,
  );
}

function renderCollection(id: string, isMySpace = false) {
  renderWithQuery(
    <CollectionDetails
      collection={locateCollection(menu.spaces, id)!.collection}
      profileId={PROFILE.id}
      isMySpace={isMySpace}
      onClose={vi.fn()}
    />,
  );
}

describe('editing a link in its details', () => {
  it('sends only what changed, offers its undo, and shows the details again', async () => {
    setSessionToken('token-of-the-session');
    onTestFinished(() => {
      dismissUndo();
      clearSession();
    });
    const { requests } = mockFetch([
      {
        method: 'PATCH',
        path: '/api/consumer/links/root-link',
        status: 204,
        headers: UNDO_HEADERS,
      },
    ]);
    const user = userEvent.setup();
    renderLink('root-link');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const name = screen.getByRole('textbox', { name: 'Link name' });
    await user.clear(name);
    await user.type(name, 'Renamed');
    await user.type(screen.getByRole('textbox', { name: 'App' }), 'Wiki app');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument());
    const write = requests.find((request) => request.method === 'PATCH')!;
    expect(write.body).toEqual({ name: 'Renamed', appName: 'Wiki app' });
    expect(getPendingUndo()).toMatchObject({ id: 'undo-edit', kind: 'changed', label: 'Renamed' });
  });

  it('shows the server’s message under the address it is about, and keeps what was typed', async () => {
    mockFetch([
      {
        method: 'PATCH',
        path: '/api/consumer/links/root-link',
        status: 400,
        body: {
          code: 'VALIDATION',
          message: 'body.url must be an http, https or mailto address',
        },
      },
    ]);
    const user = userEvent.setup();
    renderLink('root-link', true);
    const address = screen.getByRole('textbox', { name: 'Link address' });
    await user.clear(address);
    await user.type(address, 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(address).toHaveAttribute('aria-invalid', 'true'));
    expect(address).toHaveValue('javascript:alert(1)');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('Cancel sends nothing and shows the details again', async () => {
    const { requests } = mockFetch([]);
    const user = userEvent.setup();
    renderLink('root-link', true);
    await user.type(screen.getByRole('textbox', { name: 'Link name' }), ' changed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('offers no Edit where the person may not change the link', () => {
    renderLink('team-link');
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });
});

describe('editing a collection in its details', () => {
  it('sends the new name and no colour when None is chosen', async () => {
    const { requests } = mockFetch([
      { method: 'PATCH', path: '/api/consumer/collections/projects', status: 204 },
    ]);
    const user = userEvent.setup();
    renderCollection('projects');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Work');
    const none = screen.getByRole('checkbox', { name: 'None' });
    if (!(none as HTMLInputElement).checked) await user.click(none);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.some((request) => request.method === 'PATCH')).toBe(true));
    const body = requests.find((request) => request.method === 'PATCH')!.body as Record<
      string,
      unknown
    >;
    expect(body.name).toBe('Work');
    const projects = locateCollection(menu.spaces, 'projects')!.collection;
    expect('color' in body).toBe(projects.color !== null);
    if ('color' in body) expect(body.color).toBeNull();
  });

  it('keeps My Space’s name: its form has no name field', async () => {
    const user = userEvent.setup();
    renderCollection(mySpaceId, true);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Description' })).toBeInTheDocument();
  });
});
