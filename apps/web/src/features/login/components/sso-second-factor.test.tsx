import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, getSession } from '../../../lib/session-store';
import { startSession } from '../../../lib/fragment-sign-in';
import { clearPendingSsoTicket, takeSessionFragment } from '../../../lib/session-fragment';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

const TICKET = 'T'.repeat(43);

afterEach(() => {
  clearSession();
  clearPendingSsoTicket();
  window.history.replaceState(null, '', '/');
});

const error = (status: number, code: string, message: string): MockRoute => ({
  method: 'POST',
  path: '/api/auth/sso/second-factor',
  status,
  body: { statusCode: status, error: 'Unauthorized', code, message, msg: message },
});

/** The browser comes back from the provider with a ticket (decision 0048). */
function arrive(answers: MockRoute[]) {
  window.history.replaceState(null, '', `/links#sso-second-factor?ticket=${TICKET}`);
  const replace = vi.spyOn(window.history, 'replaceState');
  startSession(takeSessionFragment());
  const mock = mockFetch([
    ...answers,
    {
      path: '/api/auth/methods',
      status: 200,
      body: [
        { type: 'email-password', name: 'E-mail and password' },
        { type: 'sso-oidc-id-token', name: 'Acme SSO', loginUrl: '/api/auth/sso/acme/start' },
      ],
    },
    { path: '/api/auth/sessions/current', status: 200, body: { user: {} } },
    {
      path: '/api/consumer/menu',
      status: 200,
      body: {
        profile: {},
        organization: {},
        spaces: [],
        can: { administer: false, organization: false },
      },
    },
  ]);
  return { replace, ...mock, ...renderApp() };
}

describe('the code after a single sign-on', () => {
  it('takes the ticket out of the address and asks for the code before anything else', async () => {
    const { replace } = arrive([]);
    expect(replace).toHaveBeenCalledTimes(1);
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/links');
    const step = screen.getByRole('form', { name: 'Two-step sign-in' });
    expect(within(step).getByRole('textbox', { name: '6-digit code' })).toHaveFocus();
    expect(screen.getByText(/Your provider signed you in/)).toBeVisible();
    // Neither the password form nor the other ways to sign in are offered meanwhile.
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Acme SSO' })).toBeNull();
    expect(getSession().authenticated).toBe(false);
  });

  it('sends the code with the ticket and signs in with the session it answers', async () => {
    const { user, requests } = arrive([
      {
        method: 'POST',
        path: '/api/auth/sso/second-factor',
        status: 201,
        body: { token: 'sso-2fa' },
      },
    ]);
    await user.type(screen.getByRole('textbox', { name: '6-digit code' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(getSession()).toEqual({ token: 'sso-2fa', authenticated: true }));
    const post = requests.find((r) => r.url === '/api/auth/sso/second-factor');
    expect(post?.body).toEqual({ ticket: TICKET, totp: '123456' });
    expect(post?.headers.Authorization).toBeUndefined();
  });

  it('shows the message of a wrong code and lets the person type the next one', async () => {
    const { user } = arrive([
      error(
        401,
        'SECOND_FACTOR_INVALID',
        'That code is not right, or was already used. Try the next one.',
      ),
    ]);
    const code = screen.getByRole('textbox', { name: '6-digit code' });
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not right');
    expect(code).toHaveValue('');
    expect(screen.getByRole('form', { name: 'Two-step sign-in' })).toBeVisible();
    expect(getSession().authenticated).toBe(false);
  });

  it('ends with the message when the ticket expired, back to the ways to sign in', async () => {
    const { user } = arrive([
      error(401, 'SIGN_IN_EXPIRED', 'This sign-in took too long. Sign in again.'),
    ]);
    await user.type(screen.getByRole('textbox', { name: '6-digit code' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in took too long.');
    expect(screen.queryByRole('form', { name: 'Two-step sign-in' })).toBeNull();
    expect(await screen.findByRole('button', { name: 'Acme SSO' })).toBeVisible();
  });

  it('takes a recovery code on request', async () => {
    const { user, requests } = arrive([
      { method: 'POST', path: '/api/auth/sso/second-factor', status: 201, body: { token: 'r' } },
    ]);
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByRole('textbox', { name: 'Recovery code' }), 'abcde-fghij');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(getSession().authenticated).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      ticket: TICKET,
      recoveryCode: 'abcde-fghij',
    });
  });

  it('goes back to the ways to sign in when cancelled', async () => {
    const { user, requests } = arrive([]);
    await user.click(screen.getByRole('button', { name: 'Cancel this sign-in' }));
    expect(screen.queryByRole('form', { name: 'Two-step sign-in' })).toBeNull();
    expect(await screen.findByLabelText('Password')).toBeVisible();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('ignores a ticket that is no ticket of the server', () => {
    window.history.replaceState(null, '', '/#sso-second-factor?ticket=<b>x</b>');
    expect(takeSessionFragment()).toBeNull();
    mockFetch([{ path: '/api/auth/methods', status: 200, body: [] }]);
    renderApp();
    expect(screen.queryByRole('form', { name: 'Two-step sign-in' })).toBeNull();
    expect(window.location.hash).toBe('');
  });
});
