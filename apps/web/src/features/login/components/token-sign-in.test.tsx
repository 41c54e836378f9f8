import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, getSession } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

// Decision 0054: a token that does not work says so, whatever the server calls it.
const methods: MockRoute = {
  path: '/api/auth/methods',
  status: 200,
  body: [{ type: 'email-password', name: 'E-mail and password' }],
};

afterEach(() => clearSession());

function refusal(code: string, message: string): MockRoute {
  return {
    path: '/api/auth/sessions/current',
    status: 401,
    body: { statusCode: 401, error: 'Unauthorized', code, message, msg: message },
  };
}

async function pasteToken(routes: MockRoute[], token: string) {
  clearSession();
  const mock = mockFetch([methods, ...routes]);
  const { user } = renderApp();
  const modal = screen.getByRole('dialog', { name: 'Sign in' });
  await user.click(await within(modal).findByRole('button', { name: 'Access your Signpost' }));
  if (token !== '') await user.type(within(modal).getByLabelText('Access token'), token);
  await user.click(within(modal).getByRole('button', { name: 'Continue' }));
  return { ...mock, modal };
}

describe('sign-in with an access token', () => {
  it.each([
    ['an ended session', refusal('UNAUTHORIZED', 'Your session has ended. Sign in again.')],
    ['no token', refusal('UNAUTHORIZED', 'Sign in to continue.')],
    ['a revoked access token', refusal('UNAUTHORIZED', 'This access token is not valid.')],
  ])('a token the server refuses as %s is said to be not valid', async (_, route) => {
    const { modal, requests } = await pasteToken([route], 'spat_not-the-real-one');
    const alert = within(modal).getByRole('alert');
    expect(
      await within(modal).findByText(
        'This access token is not valid. Check that you pasted all of it, or ask for a new one.',
      ),
    ).toBe(alert);
    expect(alert).not.toHaveTextContent(/session|Sign in to continue/);
    expect(requests.at(-1)!.headers.Authorization).toBe('Bearer spat_not-the-real-one');
    expect(getSession().authenticated).toBe(false);
  });

  it('an expired access token is said to have expired', async () => {
    const { modal } = await pasteToken(
      [
        refusal(
          'ACCESS_TOKEN_EXPIRED',
          'This access token has expired. Make a new one in your settings.',
        ),
      ],
      'spat_expired-one',
    );
    expect(await within(modal).findByRole('alert')).toHaveTextContent(
      'This access token has expired. Make a new one in your settings, or ask for a new one.',
    );
    expect(getSession().authenticated).toBe(false);
  });

  it('an empty field asks for the token and sends nothing', async () => {
    const { modal, requests } = await pasteToken([], '');
    expect(await within(modal).findByRole('alert')).toHaveTextContent(
      'Paste your access token first.',
    );
    expect(requests.some((request) => request.url.includes('/sessions/current'))).toBe(false);
  });

  it('a failure other than the token shows the server’s message', async () => {
    const { modal } = await pasteToken(
      [
        {
          path: '/api/auth/sessions/current',
          status: 503,
          body: {
            code: 'DATABASE_UNAVAILABLE',
            message: 'Try again in a moment.',
            msg: 'Try again in a moment.',
          },
        },
      ],
      'spat_fine',
    );
    expect(await within(modal).findByRole('alert')).toHaveTextContent('Try again in a moment.');
  });
});
