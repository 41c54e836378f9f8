import type { BrokenLink } from '@signpost/contract';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { undoDeletion } from '../../../lib/menu/menu-writes';
import { getPendingUndo } from '../../../lib/undo/pending-undo';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { NOV_3 } from '../../../test/link-health-fixture';
import { renderWithQuery } from '../../../test/render-with-query';

// The console registers its texts as it loads, which needs i18next started first.
initI18n('en');
const { AdminConsole } = await import('./admin-console');

afterEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
});

const BROKEN = '/api/admin/links/broken';

const runbook: BrokenLink = {
  linkId: 'runbook',
  name: 'Runbook',
  url: 'https://runbook.example.com/',
  collectionId: 'team-tools',
  collectionName: 'Tools',
  space: 'team',
  spaceName: 'Engineering',
  teamId: 't-eng',
  status: 404,
  failureKind: null,
  brokenSince: NOV_3,
  checkedAt: NOV_3,
};
const payroll: BrokenLink = {
  ...runbook,
  linkId: 'payroll',
  name: 'Payroll',
  url: 'https://payroll.example.com/',
  collectionName: 'HR',
  space: 'organization',
  spaceName: 'Acme Corp',
  teamId: null,
  status: null,
  failureKind: 'dns',
};

function open(admin: boolean, broken: MockRoute) {
  setSessionToken('token');
  const mock = mockFetch([
    broken,
    { path: '/api/admin/suggestions', status: 200, body: { items: [], next: null } },
  ]);
  window.history.replaceState(null, '', '/console');
  renderWithQuery(<AdminConsole admin={admin} />);
  return { ...mock, user: userEvent.setup() };
}

