// Saving which single sign-on groups give teams and roles from a session that signed in too
// long ago (decision 0084): the console's call is answered by the portal's "Confirm it's you"
// dialog, then made again.
import type { SsoGroupsResponse } from '@signpost/contract';
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

const REFUSAL =
  "To change which groups give teams and roles, confirm it's you: enter your password.";
const required: MockRoute = {
  method: 'PUT',
  path: '/api/admin/sso-groups/okta',
  status: 403,
  body: { statusCode: 403, code: 'REAUTHENTICATION_REQUIRED', message: REFUSAL },
};
const groups: SsoGroupsResponse = {
  items: [
    {
      providerId: 'okta',
      name: 'Okta',
      claim: 'groups',
      mappings: [{ group: 'it-admins', teamId: null, teamName: null, role: null, admin: true }],
    },
  ],
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
        ssoConfigured: true,
      },
    },
    { path: '/api/admin/scim-tokens', status: 200, body: { items: [] } },
    { path: '/api/admin/sso-groups', status: 200, body: groups },
    { path: '/api/admin/teams', status: 200, body: { items: [], next: null } },
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

async function save(user: ReturnType<typeof renderApp>['user']) {
  const region = await screen.findByRole('region', { name: 'Teams from single sign-on groups' });
  const form = await within(region).findByRole('form', { name: 'Single sign-on provider “Okta”' });
  const claim = within(form).getByRole('textbox', { name: 'Groups claim' });
  await user.clear(claim);
  await user.type(claim, 'roles');
  await user.click(within(form).getByRole('button', { name: 'Save Okta' }));
  return form;
}

const body = {
  claim: 'roles',
  mappings: [{ group: 'it-admins', teamId: null, role: null, admin: true }],
};

describe('single sign-on groups saved from a session that signed in long ago', () => {
  it('asks the administrator to confirm who they are, then saves', async () => {
    const { user, requests, routes } = openOrganizationTab();
    const form = await save(user);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(dialog).toHaveTextContent(REFUSAL);
    routes.splice(routes.indexOf(required), 1, {
      method: 'PUT',
      path: '/api/admin/sso-groups/okta',
      status: 200,
      body: { items: [{ ...groups.items[0]!, claim: 'roles' }] },
    });
    await user.type(await within(dialog).findByLabelText('Password'), 'correct horse');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(form).findByText('The groups of Okta were saved.')).toBeVisible();
    expect(screen.queryByRole('dialog', { name: "Confirm it's you" })).toBeNull();
    expect(
      requests
        .filter((r) => r.method === 'PUT' || r.method === 'POST')
        .map((r) => [r.method, r.url, r.body]),
    ).toEqual([
      ['PUT', '/api/admin/sso-groups/okta', body],
      ['POST', '/api/auth/reauthenticate', { password: 'correct horse' }],
      ['PUT', '/api/admin/sso-groups/okta', body],
    ]);
  });

  it('says why nothing was saved when the confirmation is cancelled, and keeps the edits', async () => {
    const { user } = openOrganizationTab();
    const form = await save(user);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.click(await within(dialog).findByRole('button', { name: 'Cancel' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(REFUSAL);
    expect(within(form).getByRole('textbox', { name: 'Groups claim' })).toHaveValue('roles');
    expect(within(form).queryByText('The groups of Okta were saved.')).toBeNull();
  });
});
