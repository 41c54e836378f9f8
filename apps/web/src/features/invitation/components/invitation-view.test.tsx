import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession, clearSession } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';
import InvitationView from './invitation-view';

afterEach(() => clearSession());

const lookup: MockRoute = {
  method: 'POST',
  path: '/api/invitations/lookup',
  status: 200,
  body: {
    person: { name: 'Nora New', email: 'nora@example.com' },
    organization: { name: 'Acme' },
    expiresAt: '2026-03-08T10:00:00.000Z',
  },
};

function open(routes: MockRoute[]) {
  const mock = mockFetch(routes);
  const onDone = vi.fn();
  renderWithQuery(<InvitationView token="the-token-of-the-invitation" onDone={onDone} />);
  return { ...mock, onDone, user: userEvent.setup() };
}

describe('accepting an invitation', () => {
  it('shows who, checks the password, accepts and signs in', async () => {
    const { user, onDone, requests } = open([
      lookup,
      {
        method: 'POST',
        path: '/api/invitations/accept',
        status: 201,
        body: { token: 'new-session' },
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'Welcome to Acme' })).toBeInTheDocument();
    expect(screen.getByText(/invited as Nora New \(nora@example.com\)/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set my password and sign in' }));
    expect(screen.getByText('The password needs at least 8 characters.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'long enough');
    await user.type(screen.getByLabelText('Confirm the password'), 'long enougH');
    await user.click(screen.getByRole('button', { name: 'Set my password and sign in' }));
    expect(screen.getByText('The two passwords are not the same.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Confirm the password'));
    await user.type(screen.getByLabelText('Confirm the password'), 'long enough');
    await user.click(screen.getByRole('button', { name: 'Set my password and sign in' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(getSession()).toMatchObject({ token: 'new-session', authenticated: true });
    const accept = requests.find((r) => r.url.endsWith('/accept'));
    expect(accept?.body).toEqual({ token: 'the-token-of-the-invitation', password: 'long enough' });
    expect(accept?.headers.Authorization).toBeUndefined();
  });

  it('says plainly when the link cannot be used', async () => {
    open([
      {
        method: 'POST',
        path: '/api/invitations/lookup',
        status: 410,
        body: { message: 'This invitation link is no longer valid.' },
      },
    ]);
    expect(
      await screen.findByRole('heading', { name: 'This invitation cannot be used' }),
    ).toBeInTheDocument();
    expect(screen.getByText('This invitation link is no longer valid.')).toBeInTheDocument();
  });
});
