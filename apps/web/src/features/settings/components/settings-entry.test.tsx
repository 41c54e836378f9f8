import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch } from '../../../test/fetch-mock';
import { makeMenu } from '../../../test/menu-fixture';
import { renderApp } from '../../../test/render-app';

afterEach(() => clearSession());

describe('settings entry', () => {
  it('opens the settings panel from the footer, and closes back to the portal', async () => {
    setSessionToken('session-token');
    mockFetch([
      { path: '/api/consumer/menu', status: 200, body: makeMenu({}) },
      { path: '/api/auth/tokens', status: 200, body: { items: [] } },
      { path: '/api/auth/sessions', status: 200, body: { items: [] } },
      {
        path: '/api/auth/second-factor',
        status: 200,
        body: { available: true, enabled: false, recoveryCodesLeft: 0 },
      },
    ]);
    const { user } = renderApp();
    const footer = await screen.findByRole('contentinfo');
    await user.click(within(footer).getByRole('button', { name: 'Settings' }));
    const panel = await screen.findByRole('dialog', { name: 'Settings' });
    for (const name of ['Access tokens', 'Where you’re signed in', 'Two-step sign-in']) {
      expect(within(panel).getByRole('region', { name })).toBeInTheDocument();
    }
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Settings' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('region', { name: 'My Space' })).toBeInTheDocument();
  });
});
