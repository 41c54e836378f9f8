import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetInvitation } from '../lib/invitation-fragment';
import { clearSession } from '../lib/session-store';
import { mockFetch } from '../test/fetch-mock';
import { renderApp } from '../test/render-app';

afterEach(() => {
  forgetInvitation();
  clearSession();
});

describe('an invitation link', () => {
  it('opens the invitation screen instead of the sign-in screen, and clears the address', async () => {
    window.history.replaceState(null, '', '/#invitation=abcDEF123_-abcDEF123-abcDEF123');
    const { requests } = mockFetch([
      {
        method: 'POST',
        path: '/api/invitations/lookup',
        status: 200,
        body: {
          person: { name: 'Nora New', email: 'nora@example.com' },
          organization: { name: 'Acme' },
          expiresAt: '2026-03-08T10:00:00.000Z',
        },
      },
    ]);
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Welcome to Acme' })).toBeInTheDocument();
    expect(window.location.hash).toBe('');
    expect(requests[0]?.body).toEqual({ token: 'abcDEF123_-abcDEF123-abcDEF123' });
  });
});
