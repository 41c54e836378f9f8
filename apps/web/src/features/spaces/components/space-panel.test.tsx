import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PROGRESSIVE_FIRST } from '../../../lib/use-progressive-count';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { makeLink } from '../../../test/menu-fixture';
import { SpacePanel } from './space-panel';
import { OWNED } from '../../../test/can-fixture';

function space(collections: number, linksEach: number): DisplaySpace {
  return {
    id: 'org',
    name: 'Acme Corp',
    type: 'organization',
    can: { addCollection: false },
    collections: Array.from({ length: collections }, (_, c) => ({
      type: 'collection' as const,
      id: `c${c}`,
      name: `Collection ${c}`,
      description: '',
      color: null,
      can: OWNED,
      items: Array.from({ length: linksEach }, (_, l) => makeLink({ name: `Link ${c}.${l}` })),
    })),
  };
}

describe('Show all panel', () => {
  it('shows a large space a screenful first, then every item in order', async () => {
    render(<SpacePanel space={space(4, 50)} onClose={() => {}} />);
    const panel = screen.getByRole('dialog', { name: 'Acme Corp' });
    // Counted with a selector: role queries over hundreds of tiles are slow in jsdom.
    const tiles = () => panel.querySelectorAll('li');
    expect(tiles()).toHaveLength(PROGRESSIVE_FIRST);
    expect(within(panel).getAllByRole('region')).toHaveLength(4);
    await waitFor(() => expect(tiles()).toHaveLength(200), { timeout: 10_000 });
    const last = within(panel).getByRole('region', { name: 'Collection 3' });
    expect(within(last).getAllByRole('link').at(-1)).toHaveAccessibleName(/^Link 3\.49/);
  });

  it('shows a small space whole at once', () => {
    render(<SpacePanel space={space(2, 7)} onClose={() => {}} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(14);
  });

  it('offers Add collection only when given the action (the space’s can.addCollection)', () => {
    const onAddCollection = vi.fn();
    const { rerender } = render(<SpacePanel space={space(1, 1)} onClose={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Add collection' })).not.toBeInTheDocument();
    rerender(
      <SpacePanel space={space(1, 1)} onClose={() => {}} onAddCollection={onAddCollection} />,
    );
    screen.getByRole('button', { name: 'Add collection' }).click();
    expect(onAddCollection).toHaveBeenCalledTimes(1);
  });
});
