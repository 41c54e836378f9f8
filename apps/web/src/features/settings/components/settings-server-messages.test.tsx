import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { SettingsPanel } from './settings-panel';

// What the settings forms show when the server refuses (decision 0055).
afterEach(() => clearSession());

const READS: MockRoute[] = [
  { path: '/api/auth/tokens', status: 200, body: { items: [] } },
  { path: '/api/auth/sessions', status: 200, body: { items: [] } },
  {
    path: '/api/auth/second-factor',
    status: 200,
    body: { available: true, enabled: false, recoveryCodesLeft: 0 },
  },
];

function open(write: MockRoute) {
  setSessionToken('session-token');
  mockFetch([write, ...READS]);
  renderWithQuery(<SettingsPanel onClose={() => {}} />);
  return userEvent.setup();
}

const section = (name: string) => screen.getByRole('region', { name });

describe('settings: access tokens', () => {
  it('shows a refused token name under the Token name field', async () => {
    const user = open({
      method: 'POST',
      path: '/api/auth/tokens',
      status: 400,
      body: {
        message:
          'body.name must not be blank: spaces and invisible characters alone are not a name',
      },
    });
    const tokens = section('Access tokens');
    const name = within(tokens).getByRole('textbox', { name: 'Token name' });
    await user.type(name, '\u200b');
    await user.click(within(tokens).getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(
      'Token name must not be blank: spaces and invisible characters alone are not a name.',
    );
    expect(name).toHaveFocus();
    expect(within(tokens).getByRole('alert')).toBeEmptyDOMElement();
  });

  it('keeps the polite text for a 5xx', async () => {
    const user = open({
      method: 'POST',
      path: '/api/auth/tokens',
      status: 503,
      body: { message: 'The database is not reachable right now.' },
    });
    const tokens = section('Access tokens');
    await user.type(within(tokens).getByRole('textbox', { name: 'Token name' }), 'CI');
    await user.click(within(tokens).getByRole('button', { name: 'Create token' }));
    expect(await within(tokens).findByRole('alert')).toHaveTextContent(
      'Sorry, that did not work. Please try again.',
    );
    expect(within(tokens).getByRole('textbox', { name: 'Token name' })).not.toHaveAttribute(
      'aria-invalid',
    );
  });
});

describe('settings: password', () => {
  it('shows a refused new password under the New password field', async () => {
    const user = open({
      method: 'POST',
      path: '/api/auth/password',
      status: 400,
      body: { message: 'body.newPassword must NOT have fewer than 8 characters' },
    });
    const password = section('Password');
    await user.type(within(password).getByLabelText('Current password'), 'signpost-demo');
    await user.type(within(password).getByLabelText('New password'), 'short');
    await user.click(within(password).getByRole('button', { name: 'Change password' }));
    const next = within(password).getByLabelText('New password');
    await waitFor(() => expect(next).toHaveAttribute('aria-invalid', 'true'));
    expect(next).toHaveAccessibleDescription('New password must be at least 8 characters long.');
    expect(next).toHaveFocus();
    expect(within(password).getByLabelText('Current password')).not.toHaveAttribute('aria-invalid');
    expect(within(password).getByRole('alert')).toBeEmptyDOMElement();
  });

  it('shows a refusal naming no field beside the button, and clears a field’s mark', async () => {
    setSessionToken('session-token');
    const answers = [
      { status: 400, message: 'body.newPassword must NOT have fewer than 8 characters' },
      { status: 400, message: 'The current password is not correct.' },
    ];
    const { routes } = mockFetch([
      { method: 'POST', path: '/api/auth/password', status: 400, body: {} },
      ...READS,
    ]);
    renderWithQuery(<SettingsPanel onClose={() => {}} />);
    const user = userEvent.setup();
    const password = section('Password');
    const next = within(password).getByLabelText('New password');
    for (const [i, { status, message }] of answers.entries()) {
      routes[0]!.status = status;
      routes[0]!.body = { message };
      await user.type(next, 'secret' + i);
      await user.click(within(password).getByRole('button', { name: 'Change password' }));
      if (i === 0) await waitFor(() => expect(next).toHaveAttribute('aria-invalid', 'true'));
    }
    expect(await within(password).findByRole('alert')).toHaveTextContent(
      'The current password is not correct.',
    );
    expect(next).not.toHaveAttribute('aria-invalid');
    expect(next).not.toHaveAccessibleDescription();
  });
});
