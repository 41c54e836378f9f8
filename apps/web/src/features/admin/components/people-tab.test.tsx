import type { PersonRow } from '@signpost/contract';
import { readFileSync } from 'node:fs';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerTexts } from '../../../lib/i18n';
import { adminEn } from '../../../lib/locales/admin';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { PeopleTab } from './people-tab';

beforeAll(() => registerTexts('admin', adminEn));
afterEach(() => clearSession());

const person = (over: Partial<PersonRow>): PersonRow => ({
  id: 'p1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'member',
  status: 'active',
  lastSignInAt: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  hasPassword: true,
  hasSso: false,
  secondFactor: false,
  teamCount: 0,
  teams: [],
  ...over,
});
const ada = person({});
const bob = person({
  id: 'p2',
  name: 'Bob Admin',
  email: 'bob@example.com',
  role: 'admin',
  teamCount: 7,
  teams: ['A', 'B', 'C', 'D', 'E'],
});

function open(routes: MockRoute[]) {
  setSessionToken('session-token');
  const mock = mockFetch(routes);
  const user = userEvent.setup();
  renderWithQuery(<PeopleTab />);
  return { ...mock, user };
}

const list = (items: PersonRow[], nextCursor: string | null = null): MockRoute => ({
  path: '/api/admin/people',
  status: 200,
  body: { items, nextCursor },
});

