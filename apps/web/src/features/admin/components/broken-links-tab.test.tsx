import type { BrokenLink } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { NOV_3 } from '../../../test/link-health-fixture';
import { renderWithQuery } from '../../../test/render-with-query';

// The console registers its texts as it loads, which needs i18next started first.
initI18n('en');
const { AdminConsole } = await import('./admin-console');

afterEach(() => clearSession());

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
});
