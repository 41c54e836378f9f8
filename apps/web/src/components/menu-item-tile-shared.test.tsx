import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { OWNED } from '../test/can-fixture';
import { makeShare, OTHER } from '../test/panels-fixture';
import { PROFILE } from '../test/menu-fixture';
import type { CollectionLike } from '../lib/menu/menu-types';
import { MenuItemTile } from './menu-item-tile';

const share = makeShare('trip', PROFILE.id, [PROFILE, OTHER]) as CollectionLike;
const plain: CollectionLike = {
  type: 'collection',
  id: 'notes',
  name: 'Notes',
  description: '',
  color: null,
  can: OWNED,
  items: [],
};

describe('the tile of a shared collection', () => {
  it('carries a named shared mark, which describes the tile and leaves its name alone', () => {
    render(<MenuItemTile item={share} onItemMenu={vi.fn()} />);
    const mark = screen.getByRole('img', { name: 'Shared collection, 2 members' });
    const tile = screen.getByRole('button', { name: 'Share trip' });
    // The button names the mark as its description (jsdom does not compute a description
    // from an aria-label; Chromium does, and the journeys check it there).
    expect(tile).toHaveAttribute('aria-describedby', mark.id);
    expect(mark.querySelector('svg')).not.toBeNull();
  });

  it('names the teams it is shared with in its mark', () => {
    const withTeams = {
      ...makeShare('ops', PROFILE.id, [PROFILE]),
      teams: [
        { id: 't1', name: 'Engineering' },
        { id: 't2', name: 'Design' },
      ],
    } as CollectionLike;
    render(<MenuItemTile item={withTeams} onItemMenu={vi.fn()} />);
    expect(
      screen.getByRole('img', {
        name: 'Shared collection, 1 member and the teams Engineering, Design',
      }),
    ).toBeInTheDocument();
  });

  it('keeps the mark without an item menu too', () => {
    render(<MenuItemTile item={share} />);
    expect(screen.getByRole('img', { name: /^Shared collection/ })).toBeInTheDocument();
  });

  it('marks no collection that is not shared', () => {
    render(<MenuItemTile item={plain} onItemMenu={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Notes' })).not.toHaveAttribute('aria-describedby');
    expect(screen.queryByRole('img', { name: /Shared/ })).not.toBeInTheDocument();
  });
});
