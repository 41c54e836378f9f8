import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { renderWithQuery } from '../../../test/render-with-query';
import { SpaceToolbar } from './space-toolbar';

const team = (buddy: DisplaySpace['buddy']): DisplaySpace => ({
  id: 't-1',
  name: 'Finance',
  type: 'team',
  buddy,
  can: { addCollection: false },
  collections: [],
});

describe('space info', () => {
  it("names the team's buddy as the support contact, with a mail link", async () => {
    const user = userEvent.setup();
    renderWithQuery(
      <SpaceToolbar space={team({ id: 'u-1', name: 'Ann Lee', email: 'ann@acme.test' })} />,
    );
    await user.click(screen.getByRole('button', { name: /Finance/ }));
    const info = screen.getByRole('dialog', { name: 'Finance' });
    expect(info).toHaveTextContent('Support contact: Ann Lee');
    expect(screen.getByRole('link', { name: 'ann@acme.test' })).toHaveAttribute(
      'href',
      'mailto:ann@acme.test',
    );
  });

  it('names nobody when the team has no buddy', async () => {
    const user = userEvent.setup();
    renderWithQuery(<SpaceToolbar space={team(null)} />);
    await user.click(screen.getByRole('button', { name: /Finance/ }));
    expect(screen.getByRole('dialog', { name: 'Finance' })).not.toHaveTextContent(
      'Support contact',
    );
  });
});
