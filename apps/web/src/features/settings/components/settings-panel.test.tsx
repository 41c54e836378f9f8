import type { AccessToken, SignInSession } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import { SettingsPanel } from './settings-panel';

afterEach(() => clearSession());

const laptopToken: AccessToken = {
  id: 'tok-1',
  name: 'Laptop script',
  hint: 'spat_Ab12',
  createdAt: '2026-03-01T10:00:00.000Z',
  lastUsedAt: null,
  expiresAt: null,
};
const session = (over: Partial<SignInSession>): SignInSession => ({
  id: 's-here',
  current: true,
  browser: 'Firefox',
  device: 'macOS',
  userAgent: 'Mozilla/5.0',
  method: 'password',
  createdAt: '2026-03-01T09:00:00.000Z',
  lastActiveAt: '2026-03-02T09:00:00.000Z',
  expiresAt: '2026-04-01T09:00:00.000Z',
  ...over,
});
const phone = session({
  id: 's-phone',
  current: false,
  browser: 'Safari',
  device: 'iPhone',
  method: 'sso',
  lastActiveAt: '2026-03-01T12:00:00.000Z',
});
const tablet = session({ id: 's-tablet', current: false, browser: 'Chrome', device: 'Android' });

function routesFor(over: {
  tokens?: AccessToken[];
  sessions?: SignInSession[];
  secondFactor?: { available: boolean; enabled: boolean; recoveryCodesLeft: number };
}): MockRoute[] {
  return [
    { path: '/api/auth/tokens', status: 200, body: { items: over.tokens ?? [] } },
    { path: '/api/auth/sessions', status: 200, body: { items: over.sessions ?? [session({})] } },
    {
      path: '/api/auth/second-factor',
      status: 200,
      body: over.secondFactor ?? { available: true, enabled: false, recoveryCodesLeft: 0 },
    },
  ];
}

/** Replaces the answer of one GET, as the server would answer after a write. */
function answer(routes: MockRoute[], path: string, body: unknown) {
  const route = routes.find((r) => (r.method ?? 'GET') === 'GET' && r.path === path)!;
  route.body = body;
}

function open(routes: MockRoute[]) {
  setSessionToken('session-token');
  const mock = mockFetch(routes);
  const user = userEvent.setup();
  const view = renderWithQuery(<SettingsPanel onClose={() => {}} />);
  const panel = screen.getByRole('dialog', { name: 'Settings' });
  return { ...mock, ...view, user, panel };
}

const section = (name: string) => screen.getByRole('region', { name });

