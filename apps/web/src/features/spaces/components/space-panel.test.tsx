import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PROGRESSIVE_FIRST } from '../../../lib/use-progressive-count';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { makeLink } from '../../../test/menu-fixture';
import { SpacePanel } from './space-panel';
import { OWNED, READ_ONLY, RUNS } from '../../../test/can-fixture';

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

describe('Show all, for the people who run the space', () => {
  const run = (collections: number, linksEach: number, can = RUNS): DisplaySpace => {
    const shown = space(collections, linksEach);
    return { ...shown, collections: shown.collections.map((c) => ({ ...c, can })) };
  };

  it('offers Add and Details on every top-level collection, an empty one included', () => {
    const onAddTo = vi.fn();
    const onCollectionDetails = vi.fn();
    const shown = run(2, 1);
    shown.collections[1] = { ...shown.collections[1]!, items: [] };
    render(
      <SpacePanel
        space={shown}
        onClose={() => {}}
        onAddTo={onAddTo}
        onCollectionDetails={onCollectionDetails}
      />,
    );
    const empty = screen.getByRole('region', { name: 'Collection 1' });
    expect(within(empty).getByText('Nothing here yet.')).toBeInTheDocument();
    within(empty).getByRole('button', { name: 'Add to Collection 1' }).click();
    within(empty).getByRole('button', { name: 'Details of Collection 1' }).click();
    expect(onAddTo).toHaveBeenCalledWith('c1');
    expect(onCollectionDetails).toHaveBeenCalledWith('c1');
    expect(screen.getAllByRole('button', { name: /^Add to / })).toHaveLength(2);
  });

  it('offers neither to someone who only reads the space', () => {
    render(
      <SpacePanel
        space={run(2, 1, READ_ONLY)}
        onClose={() => {}}
        onAddTo={vi.fn()}
        onCollectionDetails={vi.fn()}
      />,
    );
    expect(screen.queryByRole('button', { name: /^Add to / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Details of / })).toBeNull();
  });
});