describe('people tab', () => {
  it('lists people with role, teams and last sign-in, and searches on the server', async () => {
    const { user, requests } = open([list([ada, bob])]);
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('A, B, C, D, E and 2 more')).toBeInTheDocument();
    expect(screen.getAllByText('Never').length).toBeGreaterThan(0);
    await user.type(screen.getByRole('searchbox', { name: 'Search people' }), '50%');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'admin');
    await waitFor(() =>
      expect(requests.some((r) => r.url.includes('q=50%25') && r.url.includes('role=admin'))).toBe(
        true,
      ),
    );
  });

  it('filters by a team of the organization', async () => {
    const { user, requests } = open([
      list([ada]),
      {
        path: '/api/admin/teams',
        status: 200,
        body: {
          items: [{ id: 't-design', name: 'Design', memberCount: 3, editorCount: 1, buddy: null }],
          next: null,
        },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    const team = screen.getByRole('combobox', { name: 'Team' });
    await waitFor(() => expect(within(team).getByRole('option', { name: 'Design' })).toBeTruthy());
    await user.selectOptions(team, 't-design');
    await waitFor(() =>
      expect(
        requests.some(
          (r) => r.url.startsWith('/api/admin/people') && r.url.includes('team=t-design'),
        ),
      ).toBe(true),
    );
  });

  it('filters by any team of many: teams are searched and paged on the server', async () => {
    const teams = [
      ...Array.from({ length: 120 }, (_, i) => {
        const n = String(i + 1).padStart(3, '0');
        return { id: `t-${n}`, name: `Team ${n}` };
      }),
      { id: 't-zeta', name: 'Zeta Lab' },
    ].map((team) => ({ ...team, memberCount: 1, editorCount: 0, buddy: null, createdAt: '' }));
    setSessionToken('session-token');
    const { requests, fetchMock } = mockFetch([list([ada])]);
    const others = fetchMock.getMockImplementation()!;
    const teamRequests: URL[] = [];
    fetchMock.mockImplementation(async (input, init) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname !== '/api/admin/teams') return others(input, init);
      teamRequests.push(url);
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit'));
      const after = url.searchParams.get('after');
      const matching = teams.filter((team) => team.name.toLowerCase().includes(query));
      const start = after ? matching.findIndex((team) => team.id === after) + 1 : 0;
      const items = matching.slice(start, start + limit);
      const next = start + limit < matching.length ? (items.at(-1)?.id ?? null) : null;
      return new Response(JSON.stringify({ items, next }), { status: 200 });
    });
    const user = userEvent.setup();
    renderWithQuery(<PeopleTab />);
    await screen.findByText('Ada Lovelace');
    const team = screen.getByRole('combobox', { name: 'Team' });
    await waitFor(() => expect(within(team).getAllByRole('option')).toHaveLength(51));
    await user.click(screen.getByRole('button', { name: 'More teams' }));
    await waitFor(() => expect(within(team).getAllByRole('option')).toHaveLength(101));
    expect(teamRequests.at(-1)?.searchParams.get('after')).toBe('t-050');

    // Beyond what is listed: found by name on the server.
    expect(within(team).queryByRole('option', { name: 'Zeta Lab' })).toBeNull();
    await user.type(screen.getByRole('searchbox', { name: 'Find a team' }), 'zeta');
    await waitFor(() =>
      expect(
        within(team)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Any', 'Zeta Lab']),
    );
    expect(teamRequests.at(-1)?.searchParams.get('query')).toBe('zeta');
    await user.selectOptions(team, 't-zeta');
    await waitFor(() =>
      expect(
        requests.some(
          (r) => r.url.startsWith('/api/admin/people') && r.url.includes('team=t-zeta'),
        ),
      ).toBe(true),
    );
    // The chosen team stays chosen when the search changes.
    await user.clear(screen.getByRole('searchbox', { name: 'Find a team' }));
    await waitFor(() => expect(within(team).getAllByRole('option')).toHaveLength(102));
    expect(team).toHaveValue('t-zeta');
    expect(within(team).getByRole('option', { name: 'Zeta Lab' })).toBeInTheDocument();
  });

  it('at phone size, each person is a card whose values are named (no sideways scrolling)', async () => {
    open([list([ada, bob])]);
    const row = (await screen.findByText('Bob Admin')).closest('tr')!;
    const labelled = [...row.querySelectorAll('td[data-label]')].map((cell) => [
      cell.getAttribute('data-label'),
      cell.textContent,
    ]);
    expect(labelled).toEqual([
      ['Role', 'Administrator'],
      ['Status', 'Active'],
      ['Teams', 'A, B, C, D, E and 2 more'],
      ['Last sign-in', 'Never'],
    ]);
    // Name, e-mail, selection and actions stay reachable in the card.
    expect(within(row).getByRole('checkbox', { name: 'Select Bob Admin' })).toBeInTheDocument();
    expect(within(row).getByText('bob@example.com')).toBeInTheDocument();
    expect(row.querySelector('summary')).toHaveAccessibleName('Actions for Bob Admin');
    // The console's stylesheet turns the rows into cards at 600 px and below, naming values.
    // (Read from disk: the test runner does not load stylesheets.)
    const adminCss = readFileSync(`${import.meta.dirname}/../admin.css`, 'utf8');
    const phone = /@media \(max-width: 600px\) \{([\s\S]*?)\n\}/.exec(adminCss)?.[1] ?? '';
    expect(phone).toMatch(/\.people-table tr \{[^}]*display: grid;/);
    expect(phone).toMatch(/\.people-table td \{[^}]*display: block;/);
    expect(phone).toMatch(/td\[data-label\]::before \{[^}]*content: attr\(data-label\)/);
    expect(phone).toMatch(/\.people-table thead \{[^}]*position: absolute;/);
  });

  it('loads the next page with the cursor', async () => {
    const { user, routes, requests } = open([list([ada], 'next-1')]);
    await screen.findByText('Ada Lovelace');
    routes.unshift({
      path: '/api/admin/people',
      status: 200,
      body: { items: [bob], nextCursor: null },
    });
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('Bob Admin')).toBeInTheDocument();
    expect(requests.at(-1)?.url).toContain('cursor=next-1');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('invites without mail configured: says so, and shows the link to copy', async () => {
    const link = 'https://links.example.com/#invitation=abc';
    const { user, requests } = open([
      list([ada]),
      {
        method: 'POST',
        path: '/api/admin/people/invitations',
        status: 201,
        body: {
          person: person({ id: 'p9', email: 'new@example.com', status: 'invited' }),
          expiresAt: '2026-03-08T10:00:00.000Z',
          mail: 'not-configured',
          mailed: false,
          link,
        },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a person' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'New Person');
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await screen.findByDisplayValue(link)).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'No mail is set up: copy this link and send it to new@example.com. It works for 7 days, once.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy the link' })).toBeInTheDocument();
    expect(within(dialog).queryByText(/mail to new@example.com/)).toBeNull();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'New Person',
      email: 'new@example.com',
      role: 'member',
    });
    // Nothing to follow: the person is not read for a mail that does not exist.
    expect(requests.some((r) => r.url === '/api/admin/people/p9')).toBe(false);
  });

  it('says the mail could not be queued, and still gives the link to copy', async () => {
    const link = 'https://links.example.com/#invitation=def';
    const { user } = open([
      list([ada]),
      {
        method: 'POST',
        path: '/api/admin/people/invitations',
        status: 201,
        body: {
          person: person({ id: 'p9', email: 'new@example.com', status: 'invited' }),
          expiresAt: '2026-03-08T10:00:00.000Z',
          mail: 'not-queued',
          mailed: false,
          link,
        },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a person' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'New Person');
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByDisplayValue(link)).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'The invitation mail to new@example.com could not be sent: the mail queue did not take it. Copy this link and send it to new@example.com yourself. It works for 7 days, once.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/No mail is set up/)).toBeNull();
  });

  it('says the mail is queued, then what the mail server made of it', async () => {
    const invited = person({ id: 'p9', email: 'new@example.com', status: 'invited' });
    const page = (mail: string | null): MockRoute => ({
      path: '/api/admin/people/p9',
      status: 200,
      body: {
        ...invited,
        invitation: {
          createdAt: '2026-03-01T10:00:00.000Z',
          expiresAt: '2026-03-08T10:00:00.000Z',
          mail,
          mailAt: '2026-03-01T10:00:01.000Z',
        },
      },
    });
    const { user, routes, requests } = open([
      list([ada]),
      page('queued'),
      {
        method: 'POST',
        path: '/api/admin/people/invitations',
        status: 201,
        body: {
          person: invited,
          expiresAt: '2026-03-08T10:00:00.000Z',
          mail: 'queued',
          mailed: true,
          link: null,
        },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a person' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'New Person');
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    const said = await within(dialog).findByRole('status');
    expect(said).toHaveTextContent(
      'An invitation mail to new@example.com is queued to be sent. Its link works for 7 days, once.',
    );
    // No link while a mail carries it.
    expect(within(dialog).queryByRole('button', { name: 'Copy the link' })).toBeNull();
    expect(within(dialog).queryByRole('textbox', { name: 'Invitation link' })).toBeNull();
    await waitFor(() =>
      expect(requests.filter((r) => r.url === '/api/admin/people/p9').length).toBe(1),
    );
    // The mail server refuses it for now, then accepts it: the dialog follows.
    routes[1] = page('retrying');
    await waitFor(
      () =>
        expect(said).toHaveTextContent(
          'The mail server has not accepted the invitation mail to new@example.com yet. It is tried again for about 20 minutes; their page says how it went.',
        ),
      { timeout: 4000 },
    );
    routes[1] = page('sent');
    await user.click(within(dialog).getByRole('button', { name: 'Back to People' }));
    // Closed: read no more.
    const reads = requests.filter((r) => r.url === '/api/admin/people/p9').length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(requests.filter((r) => r.url === '/api/admin/people/p9').length).toBe(reads);
  }, 15_000);

  it.each([
    [
      'sent',
      'The invitation mail to new@example.com was sent: the mail server accepted it. Its link works for 7 days, once.',
    ],
    [
      'failed',
      'The invitation mail to new@example.com could not be sent: the mail server did not accept it. Send the invitation again later, or ask whoever runs Signpost to check its mail settings.',
    ],
  ])('says what the mail server made of it: %s', async (mail, text) => {
    const invited = person({ id: 'p9', email: 'new@example.com', status: 'invited' });
    const { user } = open([
      list([ada]),
      {
        path: '/api/admin/people/p9',
        status: 200,
        body: {
          ...invited,
          invitation: {
            createdAt: '2026-03-01T10:00:00.000Z',
            expiresAt: '2026-03-08T10:00:00.000Z',
            mail,
            mailAt: '2026-03-01T10:00:01.000Z',
          },
        },
      },
      {
        method: 'POST',
        path: '/api/admin/people/invitations',
        status: 201,
        body: {
          person: invited,
          expiresAt: '2026-03-08T10:00:00.000Z',
          mail: 'queued',
          mailed: true,
          link: null,
        },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a person' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'New Person');
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText(text)).toHaveAttribute('role', 'status');
  });

  it('says the invitation mail was queued when mail is configured, and shows server errors', async () => {
    const { user, routes } = open([
      list([ada]),
      {
        method: 'POST',
        path: '/api/admin/people/invitations',
        status: 409,
        body: { message: 'Someone already has this e-mail address.' },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a person' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Ada');
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(
      await within(dialog).findByText('Someone already has this e-mail address.'),
    ).toBeInTheDocument();
    routes.unshift({
      method: 'POST',
      path: '/api/admin/people/invitations',
      status: 201,
      body: {
        person: person({ email: 'x@example.com', status: 'invited' }),
        expiresAt: '2026-03-08T10:00:00.000Z',
        mail: 'queued',
        mailed: true,
        link: null,
      },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(
      await screen.findByText(/An invitation mail to x@example.com is queued to be sent/),
    ).toBeInTheDocument();
  });

  it('disables a person from their actions menu, and shows a refused demotion', async () => {
    const { user, requests } = open([
      list([ada, bob]),
      {
        method: 'PATCH',
        path: '/api/admin/people/p1',
        status: 200,
        body: { ...ada, status: 'disabled' },
      },
      {
        method: 'PATCH',
        path: '/api/admin/people/p2',
        status: 409,
        body: { message: 'The organization needs at least one active administrator.' },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    const adaRow = screen.getByRole('row', { name: /Ada Lovelace/ });
    await user.click(within(adaRow).getByLabelText('Actions for Ada Lovelace'));
    await user.click(within(adaRow).getByRole('button', { name: 'Disable' }));
    // Nothing is sent before the administrator confirms, having read what disabling does.
    const confirm = await screen.findByRole('dialog', { name: 'Disable Ada Lovelace?' });
    expect(confirm).toHaveTextContent('signed out everywhere at once and can no longer sign in');
    expect(requests.some((r) => r.method === 'PATCH')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Disable Ada Lovelace' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ status: 'disabled' }),
    );
    expect(
      await screen.findByText(
        'Ada Lovelace is disabled: signed out everywhere, and can no longer sign in.',
      ),
    ).toBeInTheDocument();
    const bobRow = screen.getByRole('row', { name: /Bob Admin/ });
    await user.click(within(bobRow).getByLabelText('Actions for Bob Admin'));
    await user.click(within(bobRow).getByRole('button', { name: 'Make member' }));
    expect(await screen.findByText(/at least one active administrator/)).toBeInTheDocument();
  });

  it('bulk: selects people and disables them in one call', async () => {
    const { user, requests } = open([
      list([ada, bob]),
      {
        method: 'POST',
        path: '/api/admin/people/bulk',
        status: 200,
        body: { action: 'disable', changed: 2, unchanged: 0 },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bob Admin' }));
    const bar = screen.getByRole('toolbar', { name: '2 selected' });
    await user.click(within(bar).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('2 changed, 0 already so.')).toBeInTheDocument();
    expect(requests.find((r) => r.url.endsWith('/bulk'))?.body).toEqual({
      action: 'disable',
      ids: ['p1', 'p2'],
    });
  });

  it('deletes with the offboarding dialog: lists shared collections, transfers to a colleague', async () => {
    const { user, requests } = open([
      {
        path: '/api/admin/people/p1/offboarding',
        status: 200,
        body: {
          collections: [
            { id: 'c1', name: 'Runbooks', memberCount: 3 },
            { id: 'c2', name: 'Pairing notes', memberCount: 1 },
          ],
        },
      },
      list([ada, bob]),
      { method: 'DELETE', path: '/api/admin/people/p1', status: 204 },
    ]);
    await screen.findByText('Ada Lovelace');
    const adaRow = screen.getByRole('row', { name: /Ada Lovelace/ });
    await user.click(within(adaRow).getByLabelText('Actions for Ada Lovelace'));
    await user.click(within(adaRow).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Ada Lovelace' });
    expect(await within(dialog).findByText('Runbooks · 3 members')).toBeInTheDocument();
    // One member is one member.
    expect(within(dialog).getByText('Pairing notes · 1 member')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      within(dialog).getByText('Choose the colleague who receives the collections.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(dialog).getByRole('option', { name: 'Bob Admin (bob@example.com)' }),
      ).toBeInTheDocument(),
    );
    expect(within(dialog).queryByRole('option', { name: /Ada Lovelace/ })).not.toBeInTheDocument();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Colleague' }), 'p2');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'DELETE')?.body).toEqual({
        collections: 'transfer',
        transferTo: 'p2',
      }),
    );
  });

  const design = { id: 't-design', name: 'Design', memberCount: 3, editorCount: 1, buddy: null };
  const teamsList: MockRoute = {
    path: '/api/admin/teams',
    status: 200,
    body: { items: [design], next: null },
  };

  it('invites a person into a team, with a role there, and says so', async () => {
    const { user, requests } = open([
      list([ada]),
      teamsList,
      {
        method: 'POST',
        path: '/api/admin/people/invitations',
        status: 201,
        body: {
          person: person({ id: 'p9', name: 'New Person', status: 'invited' }),
          expiresAt: '2026-03-08T10:00:00.000Z',
          mail: 'queued',
          mailed: true,
          link: null,
        },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a person' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'New Person');
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'new@example.com');
    await within(dialog).findByRole('option', { name: 'Design' });
    await user.selectOptions(within(dialog).getByLabelText('Team (optional)'), 't-design');
    await user.selectOptions(within(dialog).getByLabelText('Role in the team'), 'editor');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(
      await within(dialog).findByText('New Person is in Design (Editor).'),
    ).toBeInTheDocument();
    // One call: the person and their place in the team, or neither.
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      {
        name: 'New Person',
        email: 'new@example.com',
        role: 'member',
        team: { id: 't-design', role: 'editor' },
      },
    ]);
    expect(within(dialog).getByRole('button', { name: 'Back to People' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Done.' })).toBeNull();
  });

  it('bulk: adds the people chosen to a team in one call, and says a refusal naming the team', async () => {
    const { user, requests, routes } = open([
      list([ada, bob]),
      teamsList,
      {
        method: 'POST',
        path: '/api/admin/teams/t-design/members',
        status: 404,
        body: { message: 'Person p2 was not found' },
      },
    ]);
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bob Admin' }));
    await user.click(screen.getByRole('button', { name: 'Add to team' }));
    const dialog = screen.getByRole('dialog', { name: 'Add the people chosen to a team' });
    // No team chosen: said, and nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Add to team' }));
    expect(await within(dialog).findByText('Choose a team.')).toBeInTheDocument();
    await within(dialog).findByRole('option', { name: 'Design' });
    await user.selectOptions(within(dialog).getByLabelText('Team'), 't-design');
    await user.click(within(dialog).getByRole('button', { name: 'Add to team' }));
    expect(
      await within(dialog).findByText('Nobody was added to Design: Person p2 was not found'),
    ).toBeInTheDocument();
    routes[2] = {
      method: 'POST',
      path: '/api/admin/teams/t-design/members',
      status: 200,
      body: { changed: 2 },
    };
    await user.click(within(dialog).getByRole('button', { name: 'Add to team' }));
    expect(await screen.findByText('2 people added to Design.')).toBeInTheDocument();
    expect(
      requests.filter((r) => r.url === '/api/admin/teams/t-design/members').map((r) => r.body),
    ).toEqual([
      { userIds: ['p1', 'p2'], role: 'member' },
      { userIds: ['p1', 'p2'], role: 'member' },
    ]);
  });

  it('opens the Actions menu upward when the row is near the bottom of the window', async () => {
    const { user } = open([list([ada])]);
    await screen.findByText('Ada Lovelace');
    const summary = screen.getByLabelText('Actions for Ada Lovelace');
    const menu = summary.parentElement!.querySelector('.people-actions__menu') as HTMLElement;
    summary.getBoundingClientRect = () => ({ top: 700, bottom: 730 }) as DOMRect;
    menu.getBoundingClientRect = () => ({ height: 240 }) as DOMRect;
    Object.defineProperty(window, 'innerHeight', { value: 768, configurable: true });
    await user.click(summary);
    await waitFor(() => expect(menu).toHaveClass('people-actions__menu--up'));
    await user.click(summary);
    summary.getBoundingClientRect = () => ({ top: 100, bottom: 130 }) as DOMRect;
    await user.click(summary);
    await waitFor(() => expect(menu).not.toHaveClass('people-actions__menu--up'));
  });

  it("links each name to the person's page in the console", async () => {
    open([list([ada])]);
    expect(await screen.findByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute(
      'href',
      '/console/people/p1',
    );
  });
});
