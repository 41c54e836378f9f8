import type { OrganizationSettings } from '@signpost/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { fieldOfMessage } from './settings-tab';

// The console registers its texts as it loads, which needs i18next started first.
initI18n('en');
const { AdminConsole } = await import('./admin-console');

// The console's address would stay for the next file of the worker, which shares the page.
afterEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
});

const settings: OrganizationSettings = {
  id: 'org',
  name: 'Acme',
  feedbackUrl: null,
  consentUrl: null,
  intros: { personal: '', team: '', organization: '' },
  passwordSignIn: true,
  ssoDomains: ['acme.test'],
  auditRetentionDays: 365,
  ssoConfigured: false,
};

function open(extra: MockRoute[]) {
  setSessionToken('token');
  const mock = mockFetch([
    ...extra,
    { path: '/api/admin/organization', status: 200, body: settings },
    { path: '/api/admin/scim-tokens', status: 200, body: { items: [] } },
  ]);
  window.history.replaceState(null, '', '/console/organization');
  renderWithQuery(<AdminConsole admin />);
  return { ...mock, user: userEvent.setup() };
}

describe('organization tab', () => {
  it('sends only the fields that changed, and shows what the server stored', async () => {
    const { user, requests } = open([
      {
        method: 'PATCH',
        path: '/api/admin/organization',
        status: 200,
        body: {
          ...settings,
          feedbackUrl: 'https://forms.acme.test/',
          ssoDomains: ['acme.test', 'corp.acme.test'],
        },
      },
    ]);
    await user.type(await screen.findByLabelText('Feedback form address'), 'forms.acme.test/');
    await user.type(screen.getByLabelText(/E-mail domains/), '\nCORP.acme.test');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      feedbackUrl: 'forms.acme.test/',
      ssoDomains: ['acme.test', 'CORP.acme.test'],
    });
    expect(screen.getByLabelText('Feedback form address')).toHaveValue('https://forms.acme.test/');
  });

  it("shows the server's refusal at the field it names", async () => {
    const { user } = open([
      {
        method: 'PATCH',
        path: '/api/admin/organization',
        status: 400,
        body: { message: 'body.consentUrl must be an http or https address' },
      },
    ]);
    await user.type(
      await screen.findByLabelText('Consent preferences address'),
      'mailto:x@acme.test',
    );
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    const field = screen.getByLabelText('Consent preferences address');
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(/must be an http or https address/);
  });

  it('shows a refusal without a field (turning password sign-in off) above the button', async () => {
    const { user } = open([
      {
        method: 'PATCH',
        path: '/api/admin/organization',
        status: 409,
        body: { message: 'Password sign-in cannot be turned off: no single sign-on provider.' },
      },
    ]);
    await user.click(
      await screen.findByRole('checkbox', { name: 'People may sign in with a password' }),
    );
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('cannot be turned off');
  });

  it('reads the field from either form of a validation message', () => {
    expect(fieldOfMessage('body/auditRetentionDays must be <= 3650')).toBe('auditRetentionDays');
    expect(fieldOfMessage('body.name must not be blank')).toBe('name');
    expect(fieldOfMessage('Something else')).toBeNull();
    // The server names the field itself (decision 0078), its message in words.
    expect(
      fieldOfMessage('The feedback address must be an http or https address.', {
        field: 'feedbackUrl',
      }),
    ).toBe('feedbackUrl');
  });

  it('warns when invitation links and mail would carry a local address', async () => {
    setSessionToken('token');
    mockFetch([
      {
        path: '/api/admin/organization',
        status: 200,
        body: {
          ...settings,
          publicAddressWarning:
            'Invitation links point at http://localhost:3000, which only this computer can open.',
        },
      },
    ]);
    window.history.replaceState(null, '', '/console/organization');
    renderWithQuery(<AdminConsole admin />);
    expect(await screen.findByRole('note')).toHaveTextContent(
      'Invitation links point at http://localhost:3000',
    );
  });

  it('says nothing of it when the address is public', async () => {
    open([]);
    expect(await screen.findByRole('button', { name: 'Save settings' })).toBeInTheDocument();
    expect(screen.queryByRole('note')).toBeNull();
  });
});
