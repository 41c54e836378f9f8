import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY } from '../../../lib/constants';
import { clearSession, getSession } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

const methods: MockRoute = {
  path: '/api/auth/methods',
  status: 200,
  body: [{ type: 'email-password', name: 'E-mail and password' }],
};
const menu: MockRoute = {
  path: '/api/consumer/menu',
  status: 200,
  // The menu of a new administrator in a new organization: nothing in it yet.
  body: {
    profile: { id: 'u-admin', name: 'Ada Admin', email: 'ada@acme.test' },
    organization: {
      id: 'o-acme',
      name: 'Acme',
      feedbackUrl: null,
      consentUrl: null,
      intros: { personal: '', team: '', organization: '' },
    },
    can: { administer: true, organization: true },
    spaces: [],
  },
};
const required = (value: boolean): MockRoute => ({
  path: '/api/setup/',
  status: 200,
  body: { required: value },
});
const refusal = (status: number, message: string, field?: string) => ({
  statusCode: status,
  code: status === 403 ? 'FORBIDDEN' : 'VALIDATION_ERROR',
  error: 'Error',
  message,
  msg: message,
  ...(field ? { field } : {}),
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

function start(routes: MockRoute[]) {
  clearSession();
  const mock = mockFetch([...routes, methods, menu]);
  return { ...renderApp(), ...mock };
}

async function fill(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Organization name'), 'Acme');
  await user.type(screen.getByLabelText('Your name'), 'Ada Admin');
  await user.type(screen.getByLabelText('E-mail'), 'ada@acme.test');
  await user.type(screen.getByLabelText('Password'), 'a long password');
  await user.type(screen.getByLabelText('Setup code'), 'K7QM-3XWD-9RHT');
}

describe('setup screen', () => {
  it('replaces the login screen while the installation has no organization', async () => {
    start([required(true)]);
    const heading = await screen.findByRole('heading', { name: 'Set up Signpost' });
    expect(heading).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Sign in' })).not.toBeInTheDocument();
    for (const label of ['Organization name', 'Your name', 'E-mail', 'Password', 'Setup code']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    // Where the code is: the server's log.
    expect(screen.getByLabelText('Setup code')).toHaveAccessibleDescription(
      /one-time setup code in its log/,
    );
    expect(screen.getByRole('button', { name: 'Create organization' })).toBeEnabled();
  });

  it.each([
    ['set up already', [required(false)]],
    ['the status cannot be read', []],
  ])('shows the login screen when %s', async (_, routes) => {
    const { requests } = start(routes);
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(requests.some((r) => r.url === '/api/setup/')).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Set up Signpost' })).not.toBeInTheDocument();
  });

  it('signs the new administrator in, into the empty portal', async () => {
    const { user, requests } = start([
      required(true),
      { method: 'POST', path: '/api/setup/', status: 201, body: { token: 'admin-token' } },
      { path: '/api/auth/sessions/current', status: 200, body: { user: {} } },
    ]);
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('admin-token');
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      organizationName: 'Acme',
      name: 'Ada Admin',
      email: 'ada@acme.test',
      password: 'a long password',
      setupCode: 'K7QM-3XWD-9RHT',
    });
    expect(getSession().authenticated).toBe(true);
  });

  // The server's refusals say in words which field and what to do, and name the field
  // (decision 0078); the screen shows each by its field, as the server wrote it.
  it.each([
    [
      403,
      "The setup code is not right, or has expired. Use the code in the server's log from its last start.",
      undefined,
      'Setup code',
    ],
    [400, 'The password needs at least 8 characters.', 'password', 'Password'],
    [400, 'Enter a valid e-mail address, such as name@example.com.', 'email', 'E-mail'],
    [400, "Enter the organization's name.", 'organizationName', 'Organization name'],
    [400, "Enter the administrator's name.", 'name', 'Your name'],
    [400, 'The setup code can have at most 64 characters: shorten it.', 'setupCode', 'Setup code'],
    // Placed by the field the answer names, whatever its words.
    [400, 'This is not accepted as it is: check it.', 'email', 'E-mail'],
    // An older server's answer without a field: its words still lead to the field.
    [
      400,
      "The organization's name cannot contain control characters.",
      undefined,
      'Organization name',
    ],
  ])('shows a %i refusal at its field: %s', async (status, message, field, label) => {
    const { user } = start([
      required(true),
      { method: 'POST', path: '/api/setup/', status, body: refusal(status, message, field) },
    ]);
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    const input = screen.getByLabelText(label);
    await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
    expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(screen.getAllByRole('textbox').filter((i) => i.getAttribute('aria-invalid'))).toEqual(
      label === 'Password' ? [] : [input],
    );
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
    expect(getSession().authenticated).toBe(false);
    // Typing again clears the field's error.
    await user.type(input, 'x');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('shows other refusals above the form', async () => {
    const { user } = start([
      required(true),
      {
        method: 'POST',
        path: '/api/setup/',
        status: 429,
        body: refusal(429, 'Too many setup attempts. Try again in 60 seconds.'),
      },
    ]);
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many setup attempts');
  });

  it('disables the button while the setup runs', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { user, fetchMock } = start([
      required(true),
      {
        method: 'POST',
        path: '/api/setup/',
        status: 400,
        body: refusal(400, "Enter the organization's name.", 'organizationName'),
      },
    ]);
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'POST') await gate;
      return answer(input, init);
    });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    const busy = await screen.findByRole('button', { name: 'Creating…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    release();
    expect(await screen.findByRole('button', { name: 'Create organization' })).toBeEnabled();
  });

  it('after a setup made elsewhere (409), leads to the login screen', async () => {
    const { user } = start([
      required(true),
      {
        method: 'POST',
        path: '/api/setup/',
        status: 409,
        body: refusal(409, 'Signpost is already set up: an organization exists. Sign in instead.'),
      },
    ]);
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('already set up');
    await user.click(screen.getByRole('button', { name: 'Go to sign in' }));
    const login = await screen.findByRole('dialog', { name: 'Sign in' });
    expect(within(login).getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});
