// A shared collection's teams in its details (decision 0086): listed for everyone who sees it,
// and its owner may stop sharing with one.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { PROFILE } from '../../../test/menu-fixture';
import { makeShare, OTHER } from '../../../test/panels-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import type { Container } from '../../../lib/menu/locate-item';
import { CollectionDetails } from './collection-details';

const TEAMS = [
  { id: 't1', name: 'Engineering' },
  { id: 't2', name: 'Design' },
];

function render(creator: string) {
  const share = { ...makeShare('c9', creator), teams: TEAMS } as Container;
  renderWithQuery(
    <CollectionDetails collection={share} profileId={PROFILE.id} onClose={vi.fn()} />,
  );
  return share;
}

afterEach(() => vi.unstubAllGlobals());

describe('CollectionDetails teams', () => {
  it('lists the teams, and lets the owner stop sharing with one', async () => {
    const { requests } = mockFetch([
      { method: 'DELETE', path: '/api/consumer/collection-shares/share-c9/teams/t2', status: 204 },
    ]);
    render(PROFILE.id);
    const list = screen.getByText('Teams').nextElementSibling as HTMLElement;
    expect(within(list).getByText(/Everyone in these teams sees it/)).toBeVisible();
    expect(within(list).getByText('Engineering')).toBeVisible();
    await userEvent.click(within(list).getByRole('button', { name: 'Stop sharing with Design' }));
    await vi.waitFor(() =>
      expect(requests).toMatchObject([
        { method: 'DELETE', url: '/api/consumer/collection-shares/share-c9/teams/t2' },
      ]),
    );
  });

  it('shows the server’s refusal', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch([
      {
        method: 'DELETE',
        path: '/api/consumer/collection-shares/share-c9/teams/t1',
        status: 403,
        body: {
          code: 'FORBIDDEN',
          message: 'Only the person who owns this shared collection can do that.',
        },
      },
    ]);
    render(PROFILE.id);
    await userEvent.click(screen.getByRole('button', { name: 'Stop sharing with Engineering' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only the person who owns this shared collection can do that.',
    );
  });

  it('lists them without a button for a member', () => {
    render(OTHER.id);
    expect(screen.getByText('Design')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Stop sharing/ })).not.toBeInTheDocument();
  });
});
