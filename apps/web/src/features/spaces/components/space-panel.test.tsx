import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PROGRESSIVE_FIRST } from '../../../lib/use-progressive-count';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { makeLink } from '../../../test/menu-fixture';
import { SpacePanel } from './space-panel';

function space(collections: number, linksEach: number): DisplaySpace {
  return {
    id: 'org',
    name: 'Acme Corp',
    type: 'organization',
    collections: Array.from({ length: collections }, (_, c) => ({
      id: `c${c}`,
      name: `Collection ${c}`,
      description: '',
      color: null,
      items: Array.from({ length: linksEach }, (_, l) => makeLink({ name: `Link ${c}.${l}` })),
    })),
  };
}

describe('Show all panel', () => {
  it(
    'shows a large space a screenful first, then every item in order',
    { timeout: 20_000 },
    async () => {
      render(<SpacePanel space={space(10, 50)} onClose={() => {}} />);
      const panel = screen.getByRole('dialog', { name: 'Acme Corp' });
      expect(within(panel).getAllByRole('listitem')).toHaveLength(PROGRESSIVE_FIRST);
      expect(within(panel).getAllByRole('region')).toHaveLength(10);
      await waitFor(() => expect(within(panel).getAllByRole('listitem')).toHaveLength(500), {
        timeout: 15_000,
      });
      const last = within(panel).getByRole('region', { name: 'Collection 9' });
      expect(within(last).getAllByRole('link').at(-1)).toHaveAccessibleName(/^Link 9\.49/);
    },
  );

  it('shows a small space whole at once', () => {
    render(<SpacePanel space={space(2, 7)} onClose={() => {}} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(14);
  });
});
