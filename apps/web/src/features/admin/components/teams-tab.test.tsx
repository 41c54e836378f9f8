import type { TeamDetail, TeamMember, TeamSummary } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { initI18n } from '../../../lib/i18n';
import { renderWithQuery } from '../../../test/render-with-query';

// The console registers its texts as it loads, which needs i18next started first (the
// portal starts it before the console can load; the test setup starts it only later).
initI18n('en');
const { AdminConsole } = await import('./admin-console');

afterEach(() => clearSession());

const ann = { id: 'u-ann', name: 'Ann Lee', email: 'ann@acme.test' };
const bob = { id: 'u-bob', name: 'Bob Roy', email: 'bob@acme.test' };
const finance: TeamSummary = {
  id: 't-fin',
  name: 'Finance',
  memberCount: 2,
  editorCount: 1,
  buddy: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const detail: TeamDetail = { ...finance, collectionCount: 3, linkCount: 12 };
const member = (person: typeof ann, role: 'member' | 'editor'): TeamMember => ({
  ...person,
  status: 'active',
  role,
  addedAt: '2026-01-02T00:00:00.000Z',
});

function open(extra: MockRoute[] = []) {
  setSessionToken('token');
  const mock = mockFetch([
    ...extra,
    { path: '/api/admin/teams', status: 200, body: { items: [finance], next: null } },
    { path: '/api/admin/teams/t-fin', status: 200, body: detail },
    {
      path: '/api/admin/teams/t-fin/members',
      status: 200,
      body: { items: [member(ann, 'editor'), member(bob, 'member')], next: null },
    },
  ]);
  const user = userEvent.setup();
  renderWithQuery(<AdminConsole admin onClose={() => {}} initialTab="teams" />);
  return { ...mock, user };
}

const sent = (requests: { method: string; url: string; body: unknown }[], method: string) =>
  requests.filter((r) => r.method === method);

describe('teams tab', () => {
  it('lists teams with their counts and creates one', async () => {
    const { user, requests } = open([
      {
        method: 'POST',
        path: '/api/admin/teams',
        status: 201,
        body: { ...detail, id: 't-new', name: 'Legal' },
      },
    ]);
    expect(await screen.findByRole('button', { name: 'Manage Finance' })).toBeInTheDocument();
    expect(screen.getByText(/2 members · 1 editor/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('New team name'), 'Legal');
    await user.click(screen.getByRole('button', { name: 'Create team' }));
    expect(await screen.findByText('Team Legal created.')).toBeInTheDocument();
    expect(sent(requests, 'POST')).toEqual([expect.objectContaining({ body: { name: 'Legal' } })]);
  });

  it("shows the server's sentence when a name is taken", async () => {
    const { user } = open([
      {
        method: 'POST',
        path: '/api/admin/teams',
        status: 409,
        body: {
          message:
            'A team named "Finance" already exists in this organization; choose another name.',
        },
      },
    ]);
    await user.type(await screen.findByLabelText('New team name'), 'finance');
    await user.click(screen.getByRole('button', { name: 'Create team' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('already exists');
  });

  it('deletes a team only after the counts are confirmed, sending them', async () => {
    const { user, requests } = open([
      { method: 'DELETE', path: '/api/admin/teams/t-fin', status: 204 },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Manage Finance' }));
    await user.click(await screen.findByRole('button', { name: 'Delete team' }));
    expect(screen.getByText(/also deletes its 3 collections and 12 links/)).toBeInTheDocument();
    expect(sent(requests, 'DELETE')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete Finance with its content' }));
    await waitFor(() =>
      expect(sent(requests, 'DELETE')[0]?.url).toBe(
        '/api/admin/teams/t-fin?collections=3&links=12',
      ),
    );
    expect(await screen.findByText('Team Finance deleted.')).toBeInTheDocument();
  });

  it('removes selected members at once, toggles editors and chooses the buddy', async () => {
    const { user, requests } = open([
      {
        method: 'POST',
        path: '/api/admin/teams/t-fin/members/remove',
        status: 200,
        body: { changed: 2 },
      },
      { method: 'PATCH', path: '/api/admin/teams/t-fin/members/u-bob', status: 204 },
      {
        method: 'PATCH',
        path: '/api/admin/teams/t-fin',
        status: 200,
        body: { ...detail, buddy: ann },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Manage Finance' }));
    const members = await screen.findByRole('region', { name: 'Members' });
    await within(members).findByRole('checkbox', { name: 'Select Bob Roy' });
    await user.click(within(members).getAllByRole('button', { name: 'Make editor' })[0]!);
    await waitFor(() =>
      expect(sent(requests, 'PATCH')).toEqual([
        expect.objectContaining({
          url: '/api/admin/teams/t-fin/members/u-bob',
          body: { role: 'editor' },
        }),
      ]),
    );
    await user.selectOptions(within(members).getByLabelText('Buddy (support contact)'), 'u-ann');
    await waitFor(() =>
      expect(sent(requests, 'PATCH')[1]).toMatchObject({ body: { buddyId: 'u-ann' } }),
    );
    await user.click(within(members).getByRole('checkbox', { name: 'Select Ann Lee' }));
    await user.click(within(members).getByRole('checkbox', { name: 'Select Bob Roy' }));
    await user.click(within(members).getByRole('button', { name: 'Remove 2 selected' }));
    await waitFor(() =>
      expect(sent(requests, 'POST')).toEqual([
        expect.objectContaining({ body: { userIds: ['u-ann', 'u-bob'] } }),
      ]),
    );
    expect(await screen.findByText('2 people removed.')).toBeInTheDocument();
  });

  it('finds people and adds several at once; a disabled person is not offered', async () => {
    const row = (id: string, name: string, status: string) => ({
      id,
      name,
      email: `${id}@acme.test`,
      role: 'member',
      status,
    });
    const carl = row('u-carl', 'Carl Dee', 'active');
    const dana = row('u-dana', 'Dana Fox', 'invited');
    const eve = row('u-eve', 'Eve Gone', 'disabled');
    const { user, requests } = open([
      {
        path: '/api/admin/people',
        status: 200,
        body: { items: [carl, dana, eve], nextCursor: null },
      },
      { method: 'POST', path: '/api/admin/teams/t-fin/members', status: 200, body: { changed: 2 } },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Manage Finance' }));
    await user.type(await screen.findByLabelText('Find people by name or e-mail'), 'a');
    await user.click(await screen.findByRole('checkbox', { name: 'Select Carl Dee' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Dana Fox' }));
    expect(screen.queryByRole('checkbox', { name: 'Select Eve Gone' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add 2 selected' }));
    await waitFor(() =>
      expect(sent(requests, 'POST')).toEqual([
        expect.objectContaining({ body: { userIds: ['u-carl', 'u-dana'] } }),
      ]),
    );
    expect(await screen.findByText('2 people added.')).toBeInTheDocument();
  });
});
