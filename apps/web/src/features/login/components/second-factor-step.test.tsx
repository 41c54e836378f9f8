import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, getSession } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

afterEach(() => clearSession());

const required: MockRoute = {
  method: 'POST',
  path: '/api/auth/sessions/',
  status: 401,
  body: {
    statusCode: 401,
    error: 'Unauthorized',
    code: 'SECOND_FACTOR_REQUIRED',
    message: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
    msg: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  },
};
const invalid: MockRoute = {
  method: 'POST',
  path: '/api/auth/sessions/',
  status: 401,
  body: {
    statusCode: 401,
    error: 'Unauthorized',
    code: 'SECOND_FACTOR_INVALID',
    message: 'That code is not right, or was already used. Try the next one.',
    msg: 'That code is not right, or was already used. Try the next one.',
  },
};
const created: MockRoute = {
  method: 'POST',
  path: '/api/auth/sessions/',
  status: 201,
  body: { token: 'two-step-token' },
};

async function toSecondStep(routes: MockRoute[]) {
  clearSession();
  const mock = mockFetch([
    {
      path: '/api/auth/methods',
      status: 200,
      body: [{ type: 'email-password', name: 'E-mail and password' }],
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
    ...routes,
  ]);
  const view = renderApp();
  await view.user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
  await view.user.type(screen.getByLabelText('Password'), 'correct horse');
  await view.user.click(screen.getByRole('button', { name: 'Log in' }));
  const step = await screen.findByRole('form', { name: 'Two-step sign-in' });
  return { ...mock, ...view, step };
}

/** Answers the next POST with `route` (the table's first match wins). */
function answerNext(routes: MockRoute[], route: MockRoute) {
  routes.splice(routes.indexOf(routes.find((r) => r.method === 'POST')!), 1, route);
}

describe('second factor at sign-in', () => {
  it('asks for the code after the password, then signs in with it', async () => {
    const { user, step, routes, requests } = await toSecondStep([required]);
    const code = within(step).getByRole('textbox', { name: '6-digit code' });
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
    expect(getSession().authenticated).toBe(false);

    answerNext(routes, created);
    await user.type(code, '123 456');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(getSession()).toEqual({ token: 'two-step-token', authenticated: true }),
    );
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.body)).toEqual([
      { type: 'email-password', email: 'ada@example.com', password: 'correct horse' },
      {
        type: 'email-password',
        email: 'ada@example.com',
        password: 'correct horse',
        totp: '123 456',
      },
    ]);
  });

  it('shows the server’s message for a wrong code and clears the field for the next one', async () => {
    const { user, step, routes } = await toSecondStep([required]);
    answerNext(routes, invalid);
    const code = within(step).getByRole('textbox', { name: '6-digit code' });
    await user.type(code, '000000');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That code is not right, or was already used. Try the next one.',
    );
    expect(code).toHaveValue('');
    expect(code).toHaveFocus();
    expect(getSession().authenticated).toBe(false);
  });

  it('accepts a recovery code instead, and goes back to the password step', async () => {
    const { user, step, routes, requests } = await toSecondStep([required]);
    await user.click(within(step).getByRole('button', { name: 'Use a recovery code' }));
    const recovery = within(step).getByRole('textbox', { name: 'Recovery code' });
    expect(recovery).toHaveFocus();
    expect(within(step).getByRole('button', { name: 'Use the code from your app' })).toBeVisible();

    await user.click(within(step).getByRole('button', { name: 'Back to e-mail and password' }));
    expect(screen.getByLabelText('Password')).toHaveValue('correct horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const again = await screen.findByRole('form', { name: 'Two-step sign-in' });
    await user.click(within(again).getByRole('button', { name: 'Use a recovery code' }));

    answerNext(routes, created);
    await user.type(within(again).getByRole('textbox', { name: 'Recovery code' }), 'abcde-12345');
    await user.click(within(again).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(getSession().authenticated).toBe(true));
    expect(requests.filter((r) => r.method === 'POST').at(-1)!.body).toEqual({
      type: 'email-password',
      email: 'ada@example.com',
      password: 'correct horse',
      recoveryCode: 'abcde-12345',
    });
  });
});
