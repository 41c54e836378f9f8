import type { PersonRow, TeamMember } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerTexts } from '../../../lib/i18n';
import { adminEn } from '../../../lib/locales/admin';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { RemoveFromTeamDialog } from './people-remove-from-team';
import { PeopleTab } from './people-tab';

beforeAll(() => registerTexts('admin', adminEn));
afterEach(() => clearSession());

const person = (id: string, name: string): PersonRow => ({
  id,
  name,
  email: `${id}@example.com`,
  role: 'member',
  status: 'active',
  lastSignInAt: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  hasPassword: true,
  hasSso: false,
  secondFactor: false,
  teamCount: 1,
  teams: ['Finance'],
});
const people = [person('p1', 'Ada Lovelace'), person('p2', 'Bob Byte'), person('p3', 'Cy Cole')];

const member = (id: string, sources: TeamMember['sources']): TeamMember => ({
  id,
  name: id,
  email: `${id}@example.com`,
  status: 'active',
  role: 'member',
  addedAt: '2026-03-01T10:00:00.000Z',
  sources,
});

const routesFor = (members: TeamMember[], mappedTeam: string | null = null): MockRoute[] => [
  { path: '/api/admin/people', status: 200, body: { items: people, nextCursor: null } },
  {
    path: '/api/admin/teams',
    status: 200,
    body: {
      items: [{ id: 't-fin', name: 'Finance', memberCount: 2, editorCount: 0, buddy: null }],
      next: null,
    },
  },
  { path: '/api/admin/teams/t-fin/members', status: 200, body: { items: members, next: null } },
  {
    path: '/api/admin/sso-groups',
    status: 200,
    body: {
      items: [
        {
          providerId: 'okta',
          name: 'Okta',
          claim: 'groups',
          mappings: mappedTeam
            ? [
                {
                  group: 'fin',
                  teamId: mappedTeam,
                  teamName: 'Finance',
                  role: 'member',
                  admin: false,
                },
              ]
            : [],
        },
      ],
    },
  },
];

function open(routes: MockRoute[]) {
  setSessionToken('session-token');
  const mock = mockFetch(routes);
  const user = userEvent.setup();
  renderWithQuery(<PeopleTab />);
  return { ...mock, user };
}

/** Chooses everyone in the list and opens the dialog on Finance, up to its confirmation. */
async function toConfirmation(user: ReturnType<typeof userEvent.setup>) {
  for (const name of ['Ada Lovelace', 'Bob Byte', 'Cy Cole']) {
    await user.click(await screen.findByRole('checkbox', { name: `Select ${name}` }));
  }
  await user.click(screen.getByRole('button', { name: 'Remove from team' }));
  const dialog = screen.getByRole('dialog', { name: 'Remove the people chosen from a team' });
  // No team chosen: said, and nothing asked.
  await user.click(within(dialog).getByRole('button', { name: 'Remove from team' }));
  expect(await within(dialog).findByText('Choose a team.')).toBeInTheDocument();
  await within(dialog).findByRole('option', { name: 'Finance' });
  await user.selectOptions(within(dialog).getByLabelText('Team'), 't-fin');
  await user.click(within(dialog).getByRole('button', { name: 'Remove from team' }));
  return dialog;
}

const removals = (requests: ReturnType<typeof mockFetch>['requests']) =>
  requests.filter((r) => r.method === 'POST' && r.url.endsWith('/members/remove'));

describe('people tab: remove the people chosen from a team', () => {
  it('confirms with the team and the count, warns that SCIM may add them again, and says the result', async () => {
    const { user, requests } = open([
      ...routesFor([member('p1', ['scim']), member('p2', ['console'])]),
      {
        method: 'POST',
        path: '/api/admin/teams/t-fin/members/remove',
        status: 200,
        body: { changed: 1 },
      },
    ]);
    const dialog = await toConfirmation(user);
    expect(await within(dialog).findByText(/Remove 3 people from Finance\?/)).toBeVisible();
    await waitFor(() => expect(dialog).toHaveTextContent('it may add them again'));
    // Focus is on the safe answer.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(removals(requests)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Remove from Finance' }));
    expect(
      await screen.findByText('Removed 1 person from Finance; 2 were not in it.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(removals(requests).map((r) => [r.url, r.body])).toEqual([
      ['/api/admin/teams/t-fin/members/remove', { userIds: ['p1', 'p2', 'p3'] }],
    ]);
    // The selection is done with.
    expect(screen.queryByRole('toolbar')).toBeNull();
  });

  it('warns too when a single sign-on group gives the team', async () => {
    const { user } = open(routesFor([member('p1', ['console'])], 't-fin'));
    const dialog = await toConfirmation(user);
    await waitFor(() => expect(dialog).toHaveTextContent(/single sign-on.*may add them again/));
  });

  it('does not warn for a team made by hand only; Cancel sends nothing', async () => {
    const { user, requests } = open([
      ...routesFor([member('p1', ['console']), member('p2', ['console'])]),
      {
        method: 'POST',
        path: '/api/admin/teams/t-fin/members/remove',
        status: 200,
        body: { changed: 3 },
      },
    ]);
    const dialog = await toConfirmation(user);
    const yes = within(dialog).getByRole('button', { name: 'Remove from Finance' });
    await waitFor(() => expect(yes).toBeEnabled());
    expect(dialog).toHaveTextContent('Remove 3 people from Finance?');
    expect(dialog).not.toHaveTextContent('may add them again');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(removals(requests)).toEqual([]);
    // Back to choosing the team; now removed.
    await user.click(within(dialog).getByRole('button', { name: 'Remove from team' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove from Finance' }));
    expect(await screen.findByText('Removed 3 people from Finance.')).toBeInTheDocument();
  });

  it('says a refusal naming the team, and keeps the dialog open', async () => {
    const { user } = open([
      ...routesFor([]),
      {
        method: 'POST',
        path: '/api/admin/teams/t-fin/members/remove',
        status: 404,
        body: { message: 'Person p2 was not found' },
      },
    ]);
    const dialog = await toConfirmation(user);
    await user.click(within(dialog).getByRole('button', { name: 'Remove from Finance' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Nobody was removed from Finance: Person p2 was not found',
    );
  });

  it('removes more than 100 people in calls of 100, and says when nobody was in the team', async () => {
    setSessionToken('session-token');
    const { requests } = mockFetch([
      ...routesFor([]).slice(1),
      {
        method: 'POST',
        path: '/api/admin/teams/t-fin/members/remove',
        status: 200,
        body: { changed: 0 },
      },
    ]);
    const ids = Array.from({ length: 250 }, (_, i) => `p${i}`);
    const onDone = vi.fn();
    const user = userEvent.setup();
    renderWithQuery(<RemoveFromTeamDialog ids={ids} onClose={() => {}} onDone={onDone} />);
    const dialog = screen.getByRole('dialog');
    await within(dialog).findByRole('option', { name: 'Finance' });
    await user.selectOptions(within(dialog).getByLabelText('Team'), 't-fin');
    await user.click(within(dialog).getByRole('button', { name: 'Remove from team' }));
    expect(dialog).toHaveTextContent('Remove 250 people from Finance?');
    const yes = within(dialog).getByRole('button', { name: 'Remove from Finance' });
    await waitFor(() => expect(yes).toBeEnabled());
    await user.click(yes);
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('Nobody chosen was in Finance.', true));
    expect(removals(requests).map((r) => (r.body as { userIds: string[] }).userIds.length)).toEqual(
      [100, 100, 50],
    );
  });
});
