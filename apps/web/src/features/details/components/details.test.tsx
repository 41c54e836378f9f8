import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { findMySpace, locateCollection } from '../../../lib/menu/locate-item';
import { mockFetch } from '../../../test/fetch-mock';
import { processMenu } from '../../../lib/menu/process-menu';
import { RUNS } from '../../../test/can-fixture';
import { makeMenu, PROFILE } from '../../../test/menu-fixture';
import { panelsMenu } from '../../../test/panels-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { CollectionDetails } from './collection-details';
import { LinkDetails } from './link-details';

const menu = panelsMenu();
const mySpaceId = findMySpace(menu.spaces)!.id;

function renderCollection(id: string, options: { onAddMembers?: () => void } = {}) {
  const found = locateCollection(menu.spaces, id)!;
  const onClose = vi.fn();
  renderWithQuery(
    <CollectionDetails
      collection={found.collection}
      profileId={PROFILE.id}
      onAddMembers={options.onAddMembers}
      onClose={onClose}
    />,
  );
  return { onClose };
}

const entry = (id: string) => menu.searchIndex.find((candidate) => candidate.item.id === id)!;

function renderLink(id: string, favoriteId: string | null = null, url?: string) {
  const onClose = vi.fn();
  const found = entry(id);
  renderWithQuery(
    <LinkDetails
      entry={url ? { ...found, item: { ...found.item, url } } : found}
      appLinks={menu.searchIndex
        .filter((e) => e.item.appName === entry(id).item.appName && e.item.id !== id)
        .map((e) => e.item)}
      favoriteId={favoriteId}
      mySpaceId={mySpaceId}
      onClose={onClose}
    />,
  );
  return { onClose };
}

