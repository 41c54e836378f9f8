import type { TeamDetail, TeamMember, TeamSummary } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { initI18n } from '../../../lib/i18n';
import { renderHookWithQuery, renderWithQuery } from '../../../test/render-with-query';
import { useUpdatePerson, usePeople } from '../api/people';
import { useTeamMembers, useTeamWrites } from '../api/teams';

// The console registers its texts as it loads, which needs i18next started first (the
// portal starts it before the console can load; the test setup starts it only later).
initI18n('en');
const { AdminConsole } = await import('./admin-console');

// The console's address would stay for the next file of the worker, which shares the page.
afterEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
});

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
  sources: ['console'],
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
  window.history.replaceState(null, '', '/console/teams');
  renderWithQuery(<AdminConsole admin />);
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
    const manage = await screen.findByRole('link', { name: 'Manage Finance' });
    // An address of its own: a new tab, a bookmark or a copied link opens the team's page.
    expect(manage.getAttribute('href')).toMatch(/^\/console\/teams\/[^/]+$/);
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
    await user.click(await screen.findByRole('link', { name: 'Manage Finance' }));
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
    await user.click(await screen.findByRole('link', { name: 'Manage Finance' }));
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
    // The confirmation says what happened, not the button's words.
    expect(await screen.findByText('Bob Roy is now an editor of Finance.')).toBeInTheDocument();
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

  it('shows where a membership came from, except one made only by hand', async () => {
    const cy = { id: 'u-cy', name: 'Cy Day', email: 'cy@acme.test' };
    open([
      {
        path: '/api/admin/teams/t-fin/members',
        status: 200,
        body: {
          items: [
            member(ann, 'editor'),
            { ...member(bob, 'member'), sources: ['scim'] },
            { ...member(cy, 'member'), sources: ['console', 'sign-in'] },
          ],
          next: null,
        },
      },
    ]);
    window.history.replaceState(null, '', '/console/teams/t-fin');
    const members = await screen.findByRole('region', { name: 'Members' });
    const row = async (name: string) =>
      (await within(members).findByRole('checkbox', { name: `Select ${name}` })).closest('li')!;
    const annRow = await row('Ann Lee');
    const bobRow = await row('Bob Roy');
    const cyRow = await row('Cy Day');
    // Made by hand only: nothing more to say.
    expect(within(annRow).queryByText(/^(Console|SCIM|Sign-in)$/)).toBeNull();
    expect(annRow).not.toHaveTextContent(/Added by/);
    // The badges follow the role, each with its description for screen readers.
    const scim = within(bobRow).getByText('SCIM');
    expect(scim.closest('.admin-source')).toHaveAttribute('title', 'Added by SCIM');
    expect(within(bobRow).getByText('Added by SCIM')).toHaveClass('visually-hidden');
    expect(within(cyRow).getByText('Console')).toBeVisible();
    expect(within(cyRow).getByText('Sign-in')).toBeVisible();
    expect(cyRow).toHaveTextContent(/Added by hand in the console.*Added at sign-in/);
  });

  it('asks before removing a membership the identity system holds, saying it may come back', async () => {
    const { user, requests } = open([
      {
        path: '/api/admin/teams/t-fin/members',
        status: 200,
        body: {
          items: [
            member(ann, 'editor'),
            { ...member(bob, 'member'), sources: ['console', 'scim'] },
          ],
          next: null,
        },
      },
      {
        method: 'POST',
        path: '/api/admin/teams/t-fin/members/remove',
        status: 200,
        body: { changed: 2 },
      },
    ]);
    window.history.replaceState(null, '', '/console/teams/t-fin');
    const members = await screen.findByRole('region', { name: 'Members' });
    await user.click(await within(members).findByRole('checkbox', { name: 'Select Ann Lee' }));
    await user.click(within(members).getByRole('checkbox', { name: 'Select Bob Roy' }));
    await user.click(within(members).getByRole('button', { name: 'Remove 2 selected' }));
    const question = within(members).getByRole('group', { name: 'Remove 2 selected' });
    expect(question).toHaveTextContent(
      'Remove 2 people from Finance? The identity system may add them again at its next sync.',
    );
    expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(sent(requests, 'POST')).toEqual([]);
    // Cancelled, nothing is sent; asked again, the removal goes.
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(within(members).queryByRole('group', { name: 'Remove 2 selected' })).toBeNull();
    await waitFor(() =>
      expect(within(members).getByRole('button', { name: 'Remove 2 selected' })).toHaveFocus(),
    );
    expect(sent(requests, 'POST')).toEqual([]);
    await user.click(within(members).getByRole('button', { name: 'Remove 2 selected' }));
    await user.click(
      within(within(members).getByRole('group', { name: 'Remove 2 selected' })).getByRole(
        'button',
        { name: 'Remove' },
      ),
    );
    await waitFor(() =>
      expect(sent(requests, 'POST')).toEqual([
        expect.objectContaining({ body: { userIds: ['u-ann', 'u-bob'] } }),
      ]),
    );
    expect(await screen.findByText('2 people removed.')).toBeInTheDocument();
  });

  it('removes a membership made only by hand without the sync sentence', async () => {
    const { user, requests } = open([
      {
        method: 'POST',
        path: '/api/admin/teams/t-fin/members/remove',
        status: 200,
        body: { changed: 1 },
      },
    ]);
    window.history.replaceState(null, '', '/console/teams/t-fin');
    const members = await screen.findByRole('region', { name: 'Members' });
    await user.click(await within(members).findByRole('checkbox', { name: 'Select Bob Roy' }));
    await user.click(within(members).getByRole('button', { name: 'Remove 1 selected' }));
    await waitFor(() => expect(sent(requests, 'POST')).toHaveLength(1));
    expect(screen.queryByText(/may add them again/)).toBeNull();
    expect(await screen.findByText('1 person removed.')).toBeInTheDocument();
  });

  it('says so when nobody matches the search for people to add', async () => {
    const { user } = open([
      { path: '/api/admin/people', status: 200, body: { items: [], nextCursor: null } },
    ]);
    await user.click(await screen.findByRole('link', { name: 'Manage Finance' }));
    expect(screen.queryByText('Nobody matches.')).toBeNull();
    await user.type(await screen.findByLabelText('Find people by name or e-mail'), 'zzz');
    expect(await screen.findByText('Nobody matches.')).toBeInTheDocument();
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
    await user.click(await screen.findByRole('link', { name: 'Manage Finance' }));
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

  it('shows whoever was just added as a member at once, while the search is read again', async () => {
    const carl = {
      id: 'u-carl',
      name: 'Carl Dee',
      email: 'carl@acme.test',
      role: 'member',
      status: 'active',
    };
    const peopleRoute: MockRoute = {
      path: '/api/admin/people',
      status: 200,
      body: { items: [carl], nextCursor: null },
    };
    const membersRoute: MockRoute = {
      path: '/api/admin/teams/t-fin/members',
      status: 200,
      body: { items: [member(ann, 'editor'), member(bob, 'member')], next: null },
    };
    const { user, requests } = open([
      peopleRoute,
      { method: 'POST', path: '/api/admin/teams/t-fin/members', status: 200, body: { changed: 1 } },
      membersRoute,
    ]);
    await user.click(await screen.findByRole('link', { name: 'Manage Finance' }));
    const search = await screen.findByLabelText('Find people by name or e-mail');
    const results = screen.getByRole('list', { name: 'Add people' });
    await user.type(search, 'carl');
    await user.click(await within(results).findByRole('checkbox', { name: 'Select Carl Dee' }));

    // The search's next answer is slow; the team's list already has Carl.
    let answer = () => {};
    peopleRoute.held = new Promise<void>((resolve) => (answer = resolve));
    membersRoute.body = {
      items: [
        member(ann, 'editor'),
        member(bob, 'member'),
        { ...carl, addedAt: '2026-01-03T00:00:00.000Z', sources: ['console'] },
      ],
      next: null,
    };
    await user.click(screen.getByRole('button', { name: 'Add 1 selected' }));
    const members = screen.getByRole('region', { name: 'Members' });
    await waitFor(() =>
      expect(within(members).getAllByRole('checkbox', { name: 'Select Carl Dee' })).toHaveLength(1),
    );
    expect(
      within(results)
        .getByText(/Carl Dee/)
        .closest('li'),
    ).toHaveTextContent('already a member');
    expect(screen.queryByRole('button', { name: 'Add 1 selected' })).toBeNull();
    expect(screen.queryByText('1 person added.')).toBeNull();

    // The answer comes, and says so too.
    answer();
    expect(await screen.findByText('1 person added.')).toBeInTheDocument();
    expect(
      within(results)
        .getByText(/Carl Dee/)
        .closest('li'),
    ).toHaveTextContent('already a member');
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('keeps the search after an add; the list and the results follow the server after each add', async () => {
    const row = (id: string, name: string, status: 'active' | 'invited') => ({
      id,
      name,
      email: `${id}@acme.test`,
      role: 'member',
      status,
    });
    const carl = row('u-carl', 'Carl Dee', 'active');
    const dana = row('u-dana', 'Dana Fox', 'invited');
    const joined = (person: ReturnType<typeof row>): TeamMember => ({
      ...person,
      role: 'member',
      addedAt: '2026-01-03T00:00:00.000Z',
      sources: ['console'],
    });
    const membersRoute: MockRoute = {
      path: '/api/admin/teams/t-fin/members',
      status: 200,
      body: { items: [member(ann, 'editor'), member(bob, 'member')], next: null },
    };
    const { user, requests } = open([
      { path: '/api/admin/people', status: 200, body: { items: [carl, dana], nextCursor: null } },
      { method: 'POST', path: '/api/admin/teams/t-fin/members', status: 200, body: { changed: 1 } },
      membersRoute,
    ]);
    await user.click(await screen.findByRole('link', { name: 'Manage Finance' }));
    const members = await screen.findByRole('region', { name: 'Members' });
    const search = await screen.findByLabelText('Find people by name or e-mail');
    const results = screen.getByRole('list', { name: 'Add people' });
    const memberRow = (email: string) =>
      within(members)
        .queryAllByRole('listitem')
        .find((item) => !results.contains(item) && item.textContent?.includes(email));
    await user.type(search, 'a');

    // Dana, invited, joins: the server now has her in the team.
    await user.click(await within(results).findByRole('checkbox', { name: 'Select Dana Fox' }));
    membersRoute.body = {
      items: [member(ann, 'editor'), member(bob, 'member'), joined(dana)],
      next: null,
    };
    await user.click(screen.getByRole('button', { name: 'Add 1 selected' }));
    expect(await screen.findByText('1 person added.')).toBeInTheDocument();
    expect(search).toHaveValue('a');
    await waitFor(() =>
      expect(
        within(results)
          .getByText(/Dana Fox/)
          .closest('li'),
      ).toHaveTextContent('already a member'),
    );
    expect(within(results).queryByRole('checkbox', { name: 'Select Dana Fox' })).toBeNull();
    expect(memberRow('u-dana@acme.test')).toHaveTextContent('invited');

    // Meanwhile Dana accepted her invitation; Carl is added from the same search.
    membersRoute.body = {
      items: [
        member(ann, 'editor'),
        member(bob, 'member'),
        joined(carl),
        joined({ ...dana, status: 'active' }),
      ],
      next: null,
    };
    await user.click(within(results).getByRole('checkbox', { name: 'Select Carl Dee' }));
    await user.click(screen.getByRole('button', { name: 'Add 1 selected' }));
    await waitFor(() => expect(memberRow('u-carl@acme.test')).toBeDefined());
    expect(memberRow('u-dana@acme.test')).not.toHaveTextContent('invited');
    expect(search).toHaveValue('a');
    await waitFor(() =>
      expect(
        within(results)
          .getByText(/Carl Dee/)
          .closest('li'),
      ).toHaveTextContent('already a member'),
    );
    expect(sent(requests, 'POST').map((r) => r.body)).toEqual([
      { userIds: ['u-dana'] },
      { userIds: ['u-carl'] },
    ]);
  });

  it("a person's change reloads the teams' member lists, and a team's change the people lists", async () => {
    setSessionToken('token');
    const { requests } = mockFetch([
      {
        path: '/api/admin/teams/t-fin/members',
        status: 200,
        body: { items: [member(bob, 'member')], next: null },
      },
      { path: '/api/admin/people', status: 200, body: { items: [], nextCursor: null } },
      {
        method: 'PATCH',
        path: '/api/admin/people/u-bob',
        status: 200,
        body: { ...bob, role: 'member', status: 'disabled' },
      },
      { method: 'POST', path: '/api/admin/teams/t-fin/members', status: 200, body: { changed: 1 } },
    ]);
    const { result } = renderHookWithQuery(() => ({
      members: useTeamMembers('t-fin', ''),
      people: usePeople({}),
      update: useUpdatePerson(),
      teams: useTeamWrites(),
    }));
    await waitFor(() => expect(result.current.members.isSuccess).toBe(true));
    await waitFor(() => expect(result.current.people.isSuccess).toBe(true));
    const loads = (path: string) =>
      requests.filter((r) => r.method === 'GET' && r.url.startsWith(path)).length;
    const before = loads('/api/admin/teams/t-fin/members');
    await result.current.update.mutateAsync({ id: 'u-bob', body: { status: 'disabled' } });
    expect(loads('/api/admin/teams/t-fin/members')).toBe(before + 1);
    const people = loads('/api/admin/people');
    await result.current.teams.addMembers.mutateAsync({ id: 't-fin', body: { userIds: ['u-x'] } });
    expect(loads('/api/admin/people')).toBe(people + 1);
  });
});
