import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../../../lib/session-store';
import { startSession } from '../../../lib/fragment-sign-in';
import { clearPendingSsoError, takeSessionFragment } from '../../../lib/session-fragment';
import { configureTrackingSink, setTrackingConsent } from '../../../lib/tracking';
import { mockFetch } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

afterEach(() => {
  clearSession();
  clearPendingSsoError();
  setTrackingConsent(false);
  configureTrackingSink(null);
  window.history.replaceState(null, '', '/');
});

function arrive(address: string) {
  window.history.replaceState(null, '', address);
  const replace = vi.spyOn(window.history, 'replaceState');
  startSession(takeSessionFragment());
  const mock = mockFetch([
    {
      path: '/api/auth/methods',
      status: 200,
      body: [
        { type: 'email-password', name: 'E-mail and password' },
        { type: 'sso-oidc-id-token', name: 'Acme SSO', loginUrl: '/api/auth/sso/acme/start' },
      ],
    },
  ]);
  return { replace, ...mock, ...renderApp() };
}

describe('single sign-on failure', () => {
  it('shows the message in the error area and removes it from the address at once', async () => {
    const sent = vi.fn();
    setTrackingConsent(true);
    configureTrackingSink(sent);
    const { replace, requests } = arrive(
      '/?x=1#sso-error?code=SSO_DOMAIN_NOT_ALLOWED&message=Your%20e-mail%20domain%20may%20not%20sign%20in%20here.',
    );
    expect(replace).toHaveBeenCalledTimes(1);
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/?x=1');

    const modal = screen.getByRole('dialog', { name: 'Sign in' });
    expect(within(modal).getByRole('alert')).toHaveTextContent(
      'Your e-mail domain may not sign in here.',
    );
    await within(modal).findByRole('button', { name: 'Acme SSO' });
    // Nothing of the fragment leaves the browser.
    expect(JSON.stringify(requests)).not.toContain('SSO_DOMAIN_NOT_ALLOWED');
    expect(sent).not.toHaveBeenCalled();
  });

  it('shows it once: a later visit of the login screen starts clean', async () => {
    const { unmount } = arrive('/#sso-error?code=SSO_ACCESS_DENIED&message=You%20declined.');
    expect(screen.getByRole('alert')).toHaveTextContent('You declined.');
    unmount();
    renderApp();
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
  });

  it('clears the message when the person tries single sign-on again', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    const { user } = arrive('/#sso-error?code=SSO_STATE_INVALID&message=Start%20again.');
    await user.click(await screen.findByRole('button', { name: 'Acme SSO' }));
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
    expect(assign).toHaveBeenCalledWith('/api/auth/sso/acme/start');
  });

  it('shows a general text for an unknown code, never a made-up message', () => {
    arrive('/#sso-error?code=PHISHING&message=Call%20this%20number');
    expect(window.location.hash).toBe('');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Single sign-on did not work. Please try again.',
    );
    expect(screen.queryByText(/Call this number/)).not.toBeInTheDocument();
  });
});
