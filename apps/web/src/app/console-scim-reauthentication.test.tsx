// Making a SCIM token from a session that signed in too long ago (decision 0084): the
// console's call is answered by the portal's "Confirm it's you" dialog, then made again.
import type { CreatedScimTokenResponse } from '@signpost/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, setSessionToken } from '../lib/session-store';
import { mockFetch, type MockRoute } from '../test/fetch-mock';
import { makeMenu } from '../test/menu-fixture';
import { renderApp } from '../test/render-app';

afterEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
});

const REFUSAL = "To make a SCIM token, confirm it's you: enter your password.";
const required: MockRoute = {
  method: 'POST',
  path: '/api/admin/scim-tokens',
  status: 403,
  body: { statusCode: 403, code: 'REAUTHENTICATION_REQUIRED', message: REFUSAL },
};
const created: CreatedScimTokenResponse = {
  token: 'spscim_Ab12-the-whole-secret',
  scimToken: {
    id: 'tok-okta',
    name: 'Okta',
    hint: 'spscim_Ab12',
    createdBy: 'Dana Demo',
    createdAt: '2026-03-06T10:00:00.000Z',
    lastUsedAt: null,
  },
};

function openOrganizationTab() {
  setSessionToken('token');
  const mock = mockFetch([
    required,
    { path: '/api/consumer/menu', status: 200, body: makeMenu({ admin: true }) },
    {
      path: '/api/admin/organization',
      status: 200,
      body: {
        id: 'org',
        name: 'Acme',
        feedbackUrl: null,
        consentUrl: null,
        intros: { personal: '', team: '', organization: '' },
        passwordSignIn: true,
        ssoDomains: [],
        auditRetentionDays: 365,
        ssoConfigured: false,
      },
    },
    { path: '/api/admin/scim-tokens', status: 200, body: { items: [] } },
    {
      path: '/api/auth/reauthenticate',
      status: 200,
      body: { password: true, secondFactor: false, providers: [], recent: false, windowMinutes: 5 },
    },
    { method: 'POST', path: '/api/auth/reauthenticate', status: 204 },
  ]);
  window.history.replaceState(null, '', '/console/organization');
  const view = renderApp();
  return { ...mock, ...view };
}

async function askForToken(user: ReturnType<typeof renderApp>['user']) {
  const region = await screen.findByRole('region', { name: 'Provisioning (SCIM)' });
  await user.type(
    within(region).getByRole('textbox', { name: 'Name of the identity system' }),
    'Okta',
  );
  await user.click(within(region).getByRole('button', { name: 'Make token' }));
  return region;
}

describe('a SCIM token from a session that signed in long ago', () => {
  it('asks the administrator to confirm who they are, then makes the token', async () => {
    const { user, requests, routes } = openOrganizationTab();
    const region = await askForToken(user);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(dialog).toHaveTextContent(REFUSAL);
    // Confirmed, the same call is made again, and answered.
    routes.splice(routes.indexOf(required), 1, {
      method: 'POST',
      path: '/api/admin/scim-tokens',
      status: 201,
      body: created,
    });
    await user.type(await within(dialog).findByLabelText('Password'), 'correct horse');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const shown = await within(region).findByRole('group', { name: 'The SCIM token “Okta”' });
    expect(within(shown).getByRole('textbox', { name: 'SCIM token' })).toHaveValue(created.token);
    expect(screen.queryByRole('dialog', { name: "Confirm it's you" })).toBeNull();
    expect(requests.filter((r) => r.method === 'POST').map((r) => [r.url, r.body])).toEqual([
      ['/api/admin/scim-tokens', { name: 'Okta' }],
      ['/api/auth/reauthenticate', { password: 'correct horse' }],
      ['/api/admin/scim-tokens', { name: 'Okta' }],
    ]);
  });

  it('says why no token was made when the confirmation is cancelled', async () => {
    const { user } = openOrganizationTab();
    const region = await askForToken(user);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.click(await within(dialog).findByRole('button', { name: 'Cancel' }));
    expect(await within(region).findByRole('alert')).toHaveTextContent(REFUSAL);
    expect(within(region).queryByRole('group', { name: /The SCIM token/ })).toBeNull();
    expect(
      within(region).getByRole('textbox', { name: 'Name of the identity system' }),
    ).toHaveValue('Okta');
  });
});
