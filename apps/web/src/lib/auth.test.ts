import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetch-mock';
import { logout } from './auth';
import { clearSession, getSession, setSessionToken } from './session-store';
import { configureTrackingSink, setTrackingConsent } from './tracking';

afterEach(() => {
  clearSession();
  setTrackingConsent(false);
  configureTrackingSink(null);
});

function stubLocation() {
  const assign = vi.fn();
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
  return assign;
}

describe('logout', () => {
  it('ends the session with POST /logout and follows the provider’s sign-out address', async () => {
    const assign = stubLocation();
    const sent = vi.fn();
    setTrackingConsent(true);
    configureTrackingSink(sent);
    const logoutUrl =
      'https://sso.example.com/logout?id_token_hint=eyJ.secret.sig&post_logout_redirect_uri=http%3A%2F%2Flocalhost%2F';
    setSessionToken('sso-session');
    const { requests } = mockFetch([
      { method: 'POST', path: '/api/auth/logout', status: 200, body: { logoutUrl } },
    ]);

    await logout();

    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.Authorization).toBe('Bearer sso-session');
    expect(getSession()).toEqual({ token: null, authenticated: false });
    expect(assign).toHaveBeenCalledWith(logoutUrl);
    // The address carries the provider's ID token: it is never reported.
    expect(JSON.stringify(sent.mock.calls)).not.toContain('secret');
  });

  it('stays on the login screen when there is no provider to sign out of', async () => {
    const assign = stubLocation();
    setSessionToken('password-session');
    mockFetch([
      { method: 'POST', path: '/api/auth/logout', status: 200, body: { logoutUrl: null } },
    ]);
    await logout();
    expect(getSession().authenticated).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });

  it('signs out locally even when the server cannot be reached, and never follows a script address', async () => {
    const assign = stubLocation();
    setSessionToken('t1');
    mockFetch([{ method: 'POST', path: '/api/auth/logout', status: 503, body: {} }]);
    await logout();
    expect(getSession().authenticated).toBe(false);

    setSessionToken('t2');
    mockFetch([
      {
        method: 'POST',
        path: '/api/auth/logout',
        status: 200,
        body: { logoutUrl: 'javascript:alert(1)' },
      },
    ]);
    await logout();
    expect(assign).not.toHaveBeenCalled();
  });
});