describe('broken links tab', () => {
  it("lists the organization's broken links with where, since when and the last answer", async () => {
    const { user } = open(true, {
      path: BROKEN,
      status: 200,
      body: { items: [runbook, payroll] },
    });
    await user.click(screen.getByRole('link', { name: 'Broken links' }));
    const list = await screen.findByRole('list', { name: 'Broken links' });
    const first = within(list).getByRole('listitem', { name: 'Runbook (opens in a new tab)' });
    expect(first).toHaveTextContent('Engineering › Tools');
    expect(first).toHaveTextContent('Broken since Nov 3');
    expect(first).toHaveTextContent('The site answers 404 Not Found');
    const link = within(first).getByRole('link', { name: 'Runbook (opens in a new tab)' });
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    const second = within(list).getByRole('listitem', { name: 'Payroll (opens in a new tab)' });
    expect(second).toHaveTextContent('Acme Corp › HR');
    expect(second).toHaveTextContent("The site's name does not resolve");
    // Longest broken first, as the server sends them.
    expect(within(list).getAllByRole('listitem')[0]).toBe(first);
  });

  it('says so when no link is broken', async () => {
    const { user } = open(true, { path: BROKEN, status: 200, body: { items: [] } });
    await user.click(screen.getByRole('link', { name: 'Broken links' }));
    expect(
      await screen.findByText('No broken links. Links are checked every day.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Broken links' })).toBeNull();
  });

  it("gives a team editor their teams' broken links", async () => {
    const { user, requests } = open(false, {
      path: BROKEN,
      status: 200,
      body: { items: [runbook] },
    });
    await user.click(screen.getByRole('link', { name: 'Broken links' }));
    expect(
      await screen.findByRole('listitem', { name: 'Runbook (opens in a new tab)' }),
    ).toBeInTheDocument();
    expect(requests.filter((request) => request.url === BROKEN)).toHaveLength(1);
  });

  it('takes the tab away when the server refuses the list (403)', async () => {
    open(false, { path: BROKEN, status: 403, body: { message: 'Forbidden' } });
    // The tab is there while the list is asked for, and goes with the refusal.
    expect(screen.getByRole('link', { name: 'Broken links' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'Broken links' })).not.toBeInTheDocument(),
    );
    expect(
      within(screen.getByRole('navigation', { name: 'Sections' }))
        .getAllByRole('link')
        .map((tab) => tab.textContent),
    ).toEqual(['Suggestions']);
  });

  it('keeps the tab and offers to try again when the list could not be read', async () => {
    const { user, routes } = open(true, { path: BROKEN, status: 500, body: {} });
    await user.click(screen.getByRole('link', { name: 'Broken links' }));
    expect(await screen.findByText('This could not be loaded.')).toBeInTheDocument();
    routes[0] = { path: BROKEN, status: 200, body: { items: [] } };
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByText('No broken links. Links are checked every day.'),
    ).toBeInTheDocument();
  });

  describe('mending a broken link from its row', () => {
    async function row(routes: MockRoute[]) {
      const mock = open(true, { path: BROKEN, status: 200, body: { items: [runbook, payroll] } });
      mock.routes.push(...routes);
      await mock.user.click(screen.getByRole('link', { name: 'Broken links' }));
      const item = await screen.findByRole('listitem', { name: 'Runbook (opens in a new tab)' });
      return { ...mock, item };
    }

    it("edits its address with the portal's call, and says a refused address under the field", async () => {
      const { user, item, requests, routes } = await row([
        {
          method: 'PATCH',
          path: '/api/consumer/links/runbook',
          status: 400,
          body: { message: 'body.url must be an http, https or mailto address' },
        },
      ]);
      await user.click(within(item).getByRole('button', { name: 'Edit the address' }));
      const field = within(item).getByLabelText('Link address');
      await user.clear(field);
      await user.type(field, 'javascript:alert(1)');
      await user.click(within(item).getByRole('button', { name: 'Save the address' }));
      expect(
        await within(item).findByText('Link address must be an http, https or mailto address.'),
      ).toBeInTheDocument();
      expect(field).toHaveAttribute('aria-invalid', 'true');
      routes[2] = { method: 'PATCH', path: '/api/consumer/links/runbook', status: 204 };
      await user.clear(field);
      await user.type(field, 'https://runbook.example.com/v2');
      await user.click(within(item).getByRole('button', { name: 'Save the address' }));
      expect(
        await within(item).findByText('Address saved. The link is checked again soon.'),
      ).toBeInTheDocument();
      expect(item).toHaveTextContent('https://runbook.example.com/v2');
      expect(
        within(item).getByRole('link', { name: 'Runbook (opens in a new tab)' }),
      ).toHaveAttribute('href', 'https://runbook.example.com/v2');
      expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
        { url: 'javascript:alert(1)' },
        { url: 'https://runbook.example.com/v2' },
      ]);
    });

    it('deletes it and offers the undo the server names', async () => {
      const { user, item, requests } = await row([
        {
          method: 'DELETE',
          path: '/api/consumer/links/runbook',
          status: 204,
          headers: {
            'signpost-undo-id': 'undo-1',
            'signpost-undo-expires': '2099-01-01T00:00:00Z',
          },
        },
      ]);
      await user.click(within(item).getByRole('button', { name: 'Delete the link' }));
      expect(
        await within(item).findByText(
          'Link deleted. You can undo it from the notice for a few seconds.',
        ),
      ).toBeInTheDocument();
      expect(requests.some((r) => r.method === 'DELETE')).toBe(true);
      expect(getPendingUndo()).toMatchObject({ id: 'undo-1', kind: 'link', label: 'Runbook' });
      // Nothing more to do with it here.
      expect(within(item).queryByRole('button', { name: 'Edit the address' })).toBeNull();
    });

    it('shows the link again, with its actions, once its deletion is undone', async () => {
      const { user, item, requests } = await row([
        {
          method: 'DELETE',
          path: '/api/consumer/links/runbook',
          status: 204,
          headers: {
            'signpost-undo-id': 'undo-2',
            'signpost-undo-expires': '2099-01-01T00:00:00Z',
          },
        },
        { method: 'POST', path: '/api/consumer/undo/undo-2', status: 204 },
      ]);
      await user.click(within(item).getByRole('button', { name: 'Delete the link' }));
      expect(
        await within(item).findByText(
          'Link deleted. You can undo it from the notice for a few seconds.',
        ),
      ).toBeInTheDocument();
      // Undo, as the notice's button does it.
      await act(() => undoDeletion('undo-2'));
      expect(
        await within(item).findByText('Link restored. It is checked again soon.'),
      ).toBeInTheDocument();
      expect(within(item).queryByText(/Link deleted/)).toBeNull();
      for (const name of ['Edit the address', 'Delete the link', 'Open in Engineering']) {
        expect(within(item).getByRole('button', { name })).toBeEnabled();
      }
      expect(requests.filter((r) => r.url === '/api/consumer/undo/undo-2')).toHaveLength(1);
      // Another row's undo says nothing here.
      const other = screen.getByRole('listitem', { name: 'Payroll (opens in a new tab)' });
      expect(within(other).queryByText(/restored/)).toBeNull();
    });

    it('shows the address it had once its change is undone', async () => {
      const { user, item, requests } = await row([
        {
          method: 'PATCH',
          path: '/api/consumer/links/runbook',
          status: 204,
          headers: {
            'signpost-undo-id': 'undo-3',
            'signpost-undo-expires': '2099-01-01T00:00:00Z',
          },
        },
        { method: 'POST', path: '/api/consumer/undo/undo-3', status: 204 },
      ]);
      await user.click(within(item).getByRole('button', { name: 'Edit the address' }));
      const field = within(item).getByLabelText('Link address');
      await user.clear(field);
      await user.type(field, 'https://runbook.example.com/v2');
      await user.click(within(item).getByRole('button', { name: 'Save the address' }));
      expect(
        await within(item).findByText('Address saved. The link is checked again soon.'),
      ).toBeInTheDocument();
      // The notice names the link.
      expect(getPendingUndo()).toMatchObject({ id: 'undo-3', kind: 'changed', label: 'Runbook' });
      await act(() => undoDeletion('undo-3'));
      expect(
        await within(item).findByText('Address put back. The link is checked again soon.'),
      ).toBeInTheDocument();
      expect(item).toHaveTextContent('https://runbook.example.com/');
      expect(item).not.toHaveTextContent('https://runbook.example.com/v2');
      expect(
        within(item).getByRole('link', { name: 'Runbook (opens in a new tab)' }),
      ).toHaveAttribute('href', 'https://runbook.example.com/');
      expect(within(item).getByRole('button', { name: 'Edit the address' })).toBeEnabled();
      expect(requests.filter((r) => r.url === '/api/consumer/undo/undo-3')).toHaveLength(1);
    });

    it('keeps saying the link is deleted when the undo is refused', async () => {
      const { user, item } = await row([
        {
          method: 'DELETE',
          path: '/api/consumer/links/runbook',
          status: 204,
          headers: {
            'signpost-undo-id': 'undo-4',
            'signpost-undo-expires': '2099-01-01T00:00:00Z',
          },
        },
        {
          method: 'POST',
          path: '/api/consumer/undo/undo-4',
          status: 410,
          body: { message: 'This can no longer be undone.' },
        },
      ]);
      await user.click(within(item).getByRole('button', { name: 'Delete the link' }));
      await within(item).findByText(/^Link deleted/);
      await act(() => undoDeletion('undo-4').catch(() => {}));
      expect(within(item).getByText(/^Link deleted/)).toBeInTheDocument();
      expect(within(item).queryByRole('button', { name: 'Edit the address' })).toBeNull();
    });

    it('marks the finding wrong, and says a refusal in the row', async () => {
      const { user, item, routes } = await row([
        {
          method: 'POST',
          path: '/api/admin/links/runbook/broken/dismissal',
          status: 409,
          body: { message: 'Runbook is not listed as broken; there is nothing to mark.' },
        },
      ]);
      const dismiss = within(item).getByRole('button', {
        name: 'It works: a site that refuses robots',
      });
      await user.click(dismiss);
      expect(
        await within(item).findByText('Runbook is not listed as broken; there is nothing to mark.'),
      ).toBeInTheDocument();
      routes[2] = {
        method: 'POST',
        path: '/api/admin/links/runbook/broken/dismissal',
        status: 204,
      };
      await user.click(dismiss);
      expect(
        await within(item).findByText(
          'Marked as working: it is not listed as broken again until its address changes.',
        ),
      ).toBeInTheDocument();
    });

    it("opens a team's link in the team's space in the console", async () => {
      const { user, item } = await row([]);
      await user.click(within(item).getByRole('button', { name: 'Open in Engineering' }));
      expect(window.location.pathname).toBe('/console/teams/t-eng/space');
      // Open at its collection.
      expect(window.history.state).toMatchObject({ openCollection: 'team-tools' });
    });

    it("opens an organization's link in the portal, at its collection", async () => {
      const mock = open(true, { path: BROKEN, status: 200, body: { items: [payroll] } });
      await mock.user.click(screen.getByRole('link', { name: 'Broken links' }));
      const item = await screen.findByRole('listitem', { name: 'Payroll (opens in a new tab)' });
      await mock.user.click(within(item).getByRole('button', { name: 'Open in Acme Corp' }));
      expect(window.location.pathname).toBe('/');
      expect(window.history.state).toEqual({ openCollection: payroll.collectionId });
    });
  });
});
