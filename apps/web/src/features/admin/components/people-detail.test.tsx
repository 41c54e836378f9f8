import type { PersonDetail, PersonRow } from '@signpost/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';

initI18n('en');
const { AdminConsole } = await import('./admin-console');

afterEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
});

const grace: PersonRow = {
  id: 'p1',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  role: 'member',
  status: 'active',
  lastSignInAt: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  hasPassword: true,
  hasSso: false,
  secondFactor: false,
  teamCount: 2,
  teams: ['Compilers', 'Navy'],
};

describe("a person's page in the console", () => {
  it('shows the person the address names, with their actions, and goes back to the list', async () => {
    setSessionToken('token');
    const { requests } = mockFetch([
      { path: '/api/admin/people/p1', status: 200, body: grace },
      {
        method: 'PATCH',
        path: '/api/admin/people/p1',
        status: 200,
        body: { ...grace, role: 'admin' },
      },
      { path: '/api/admin/people', status: 200, body: { items: [grace], nextCursor: null } },
    ]);
    window.history.replaceState(null, '', '/console/people/p1');
    renderWithQuery(<AdminConsole admin />);
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByText('grace@example.com')).toBeInTheDocument();
    expect(screen.getByText('Compilers, Navy')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Actions for Grace Hopper'));
    await user.click(screen.getByRole('button', { name: 'Make administrator' }));
    expect(await screen.findByText('Grace Hopper is now an administrator.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ role: 'admin' });
    await user.click(screen.getByRole('button', { name: 'All people' }));
    expect(window.location.pathname).toBe('/console/people');
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('link', { name: 'Grace Hopper' })).toBeInTheDocument();
  });

  it("says until when an invited person's link works, and what became of its mail", async () => {
    setSessionToken('token');
    const invited = (mail: PersonDetail['invitation']): PersonDetail => ({
      ...grace,
      status: 'invited',
      invitation: mail,
    });
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const mock = mockFetch([
      {
        path: '/api/admin/people/p1',
        status: 200,
        body: invited({
          createdAt: '2026-03-01T10:00:00.000Z',
          expiresAt: future,
          mail: 'sent',
          mailAt: '2026-03-01T10:00:02.000Z',
        }),
      },
    ]);
    window.history.replaceState(null, '', '/console/people/p1');
    const view = renderWithQuery(<AdminConsole admin />);
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling;
    expect(fact('Invitation')).toHaveTextContent(
      `Made ${new Date('2026-03-01T10:00:00.000Z').toLocaleString()}; its link works until ${new Date(future).toLocaleString()}`,
    );
    expect(fact('Invitation mail')).toHaveTextContent(
      `Sent ${new Date('2026-03-01T10:00:02.000Z').toLocaleString()}: the mail server accepted it`,
    );
    view.unmount();

    // Expired, and no mail went: the link was handed to the administrator.
    mock.routes[0] = {
      path: '/api/admin/people/p1',
      status: 200,
      body: invited({
        createdAt: '2026-03-01T10:00:00.000Z',
        expiresAt: '2026-03-08T10:00:00.000Z',
        mail: null,
        mailAt: null,
      }),
    };
    renderWithQuery(<AdminConsole admin />);
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    expect(fact('Invitation')).toHaveTextContent(/; its link expired /);
    expect(fact('Invitation mail')).toHaveTextContent(
      'None: the link was given to the administrator who invited them, to pass on',
    );
  });

  it('shows no invitation for someone who has none', async () => {
    setSessionToken('token');
    mockFetch([
      { path: '/api/admin/people/p1', status: 200, body: { ...grace, invitation: null } },
    ]);
    window.history.replaceState(null, '', '/console/people/p1');
    renderWithQuery(<AdminConsole admin />);
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    expect(screen.queryByText('Invitation mail')).toBeNull();
    expect(screen.getByText('Last sign-in', { selector: 'dt' })).toBeInTheDocument();
  });

  it('says so when the person is not there', async () => {
    setSessionToken('token');
    mockFetch([
      {
        path: '/api/admin/people/gone',
        status: 404,
        body: { message: 'Person gone was not found' },
      },
    ]);
    window.history.replaceState(null, '', '/console/people/gone');
    renderWithQuery(<AdminConsole admin />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Person gone was not found');
  });
});
