import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { READ_ONLY, RUNS } from '../../../test/can-fixture';
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

describe('suggesting from the space info', () => {
  const withTools = (can: typeof RUNS): DisplaySpace => ({
    ...team(null),
    collections: [
      {
        type: 'collection',
        id: 'c-tools',
        name: 'Tools',
        description: '',
        color: null,
        can,
        items: [],
      },
    ],
  });

  it("opens the first collection's details for a member, and closes the info", async () => {
    const user = userEvent.setup();
    const onSuggest = vi.fn();
    renderWithQuery(<SpaceToolbar space={withTools(READ_ONLY)} onSuggest={onSuggest} />);
    await user.click(screen.getByRole('button', { name: /Finance/ }));
    await user.click(screen.getByRole('button', { name: 'Suggest a link' }));
    expect(onSuggest).toHaveBeenCalledWith('c-tools');
    expect(screen.queryByRole('dialog', { name: 'Finance' })).not.toBeInTheDocument();
  });

  it('offers no suggestion to those who may add, nor in a space without collections', async () => {
    const user = userEvent.setup();
    const { unmount } = renderWithQuery(
      <SpaceToolbar space={withTools(RUNS)} onSuggest={vi.fn()} />,
    );
    await user.click(screen.getByRole('button', { name: /Finance/ }));
    expect(screen.getByRole('dialog', { name: 'Finance' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suggest a link' })).not.toBeInTheDocument();
    unmount();
    renderWithQuery(<SpaceToolbar space={team(null)} onSuggest={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: /Finance/ }));
    expect(screen.queryByRole('button', { name: 'Suggest a link' })).not.toBeInTheDocument();
  });
});
