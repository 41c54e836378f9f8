import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY } from '../../../lib/constants';
import { clearSession, getSession } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

const methods: MockRoute = {
  path: '/api/auth/methods',
  status: 200,
  body: [
    { type: 'email-password', name: 'E-mail and password' },
    { type: 'sso-oidc-id-token', name: 'Acme SSO', loginUrl: '/api/auth/sso/acme/start' },
  ],
};
const menu: MockRoute = {
  path: '/api/consumer/menu',
  status: 200,
  body: {
    profile: {},
    organization: {},
    spaces: [],
    can: { administer: false, organization: false },
  },
};

afterEach(() => clearSession());

function start(routes: MockRoute[]) {
  clearSession();
  const mock = mockFetch([methods, menu, ...routes]);
  return { ...renderApp(), ...mock };
}

describe('login screen', () => {
  it('shows the tagline, the Sign in modal and the methods the server offers', async () => {
    start([]);
    const modal = screen.getByRole('dialog', { name: 'Sign in' });
    expect(
      screen.getByText('All the links of your organization, in one place.'),
    ).toBeInTheDocument();
    expect(await within(modal).findByLabelText('E-mail')).toBeInTheDocument();
    expect(within(modal).getByLabelText('Password')).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(within(modal).getByText('Or Sign in with')).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Acme SSO' })).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Access your Signpost' })).toBeInTheDocument();
    expect(within(modal).getByRole('alert')).toBeEmptyDOMElement();
  });

  it('sends the fields as typed and shows the server’s message on failure', async () => {
    const { user, requests } = start([
      {
        method: 'POST',
        path: '/api/auth/sessions/',
        status: 401,
        body: {
          code: 'INVALID_CREDENTIALS',
          message: 'Wrong e-mail or password',
          msg: 'Wrong e-mail or password',
        },
      },
    ]);
    await user.type(await screen.findByLabelText('E-mail'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong e-mail or password');
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      type: 'email-password',
      email: 'not-an-email',
      password: '',
    });
    expect(getSession().authenticated).toBe(false);
  });

  it('signs in on 201 by completing the login with the token', async () => {
    const { user, requests } = start([
      { method: 'POST', path: '/api/auth/sessions/', status: 201, body: { token: 'new-token' } },
      { path: '/api/auth/sessions/current', status: 200, body: { user: {} } },
    ]);
    await user.type(await screen.findByLabelText('E-mail'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('new-token');
    const check = requests.find((r) => r.url === '/api/auth/sessions/current');
    expect(check!.headers.Authorization).toBe('Bearer new-token');
  });

  it('shows an alert when completing the login fails', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user } = start([
      { method: 'POST', path: '/api/auth/sessions/', status: 201, body: { token: 'bad' } },
      {
        path: '/api/auth/sessions/current',
        status: 401,
        body: { message: 'Session revoked', msg: 'Session revoked' },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Session revoked'));
    expect(getSession().authenticated).toBe(false);
  });

  it('signs in with a pasted access token, or shows the msg of the failure', async () => {
    const { user, routes } = start([
      {
        path: '/api/auth/sessions/current',
        status: 429,
        body: { message: 'Too many attempts', msg: 'Too many attempts' },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Access your Signpost' }));
    await user.type(screen.getByLabelText('Access token'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts');

    routes.unshift({ path: '/api/auth/sessions/current', status: 200, body: { user: {} } });
    await user.clear(screen.getByLabelText('Access token'));
    await user.type(screen.getByLabelText('Access token'), 'good-token');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(getSession()).toEqual({ token: 'good-token', authenticated: true }));
  });

  it('sends the browser to the single sign-on address', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    const { user } = start([]);
    await user.click(await screen.findByRole('button', { name: 'Acme SSO' }));
    expect(assign).toHaveBeenCalledWith('/api/auth/sso/acme/start');
  });
});
