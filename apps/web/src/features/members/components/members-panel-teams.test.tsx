// The add-members panel's teams (decision 0086): the person's teams to share with, those the
// collection is shared with already checked and fixed, and the chosen ones sent with the
// people — in the call that shares, or to the existing share.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { MembersPanel } from './members-panel';

const TEAMS = [
  { id: 't1', name: 'Engineering' },
  { id: 't2', name: 'Design' },
];

function stub() {
  return mockFetch([
    { method: 'GET', path: '/api/consumer/peers', status: 200, body: { items: [] } },
    { method: 'POST', path: '/api/consumer/collection-shares/', status: 204 },
    { method: 'POST', path: '/api/consumer/collection-shares/s1/teams', status: 204 },
  ]);
}

const teamsGroup = () => screen.getByRole('group', { name: 'Teams' });
const add = () => screen.getByRole('button', { name: 'Add' });

afterEach(() => vi.unstubAllGlobals());

describe('MembersPanel teams', () => {
  it('shares a collection with a team alone: Add needs a person or a team', async () => {
    const { requests } = stub();
    const onClose = vi.fn();
    renderWithQuery(
      <MembersPanel collection={{ id: 'c1', name: 'Launch' }} teams={TEAMS} onClose={onClose} />,
    );
    expect(within(teamsGroup()).getByText(/including people who join it later/)).toBeVisible();
    expect(add()).toBeDisabled();
    await userEvent.click(within(teamsGroup()).getByRole('checkbox', { name: 'Engineering' }));
    expect(add()).toBeEnabled();
    await userEvent.click(add());
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.filter((r) => r.method === 'POST')).toMatchObject([
      { body: { collectionId: 'c1', memberIds: [], teamIds: ['t1'] } },
    ]);
  });

  it('shows the teams it is shared with checked and fixed, and adds the others to the share', async () => {
    const { requests } = stub();
    renderWithQuery(
      <MembersPanel
        collection={{ id: 'c1', name: 'Launch', shareId: 's1', teams: [TEAMS[0]!] }}
        teams={TEAMS}
        onClose={vi.fn()}
      />,
    );
    const engineering = within(teamsGroup()).getByRole('checkbox', { name: /Engineering/ });
    expect(engineering).toBeChecked();
    expect(engineering).toBeDisabled();
    expect(within(teamsGroup()).getByText('Already shared')).toBeVisible();
    await userEvent.click(within(teamsGroup()).getByRole('checkbox', { name: 'Design' }));
    await userEvent.click(add());
    await vi.waitFor(() =>
      expect(requests.filter((r) => r.method === 'POST')).toMatchObject([
        { url: '/api/consumer/collection-shares/s1/teams', body: { teamIds: ['t2'] } },
      ]),
    );
  });

  it('offers no teams section to a person in no team', () => {
    stub();
    renderWithQuery(<MembersPanel collection={{ id: 'c1', name: 'Launch' }} onClose={vi.fn()} />);
    expect(screen.queryByRole('group', { name: 'Teams' })).not.toBeInTheDocument();
  });
});
