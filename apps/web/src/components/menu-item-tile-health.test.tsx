import type { AttentionLink } from '@signpost/contract';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LinkHealthContext, type LinkHealth } from '../lib/link-health/context';
import type { LinkLike } from '../lib/menu/menu-types';
import { FAVORITE } from '../test/can-fixture';
import { attentionLink } from '../test/link-health-fixture';
import { makeLink } from '../test/menu-fixture';
import { MenuItemTile } from './menu-item-tile';

const attention = attentionLink;

function health(items: AttentionLink[]): LinkHealth {
  return {
    byLinkId: new Map(items.map((item) => [item.linkId, item])),
    fixable: items.filter((item) => item.canChange),
    shared: items.filter((item) => !item.canChange),
  };
}

function renderTile(item: LinkLike, items: AttentionLink[]) {
  return render(
    <LinkHealthContext.Provider value={health(items)}>
      <MenuItemTile item={item} />
    </LinkHealthContext.Provider>,
  );
}

const teamFavorite = (linkId: string): LinkLike => ({
  type: 'link-favorite',
  id: 'fav-1',
  linkId,
  name: 'Runbook',
  description: '',
  url: 'https://runbook.example.com/',
  icon: null,
  appName: null,
  can: FAVORITE,
});

describe('the health marks of a link tile', () => {
  it('names a broken link after its name and shows the warning mark', async () => {
    renderTile(makeLink({ id: 'wiki', name: 'Wiki' }), [attention({})]);
    const tile = await screen.findByRole('link', {
      name: 'Wiki — broken link (opens in a new tab)',
    });
    expect(tile.querySelector('.tile__health--broken svg[data-icon="warning"]')).not.toBeNull();
  });

  it('names a moved link and shows the arrow mark', async () => {
    renderTile(makeLink({ id: 'wiki', name: 'Wiki' }), [
      attention({ state: 'moved', movedTo: 'https://new.example.com/', status: 301 }),
    ]);
    const tile = await screen.findByRole('link', {
      name: 'Wiki — moved to a new address (opens in a new tab)',
    });
    expect(tile.querySelector('svg[data-icon="moved"]')).not.toBeNull();
    expect(tile.querySelector('svg[data-icon="warning"]')).toBeNull();
  });

  it('marks no link the list does not hold', () => {
    renderTile(makeLink({ id: 'other', name: 'Other' }), [attention({})]);
    const tile = screen.getByRole('link', { name: 'Other (opens in a new tab)' });
    expect(tile.querySelector('.tile__health')).toBeNull();
  });

  it('marks a link of a share for its members, who cannot change it', async () => {
    renderTile(makeLink({ id: 'wiki', name: 'Wiki' }), [attention({ canChange: false })]);
    expect(
      await screen.findByRole('link', { name: 'Wiki — broken link (opens in a new tab)' }),
    ).toBeInTheDocument();
  });

  it("marks a favorite with its original's state only for someone who may change the original", async () => {
    const { unmount } = renderTile(teamFavorite('team-runbook'), [
      attention({ linkId: 'team-runbook', space: 'team', canChange: true }),
    ]);
    expect(
      await screen.findByRole('link', { name: 'Runbook — broken link (opens in a new tab)' }),
    ).toBeInTheDocument();
    unmount();
    renderTile(teamFavorite('team-runbook'), [
      attention({ linkId: 'team-runbook', space: 'team', canChange: false }),
    ]);
    const tile = screen.getByRole('link', { name: 'Runbook (opens in a new tab)' });
    expect(tile.querySelector('.tile__health')).toBeNull();
  });

  it('marks nothing outside the portal, where no list is given', () => {
    render(<MenuItemTile item={makeLink({ id: 'wiki', name: 'Wiki' })} />);
    expect(screen.getByRole('link', { name: 'Wiki (opens in a new tab)' })).toBeInTheDocument();
  });
});
