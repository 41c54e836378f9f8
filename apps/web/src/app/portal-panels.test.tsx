import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { processMenu } from '../lib/menu/process-menu';
import type { ProcessedMenu } from '../lib/menu/menu-types';
import { RUN_LINK, RUNS } from '../test/can-fixture';
import { mockFetch } from '../test/fetch-mock';
import { makeLink, makeMenu } from '../test/menu-fixture';
import { panelsMenu } from '../test/panels-fixture';
import { renderWithQuery } from '../test/render-with-query';
import { PortalPanels } from './portal-panels';
import type { MenuPanel } from './use-panels';

const data = panelsMenu();

function renderPanel(top: MenuPanel, menu: ProcessedMenu = data) {
  const open = vi.fn();
  const back = vi.fn();
  renderWithQuery(
    <PortalPanels
      top={top}
      data={menu}
      open={open}
      back={back}
      closeAll={vi.fn()}
      onOpenLink={vi.fn()}
    />,
  );
  return { open, back };
}

const collection = (id: string): MenuPanel => ({ kind: 'collection', id, parentPanelId: null });

describe('collection panel', () => {
  it('has a back arrow, the name and a menu; Add members for a personal collection', async () => {
    const { open, back } = renderPanel(collection('projects'));
    expect(screen.getByRole('heading', { name: 'Projects' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(back).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Add members' }));
    expect(open).toHaveBeenCalledWith({ kind: 'members', id: 'projects' });
    await user.click(screen.getByRole('button', { name: 'Collection menu' }));
    await user.click(screen.getByRole('button', { name: 'Add link' }));
    expect(open).toHaveBeenCalledWith({ kind: 'add', id: 'projects', parentPanelId: 'my' });
    // Links can be dragged here, and the nested collection is a drop target.
    expect(screen.getByRole('button', { name: 'Move Nested link' })).toBeInTheDocument();
  });

  it.each([
    ['the owner’s share', 'own', true],
    ['a share someone else owns', 'theirs', false],
    ['a collection inside a team space', 'team-sub', false],
    ['My Space itself', 'my', false],
  ])('Add members on %s: %s', (_case, id, shown) => {
    renderPanel(collection(id));
    expect(screen.queryAllByRole('button', { name: 'Add members' }).length > 0).toBe(shown);
  });

  it('offers no drag and drop to a plain member of a team', () => {
    renderPanel(collection('team-tools'));
    expect(screen.queryByRole('button', { name: /^Move / })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'More actions for Team wiki' })).toBeInTheDocument();
  });

  it('gives a team editor the same adding and drag and drop as My Space (the flags say so)', async () => {
    const editor = processMenu(
      makeMenu({
        teamEditor: true,
        teamCan: RUNS,
        teamItems: [makeLink({ id: 'runbook', name: 'Runbook', can: RUN_LINK })],
      }),
    );
    const { open } = renderPanel(collection('team-tools'), editor);
    expect(screen.getByRole('button', { name: 'Move Runbook' })).toBeInTheDocument();
    // A team collection is never shared.
    expect(screen.queryByRole('button', { name: 'Add members' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Collection menu' }));
    await user.click(screen.getByRole('button', { name: 'Add link' }));
    expect(open).toHaveBeenCalledWith({
      kind: 'add',
      id: 'team-tools',
      parentPanelId: 'team-tools',
    });
  });

  it('closes by itself when its collection is gone', async () => {
    const { back } = renderPanel(collection('deleted-meanwhile'));
    await waitFor(() => expect(back).toHaveBeenCalledTimes(1));
  });
});

describe('add panel from the panel stack', () => {
  it('offers the choice on My Space and only the link form in a collection', () => {
    renderPanel({ kind: 'add', id: 'my', parentPanelId: 'my' });
    expect(screen.getByRole('button', { name: 'New Collection' })).toBeInTheDocument();
  });

  it('names the collection in the personal-collection variant', () => {
    renderPanel({ kind: 'add', id: 'projects', parentPanelId: 'my' });
    expect(screen.getByRole('heading', { name: 'Add link' })).toBeInTheDocument();
    expect(screen.getByText('In Projects')).toBeInTheDocument();
  });
});

describe('add-collection panel', () => {
  it('opens the collection form for a space the person runs', () => {
    const editor = processMenu(makeMenu({ teamEditor: true }));
    const { back } = renderPanel({ kind: 'add-collection', spaceId: 'team-1' }, editor);
    expect(screen.getByRole('dialog', { name: 'Add collection' })).toBeInTheDocument();
    expect(screen.getByText('In Engineering')).toBeInTheDocument();
    expect(back).not.toHaveBeenCalled();
  });

  it('closes by itself where the space’s can.addCollection does not hold', async () => {
    const { back } = renderPanel({ kind: 'add-collection', spaceId: 'team-1' });
    expect(screen.queryByRole('dialog', { name: 'Add collection' })).not.toBeInTheDocument();
    await waitFor(() => expect(back).toHaveBeenCalled());
  });
});

describe('item menu', () => {
  it('replaces itself with the link details on Info', async () => {
    const { open, back } = renderPanel({ kind: 'item-menu', id: 'team-link', itemType: 'link' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Info' }));
    expect(back).toHaveBeenCalled();
    expect(open).toHaveBeenCalledWith({ kind: 'link-details', id: 'team-link', itemType: 'link' });
  });

  it('offers to remove a team link that is already a favorite, not to add it again', async () => {
    const { requests } = mockFetch([
      { method: 'DELETE', path: '/api/consumer/favorites/fav-1', status: 204 },
    ]);
    const { back } = renderPanel({ kind: 'item-menu', id: 'team-link', itemType: 'link' });
    const actions = screen.getByRole('list', { name: 'More actions for Team wiki' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Info', 'Remove from favorites']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Remove from favorites' }));
    await waitFor(() => expect(back).toHaveBeenCalled());
    expect(requests.filter((request) => request.method !== 'GET').map((r) => r.url)).toEqual([
      '/api/consumer/favorites/fav-1',
    ]);
  });

  it('shows a favorited team link as already in My Space', () => {
    renderPanel({ kind: 'link-details', id: 'team-link', itemType: 'link' });
    expect(screen.getByRole('button', { name: 'Remove from My Space' })).toBeInTheDocument();
    expect(screen.getByText('Engineering > Tools')).toBeInTheDocument();
  });
});