describe('settings: access tokens', () => {
  it('lists tokens with created, last used and expiry', async () => {
    open(
      routesFor({
        tokens: [
          laptopToken,
          {
            ...laptopToken,
            id: 'tok-2',
            name: 'CI',
            hint: 'spat_Zz99',
            lastUsedAt: '2026-03-05T08:30:00.000Z',
            expiresAt: '2026-06-01T00:00:00.000Z',
          },
        ],
      }),
    );
    const list = await within(section('Access tokens')).findByRole('list', { name: 'Your tokens' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Laptop script');
    expect(first).toHaveTextContent('spat_Ab12');
    expect(first).toHaveTextContent('Created Mar 1, 2026');
    expect(first).toHaveTextContent('Never used');
    expect(first).toHaveTextContent('Does not expire');
    expect(second).toHaveTextContent('Last used Mar 5, 2026');
    expect(second).toHaveTextContent('Expires Jun 1, 2026');
  });

  it('creates a token and shows it once, with a copy button, then the list has it', async () => {
    const routes = routesFor({});
    const { user, requests } = open([
      {
        method: 'POST',
        path: '/api/auth/tokens',
        status: 201,
        body: { token: 'spat_secretvalue', accessToken: laptopToken },
      },
      ...routes,
    ]);
    // The user-event clipboard stands in for the browser's.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const tokens = section('Access tokens');
    expect(await within(tokens).findByText('You have no access tokens.')).toBeInTheDocument();

    await user.type(within(tokens).getByRole('textbox', { name: 'Token name' }), 'Laptop script');
    await user.selectOptions(within(tokens).getByRole('combobox', { name: 'Expires' }), '30');
    answer(routes, '/api/auth/tokens', { items: [laptopToken] });
    await user.click(within(tokens).getByRole('button', { name: 'Create token' }));

    const shown = await within(tokens).findByRole('group', {
      name: 'Your new token “Laptop script”',
    });
    expect(within(shown).getByText('Copy it now. You will not see it again.')).toBeVisible();
    const value = within(shown).getByRole('textbox', { name: 'New access token' });
    expect(value).toHaveValue('spat_secretvalue');
    expect(value).toHaveFocus();
    await user.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('spat_secretvalue');
    expect(within(shown).getByRole('status')).toHaveTextContent('Copied');
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Laptop script',
      expiresInDays: 30,
    });
    expect(
      await within(tokens).findByRole('button', { name: 'Revoke Laptop script' }),
    ).toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('spat_secretvalue')).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue('spat_secretvalue')).not.toBeInTheDocument();
    expect(within(tokens).getByRole('textbox', { name: 'Token name' })).toHaveValue('');
  });

  it('shows the server’s message when a token may not make tokens', async () => {
    const { user } = open([
      {
        method: 'POST',
        path: '/api/auth/tokens',
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Sign in to make tokens; a token cannot.' },
      },
      ...routesFor({}),
    ]);
    const tokens = section('Access tokens');
    await user.type(within(tokens).getByRole('textbox', { name: 'Token name' }), 'x');
    await user.click(within(tokens).getByRole('button', { name: 'Create token' }));
    expect(await within(tokens).findByRole('alert')).toHaveTextContent(
      'Sign in to make tokens; a token cannot.',
    );
  });

  it('revokes a token after a confirmation, and can be cancelled', async () => {
    const routes = routesFor({ tokens: [laptopToken] });
    const { user, requests } = open([
      { method: 'DELETE', path: '/api/auth/tokens/tok-1', status: 204 },
      ...routes,
    ]);
    const tokens = section('Access tokens');
    const revoke = await within(tokens).findByRole('button', { name: 'Revoke Laptop script' });
    await user.click(revoke);
    const question = within(tokens).getByRole('group', { name: 'Revoke Laptop script' });
    expect(question).toHaveTextContent('Anything using it stops working at once.');
    expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    expect(within(tokens).getByRole('button', { name: 'Revoke Laptop script' })).toHaveFocus();

    await user.click(within(tokens).getByRole('button', { name: 'Revoke Laptop script' }));
    answer(routes, '/api/auth/tokens', { items: [] });
    await user.click(within(tokens).getByRole('button', { name: 'Yes, revoke' }));
    expect(await within(tokens).findByText('You have no access tokens.')).toBeInTheDocument();
    expect(within(tokens).getByRole('status')).toHaveTextContent(
      'The token “Laptop script” was revoked.',
    );
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/auth/tokens/tok-1',
    ]);
  });
});

