import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, authApi } from '../../../lib/api-client';
import { clearSession, initSession } from '../../../lib/session-store';
import { clearPendingSsoError, takeSessionFragment } from '../../../lib/session-fragment';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { ReauthenticationHost } from './reauthentication-host';

const MESSAGE =
  "To make an access token, confirm it's you: enter your password, or sign in again with your provider.";

const required: MockRoute = {
  method: 'POST',
  path: '/api/auth/tokens',
  status: 403,
  body: {
    statusCode: 403,
    error: 'Forbidden',
    code: 'REAUTHENTICATION_REQUIRED',
    message: MESSAGE,
    msg: MESSAGE,
  },
};
const created: MockRoute = {
  method: 'POST',
  path: '/api/auth/tokens',
  status: 201,
  body: { token: 'spat_new' },
};
const methods = (answer: Record<string, unknown>): MockRoute => ({
  path: '/api/auth/reauthenticate',
  status: 200,
  body: {
    password: true,
    secondFactor: false,
    providers: [],
    recent: false,
    windowMinutes: 5,
    ...answer,
  },
});

afterEach(() => {
  clearSession();
  clearPendingSsoError();
  window.history.replaceState(null, '', '/');
});

/** A signed-in person whose next access-token call needs re-authentication. */
function setUp(routes: MockRoute[]) {
  initSession('session-token');
  const mock = mockFetch([required, ...routes]);
  const user = userEvent.setup();
  render(<ReauthenticationHost />);
  const call = authApi.request<{ token: string }>('/tokens', {
    method: 'POST',
    body: { name: 'script' },
  });
  // Each test looks at how the call ends; it may end before the test asks.
  call.catch(() => undefined);
  /** From now on the repeated call succeeds. */
  const allow = () => mock.routes.splice(mock.routes.indexOf(required), 1, created);
  return { ...mock, user, call, allow };
}

describe('the re-authentication dialog', () => {
  it('opens on REAUTHENTICATION_REQUIRED, confirms with the password, then repeats the call', async () => {
    const { user, call, allow, requests } = setUp([
      methods({}),
      { method: 'POST', path: '/api/auth/reauthenticate', status: 204 },
    ]);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(within(dialog).getByText(MESSAGE)).toBeVisible();
    const password = await within(dialog).findByLabelText('Password');
    await waitFor(() => expect(password).toHaveFocus());
    expect(within(dialog).queryByRole('textbox', { name: '6-digit code' })).toBeNull();

    allow();
    await user.type(password, 'correct horse');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await expect(call).resolves.toMatchObject({ status: 201, data: { token: 'spat_new' } });
    expect(screen.queryByRole('dialog')).toBeNull();
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.url, r.body])).toEqual([
      ['/api/auth/tokens', { name: 'script' }],
      ['/api/auth/reauthenticate', { password: 'correct horse' }],
      ['/api/auth/tokens', { name: 'script' }],
    ]);
  });

  it('asks for the code too when the second factor is on', async () => {
    const { user, call, allow, requests } = setUp([
      methods({ secondFactor: true }),
      { method: 'POST', path: '/api/auth/reauthenticate', status: 204 },
    ]);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    allow();
    await user.type(await within(dialog).findByLabelText('Password'), 'pw');
    await user.type(within(dialog).getByRole('textbox', { name: '6-digit code' }), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await expect(call).resolves.toMatchObject({ status: 201 });
    expect(
      requests.find((r) => r.url === '/api/auth/reauthenticate' && r.method === 'POST')?.body,
    ).toEqual({
      password: 'pw',
      totp: '123456',
    });
  });

  it('shows a wrong password as the server says it, and fails the call when cancelled', async () => {
    const wrong = 'The password is not correct.';
    const { user, call } = setUp([
      methods({}),
      {
        method: 'POST',
        path: '/api/auth/reauthenticate',
        status: 400,
        body: { statusCode: 400, code: 'INVALID_CREDENTIALS', message: wrong, msg: wrong },
      },
    ]);
    const failed = call.catch((error: unknown) => error);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.type(await within(dialog).findByLabelText('Password'), 'nope');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(wrong);
    // The session is not lost over a wrong password.
    expect(screen.getByRole('dialog')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const error = await failed;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers a fresh single sign-on to a person without a password', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    window.history.replaceState(null, '', '/settings?tab=1');
    const { user, requests, call } = setUp([
      methods({ password: false, providers: [{ id: 'acme', name: 'Acme SSO' }] }),
      {
        method: 'POST',
        path: '/api/auth/reauthenticate/sso',
        status: 200,
        body: { location: 'https://sso.acme.test/authorize?prompt=login' },
      },
    ]);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(within(dialog).queryByLabelText('Password')).toBeNull();
    await user.click(await within(dialog).findByRole('button', { name: 'Acme SSO' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://sso.acme.test/authorize?prompt=login'),
    );
    expect(requests.find((r) => r.url === '/api/auth/reauthenticate/sso')?.body).toEqual({
      provider: 'acme',
      returnTo: window.location.pathname + window.location.search,
    });
    // The browser leaves for the provider: the call that asked is not repeated.
    await expect(call).rejects.toMatchObject({ status: 403 });
  });

  it('asks once for calls refused at the same time, and repeats each', async () => {
    const { user, call, allow } = setUp([
      methods({}),
      { method: 'POST', path: '/api/auth/reauthenticate', status: 204 },
    ]);
    const second = authApi.request('/tokens', { method: 'POST', body: { name: 'other' } });
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await waitFor(() => expect(screen.getAllByRole('dialog')).toHaveLength(1));
    allow();
    await user.type(await within(dialog).findByLabelText('Password'), 'pw');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await expect(call).resolves.toMatchObject({ status: 201 });
    await expect(second).resolves.toMatchObject({ status: 201 });
  });

  it('says so when the browser comes back from a re-authentication by single sign-on', () => {
    window.history.replaceState(null, '', '/settings#reauthenticated');
    expect(takeSessionFragment()).toBeNull();
    expect(window.location.hash).toBe('');
    mockFetch([]);
    render(<ReauthenticationHost />);
    expect(screen.getByRole('status')).toHaveTextContent(
      "You're confirmed: you can make the change now.",
    );
  });

  it('shows why a re-authentication by single sign-on failed', () => {
    window.history.replaceState(
      null,
      '',
      '/settings#sso-error?code=SSO_REAUTHENTICATION_FAILED&message=You%20signed%20in%20as%20another%20person.',
    );
    expect(takeSessionFragment()).toBeNull();
    mockFetch([]);
    render(<ReauthenticationHost />);
    expect(screen.getByRole('status')).toHaveTextContent('You signed in as another person.');
  });
});