describe('collection details', () => {
  it('shows name, description, color and members, and adds members', async () => {
    const onAddMembers = vi.fn();
    renderCollection('theirs', { onAddMembers });
    expect(screen.getByRole('heading', { name: 'Collection details' })).toBeInTheDocument();
    expect(screen.getByText('Share theirs')).toBeInTheDocument();
    expect(screen.getByText('About theirs')).toBeInTheDocument();
    expect(screen.getByText('#7c3aed')).toBeInTheDocument();
    expect(screen.getByText(/Grace Hopper/)).toBeInTheDocument();
    expect(screen.getByText(/Ada Lovelace/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add members' }));
    expect(onAddMembers).toHaveBeenCalled();
  });

  it.each([
    [
      'a personal collection is deleted',
      'projects',
      'Delete collection',
      'DELETE',
      '/api/consumer/collections/projects/',
    ],
    [
      'a member leaves a share with others',
      'theirs',
      'Leave collection',
      'DELETE',
      `/api/consumer/collection-shares/share-theirs/members/${PROFILE.id}`,
    ],
    [
      'the owner deletes their share',
      'own',
      'Delete collection',
      'DELETE',
      '/api/consumer/collection-shares/share-own/',
    ],
    [
      'a share with one member is deleted',
      'alone',
      'Delete collection',
      'DELETE',
      '/api/consumer/collection-shares/share-alone/',
    ],
  ])('offers exactly one action: %s', async (_case, id, label, method, path) => {
    const { requests } = mockFetch([{ method, path, status: 204 }]);
    const { onClose } = renderCollection(id);
    for (const other of ['Delete collection', 'Leave collection', 'Suggest a link']) {
      if (other !== label)
        expect(screen.queryByRole('button', { name: other })).not.toBeInTheDocument();
    }
    await userEvent.setup().click(screen.getByRole('button', { name: label }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.find((r) => r.method === method)?.url).toBe(path);
  });

  it('suggests a link to a team collection', async () => {
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/consumer/collections/team-sub/suggestions', status: 204 },
    ]);
    renderCollection('team-sub');
    expect(screen.queryByRole('button', { name: /Delete|Leave/ })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Suggest a link' }));
    await user.type(
      screen.getByRole('textbox', { name: 'Link address' }),
      'https://status.example.com',
    );
    await user.type(screen.getByRole('textbox', { name: 'Link name' }), 'Status');
    await user.click(screen.getByRole('button', { name: 'Send suggestion' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Thank you');
    expect(requests[0]!.body).toEqual({
      url: 'https://status.example.com',
      name: 'Status',
      description: '',
    });
  });

  it.each([
    ['a team collection', 'team-sub', null],
    ['a collection its owner cannot share (inside another)', 'inner', null],
    ['a personal collection its owner could share', 'projects', 'Not shared with anyone yet.'],
    ['a share', 'own', 'Ada Lovelace ada@example.com'],
  ])('speaks of members only where sharing is possible: %s', (_case, id, members) => {
    renderCollection(id);
    const term = screen.queryByText('Members');
    if (members === null) {
      expect(term).not.toBeInTheDocument();
      expect(screen.queryByText(/Not shared/)).not.toBeInTheDocument();
    } else {
      expect(term?.nextElementSibling).toHaveTextContent(members);
    }
  });

  it('offers no action on My Space itself', () => {
    renderCollection(mySpaceId);
    expect(screen.queryByRole('button', { name: /Delete|Leave|Suggest/ })).not.toBeInTheDocument();
  });

  it('stays open with a polite message when the action fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([
      { method: 'DELETE', path: '/api/consumer/collections/projects/', status: 500, body: {} },
    ]);
    const { onClose } = renderCollection('projects');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Delete collection' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('link details', () => {
  it('shows the Unicode host next to its punycode form where they differ', () => {
    renderLink('team-link', null, 'https://xn--80ak6aa92e.com/login');
    expect(screen.getByRole('link', { name: 'https://xn--80ak6aa92e.com/login' })).toBeVisible();
    expect(screen.getByText('Host xn--80ak6aa92e.com in Unicode: аррӏе.com')).toBeInTheDocument();
  });

  it('shows no Unicode host where it is the same as the address', () => {
    renderLink('team-link', null, 'https://example.com/wiki');
    expect(screen.queryByText(/in Unicode/)).not.toBeInTheDocument();
  });

  it('isolates the name from the text around it', () => {
    renderLink('team-link');
    expect(screen.getByText('Team wiki').tagName).toBe('BDI');
  });

  it('shows name, description, address, app, its links and the location path', () => {
    renderLink('team-link');
    expect(screen.getByRole('heading', { name: 'Link details' })).toBeInTheDocument();
    expect(screen.getByText('Team wiki')).toBeInTheDocument();
    expect(
      screen.getByRole('link', {
        name: 'https://example.com/' + entry('team-link').item.url.split('/').pop(),
      }),
    ).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText('Engineering > Tools')).toBeInTheDocument();
    const app = screen.getByRole('region', { name: 'links in this app' });
    expect(app).toHaveTextContent('Team wiki (favorite)');
  });

  it.each([
    [
      'a team link is added to My Space',
      'team-link',
      null,
      'Add to My Space',
      'POST',
      '/api/consumer/collections/my/favorites',
      { type: 'link', id: 'team-link' },
    ],
    [
      'a favorited team link is removed from My Space',
      'team-link',
      'fav-1',
      'Remove from My Space',
      'DELETE',
      '/api/consumer/favorites/fav-1',
      undefined,
    ],
    [
      'a personal link is deleted',
      'root-link',
      null,
      'Delete link',
      'DELETE',
      '/api/consumer/links/root-link',
      undefined,
    ],
    [
      'a favorite is deleted',
      'fav-1',
      null,
      'Delete favorite',
      'DELETE',
      '/api/consumer/favorites/fav-1',
      undefined,
    ],
  ])('%s', async (_case, id, favoriteId, label, method, path, body) => {
    const { requests } = mockFetch([{ method, path, status: 204 }]);
    const { onClose } = renderLink(id, favoriteId);
    await userEvent.setup().click(screen.getByRole('button', { name: label }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const write = requests.find((r) => r.method === method)!;
    expect(write.url).toBe(path);
    expect(write.body).toEqual(body);
  });
});

describe('collection details follow the can flags', () => {
  it.each([
    ['a team editor', true, 'Delete collection', 'Suggest a link'],
    ['a plain member', false, 'Suggest a link', 'Delete collection'],
  ])('offers %s of the team the action the server allows', (_who, editor, shown, hidden) => {
    const spaces = processMenu(makeMenu(editor ? { teamEditor: true, teamCan: RUNS } : {})).spaces;
    const found = locateCollection(spaces, 'team-tools')!;
    renderWithQuery(
      <CollectionDetails collection={found.collection} profileId={PROFILE.id} onClose={vi.fn()} />,
    );
    expect(screen.getByRole('button', { name: shown })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: hidden })).not.toBeInTheDocument();
  });
});