describe('settings: where you’re signed in', () => {
  it('lists sessions, this device first, with browser, device and last active', async () => {
    open(routesFor({ sessions: [phone, session({})] }));
    const sessions = section('Where you’re signed in');
    const items = await within(sessions).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Firefox on macOS');
    expect(items[0]).toHaveTextContent('This device');
    expect(within(items[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(items[1]).toHaveTextContent('Safari on iPhone');
    expect(items[1]).toHaveTextContent('Last active Mar 1, 2026');
    expect(items[1]).toHaveTextContent('with single sign-on');
    expect(items[1]).not.toHaveTextContent('This device');
  });

  it('ends one session, then all the others', async () => {
    const routes = routesFor({ sessions: [session({}), phone, tablet] });
    const { user, requests } = open([
      { method: 'DELETE', path: '/api/auth/sessions/others', status: 204 },
      { method: 'DELETE', path: '/api/auth/sessions/s-phone', status: 204 },
      ...routes,
    ]);
    const sessions = section('Where you’re signed in');
    const endPhone = await within(sessions).findByRole('button', {
      name: /^End session on Safari on iPhone/,
    });
    answer(routes, '/api/auth/sessions', { items: [session({}), tablet] });
    await user.click(endPhone);
    await waitFor(() => expect(within(sessions).queryByText('Safari on iPhone')).toBeNull());
    expect(within(sessions).getByRole('status')).toHaveTextContent('The session was ended.');

    answer(routes, '/api/auth/sessions', { items: [session({})] });
    await user.click(within(sessions).getByRole('button', { name: 'End all other sessions' }));
    expect(await within(sessions).findByText('You are signed in nowhere else.')).toBeVisible();
    expect(within(sessions).queryByRole('button', { name: 'End all other sessions' })).toBeNull();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/auth/sessions/s-phone',
      '/api/auth/sessions/others',
    ]);
  });

  it('says so politely when ending a session fails', async () => {
    const { user } = open([
      { method: 'DELETE', path: '/api/auth/sessions/s-phone', status: 500, body: {} },
      ...routesFor({ sessions: [session({}), phone] }),
    ]);
    const sessions = section('Where you’re signed in');
    await user.click(
      await within(sessions).findByRole('button', { name: /^End session on Safari/ }),
    );
    expect(await within(sessions).findByRole('alert')).toHaveTextContent(
      'Sorry, that did not work. Please try again.',
    );
  });
});

describe('settings: two-step sign-in', () => {
  it('sets it up, enables it with a code and shows the recovery codes once', async () => {
    const routes = routesFor({});
    const codes = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);
    const {
      user,
      routes: table,
      requests,
    } = open([
      {
        method: 'POST',
        path: '/api/auth/second-factor/setup',
        status: 200,
        body: {
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUrl: 'otpauth://totp/Signpost:ada%40example.com?secret=JBSWY3DPEHPK3PXP',
        },
      },
      {
        method: 'POST',
        path: '/api/auth/second-factor/enable',
        status: 400,
        body: { code: 'SECOND_FACTOR_INVALID', message: 'That code is not right.' },
      },
      ...routes,
    ]);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const factor = section('Two-step sign-in');
    expect(await within(factor).findByText('Two-step sign-in is off.')).toBeVisible();
    await user.click(within(factor).getByRole('button', { name: 'Set up two-step sign-in' }));

    expect(
      await within(factor).findByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP'),
    ).toBeVisible();
    expect(
      within(factor).getByText('otpauth://totp/Signpost:ada%40example.com?secret=JBSWY3DPEHPK3PXP'),
    ).toBeVisible();
    // The address as a QR code to scan, drawn once the encoder has loaded; the key and the
    // address stay for those who cannot scan.
    const qr = within(factor).getByRole('img', {
      name: 'QR code to scan with your authenticator app',
    });
    await waitFor(() => expect(qr).toHaveAttribute('data-modules'));
    expect(qr.querySelectorAll('rect').length).toBeGreaterThan(20);
    expect(
      within(factor).getByText('Scan this QR code with your authenticator app:'),
    ).toBeVisible();
    expect(
      within(factor).getByText('Cannot scan it? Type this key into the app instead:'),
    ).toBeVisible();
    await user.click(within(factor).getAllByRole('button', { name: 'Copy' })[0]!);
    expect(writeText).toHaveBeenCalledWith('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');

    const code = within(factor).getByRole('textbox', { name: '6-digit code' });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '111111');
    await user.click(within(factor).getByRole('button', { name: 'Turn on' }));
    expect(await within(factor).findByRole('alert')).toHaveTextContent('That code is not right.');
    expect(code).toHaveValue('');

    table.find((r) => r.path === '/api/auth/second-factor/enable')!.status = 200;
    table.find((r) => r.path === '/api/auth/second-factor/enable')!.body = {
      recoveryCodes: codes,
    };
    answer(routes, '/api/auth/second-factor', {
      available: true,
      enabled: true,
      recoveryCodesLeft: 10,
    });
    await user.type(code, '287082');
    await user.click(within(factor).getByRole('button', { name: 'Turn on' }));
    const list = await within(factor).findByRole('list', { name: 'Your recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(within(factor).getByText(/you will not see them again/)).toBeVisible();
    await user.click(within(factor).getByRole('button', { name: 'Copy the codes' }));
    expect(writeText).toHaveBeenLastCalledWith(codes.join('\n'));
    expect(requests.filter((r) => r.url.endsWith('/enable')).map((r) => r.body)).toEqual([
      { code: '111111' },
      { code: '287082' },
    ]);

    await user.click(within(factor).getByRole('button', { name: 'I have saved them' }));
    expect(within(factor).getByRole('status')).toHaveTextContent(
      'Two-step sign-in is now on, and you are signed out everywhere else.',
    );
    expect(within(factor).queryByText('code0-abcde')).not.toBeInTheDocument();
    expect(within(factor).getByText('Two-step sign-in is on.')).toBeVisible();
    expect(within(factor).getByText('10 recovery codes left.')).toBeVisible();
  });

  it('turns it off with a code, or with the password', async () => {
    const routes = routesFor({
      secondFactor: { available: true, enabled: true, recoveryCodesLeft: 7 },
    });
    const {
      user,
      requests,
      routes: table,
    } = open([
      {
        method: 'POST',
        path: '/api/auth/second-factor/disable',
        status: 400,
        body: { code: 'SECOND_FACTOR_INVALID', message: 'That password is not right.' },
      },
      ...routes,
    ]);
    const factor = section('Two-step sign-in');
    expect(await within(factor).findByText('7 recovery codes left.')).toBeVisible();
    await user.click(within(factor).getByRole('button', { name: 'Turn off two-step sign-in' }));
    await user.click(within(factor).getByRole('button', { name: 'Use my password instead' }));
    await user.type(within(factor).getByLabelText('Password'), 'wrong');
    await user.click(within(factor).getByRole('button', { name: 'Turn off' }));
    expect(await within(factor).findByRole('alert')).toHaveTextContent(
      'That password is not right.',
    );

    await user.click(within(factor).getByRole('button', { name: 'Use a code instead' }));
    table.find((r) => r.path === '/api/auth/second-factor/disable')!.status = 204;
    answer(routes, '/api/auth/second-factor', {
      available: true,
      enabled: false,
      recoveryCodesLeft: 0,
    });
    await user.type(within(factor).getByRole('textbox', { name: '6-digit code' }), '123456');
    await user.click(within(factor).getByRole('button', { name: 'Turn off' }));
    expect(await within(factor).findByText('Two-step sign-in is off.')).toBeVisible();
    expect(within(factor).getByRole('status')).toHaveTextContent(
      'Two-step sign-in was turned off.',
    );
    expect(requests.filter((r) => r.url.endsWith('/disable')).map((r) => r.body)).toEqual([
      { password: 'wrong' },
      { code: '123456' },
    ]);
  });

  it('tells a single sign-on account that its provider handles the second step', async () => {
    open(routesFor({ secondFactor: { available: false, enabled: false, recoveryCodesLeft: 0 } }));
    expect(
      await within(section('Two-step sign-in')).findByText(
        'You sign in through single sign-on; your provider takes care of the second step.',
      ),
    ).toBeVisible();
  });
});

describe('settings: password', () => {
  it('changes the password, signs out everywhere else and revokes access tokens by default', async () => {
    const routes = routesFor({ tokens: [laptopToken] });
    const { user, requests } = open([
      { method: 'POST', path: '/api/auth/password', status: 204 },
      ...routes,
    ]);
    const password = section('Password');
    await user.type(within(password).getByLabelText('Current password'), 'old secret 1');
    await user.type(within(password).getByLabelText('New password'), 'new secret 22');
    expect(
      within(password).getByRole('checkbox', { name: 'Sign out everywhere else' }),
    ).toBeChecked();
    const revoke = within(password).getByRole('checkbox', { name: 'Revoke all my access tokens' });
    expect(revoke).toBeChecked();
    expect(revoke).toHaveAccessibleDescription(
      'Scripts and tools that use one of your access tokens stop working at once. Make new tokens for those you still need.',
    );
    expect(
      await within(section('Access tokens')).findByRole('button', {
        name: 'Revoke Laptop script',
      }),
    ).toBeInTheDocument();
    answer(routes, '/api/auth/tokens', { items: [] });
    await user.click(within(password).getByRole('button', { name: 'Change password' }));
    expect(await within(password).findByRole('status')).toHaveTextContent(
      'Your password is changed, you are signed out everywhere else, and your access tokens are revoked.',
    );
    expect(requests.find((r) => r.url.endsWith('/api/auth/password'))!.body).toEqual({
      currentPassword: 'old secret 1',
      newPassword: 'new secret 22',
      signOutOtherSessions: true,
      revokeAccessTokens: true,
    });
    expect(within(password).getByLabelText('Current password')).toHaveValue('');
    // The token list is read again: the revoked token is gone from it.
    expect(
      await within(section('Access tokens')).findByText('You have no access tokens.'),
    ).toBeInTheDocument();
  });

  it('keeps access tokens when that choice is unticked, and says what it did', async () => {
    const { user, requests } = open([
      { method: 'POST', path: '/api/auth/password', status: 204 },
      ...routesFor({}),
    ]);
    const password = section('Password');
    await user.type(within(password).getByLabelText('Current password'), 'old secret 1');
    await user.type(within(password).getByLabelText('New password'), 'new secret 22');
    await user.click(
      within(password).getByRole('checkbox', { name: 'Revoke all my access tokens' }),
    );
    await user.click(within(password).getByRole('button', { name: 'Change password' }));
    expect(await within(password).findByRole('status')).toHaveTextContent(
      'Your password is changed, and you are signed out everywhere else.',
    );
    expect(requests.find((r) => r.url.endsWith('/api/auth/password'))!.body).toMatchObject({
      signOutOtherSessions: true,
      revokeAccessTokens: false,
    });

    await user.type(within(password).getByLabelText('Current password'), 'new secret 22');
    await user.type(within(password).getByLabelText('New password'), 'newer secret 333');
    await user.click(within(password).getByRole('checkbox', { name: 'Sign out everywhere else' }));
    await user.click(
      within(password).getByRole('checkbox', { name: 'Revoke all my access tokens' }),
    );
    await user.click(within(password).getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(within(password).getByRole('status')).toHaveTextContent(
        'Your password is changed, and your access tokens are revoked.',
      ),
    );
    expect(requests.filter((r) => r.url.endsWith('/api/auth/password')).at(-1)!.body).toMatchObject(
      { signOutOtherSessions: false, revokeAccessTokens: true },
    );
  });

  it("shows the server's message when the current password is wrong", async () => {
    const { user } = open([
      {
        method: 'POST',
        path: '/api/auth/password',
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'The current password is not correct.' },
      },
      ...routesFor({}),
    ]);
    const password = section('Password');
    await user.type(within(password).getByLabelText('Current password'), 'wrong');
    await user.type(within(password).getByLabelText('New password'), 'new secret 22');
    await user.click(within(password).getByRole('checkbox', { name: 'Sign out everywhere else' }));
    await user.click(within(password).getByRole('button', { name: 'Change password' }));
    expect(await within(password).findByRole('alert')).toHaveTextContent(
      'The current password is not correct.',
    );
  });

  it('says there is no password for an account that signs in by single sign-on', async () => {
    open(routesFor({ secondFactor: { available: false, enabled: false, recoveryCodesLeft: 0 } }));
    expect(
      await within(section('Password')).findByText(
        'You sign in by single sign-on; there is no password to change here.',
      ),
    ).toBeInTheDocument();
    expect(within(section('Password')).queryByLabelText('New password')).toBeNull();
  });
});
