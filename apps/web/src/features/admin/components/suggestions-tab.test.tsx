import type { AdminSuggestion } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';

// The console registers its texts as it loads, which needs i18next started first.
initI18n('en');
const { AdminConsole } = await import('./admin-console');

afterEach(() => clearSession());

const wiki: AdminSuggestion = {
  id: 's-wiki',
  name: 'Wiki',
  url: 'https://wiki.acme.test/',
  description: 'Our wiki',
  status: 'open',
  reason: '',
  createdAt: '2026-02-01T10:00:00.000Z',
  decidedAt: null,
  linkId: null,
  collection: { id: 'c-1', name: 'Handbook' },
  space: { type: 'team', id: 't-1', name: 'Finance' },
  suggestedBy: { id: 'u-1', name: 'Ann Lee', email: 'ann@acme.test' },
  decidedBy: null,
};

function open(extra: MockRoute[] = []) {
  setSessionToken('token');
  const mock = mockFetch([
    ...extra,
    { path: '/api/admin/suggestions', status: 200, body: { items: [wiki], next: null } },
  ]);
  // A team editor: the console shows them the suggestions and the broken links of their teams.
  window.history.replaceState(null, '', '/console');
  renderWithQuery(<AdminConsole admin={false} />);
  return { ...mock, user: userEvent.setup() };
}

describe('suggestions tab', () => {
  it('shows open suggestions with where and by whom', async () => {
    open();
    const item = await screen.findByRole('listitem', { name: 'Wiki' });
    expect(item).toHaveTextContent('For Handbook in Finance');
    expect(item).toHaveTextContent('Suggested by Ann Lee');
    expect(
      within(screen.getByRole('navigation', { name: 'Sections' }))
        .getAllByRole('link')
        .map((tab) => tab.textContent),
    ).toEqual(['Suggestions', 'Broken links']);
  });

  it('accepts with edited values', async () => {
    const { user, requests } = open([
      {
        method: 'POST',
        path: '/api/admin/suggestions/s-wiki/accept',
        status: 200,
        body: { ...wiki, status: 'accepted' },
      },
    ]);
    const item = await screen.findByRole('listitem', { name: 'Wiki' });
    await user.click(within(item).getByRole('button', { name: 'Edit and accept' }));
    const name = within(item).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Team wiki');
    await user.click(within(item).getByRole('button', { name: 'Accept with these values' }));
    expect(await screen.findByText('Team wiki was added.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Team wiki',
      url: 'https://wiki.acme.test/',
      description: 'Our wiki',
    });
  });

  it("declines with a reason, and shows the server's 409 when someone decided first", async () => {
    const { user, requests } = open([
      {
        method: 'POST',
        path: '/api/admin/suggestions/s-wiki/decline',
        status: 409,
        body: { message: 'This suggestion was already accepted; it cannot be decided again.' },
      },
    ]);
    const item = await screen.findByRole('listitem', { name: 'Wiki' });
    await user.click(within(item).getByRole('button', { name: 'Decline' }));
    await user.type(within(item).getByLabelText(/Reason/), 'We have one');
    await user.click(within(item).getByRole('button', { name: 'Decline' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ reason: 'We have one' }),
    );
    expect(await within(item).findByRole('alert')).toHaveTextContent('already accepted');
  });
});
