import type { OrganizationSettings, SsoGroupsResponse } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';

// The console registers its texts as it loads, which needs i18next started first.
initI18n('en');
const { AdminConsole } = await import('./admin-console');

afterEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
});

const settings: OrganizationSettings = {
  id: 'org',
  name: 'Acme',
  feedbackUrl: null,
  consentUrl: null,
  intros: { personal: '', team: '', organization: '' },
  passwordSignIn: true,
  ssoDomains: ['acme.test'],
  auditRetentionDays: 365,
  ssoConfigured: true,
};

const teams: MockRoute = {
  path: '/api/admin/teams',
  status: 200,
  body: {
    items: [
      { id: 't-fin', name: 'Finance', memberCount: 3, editorCount: 1, buddy: null },
      { id: 't-ops', name: 'Operations', memberCount: 2, editorCount: 0, buddy: null },
    ],
    next: null,
  },
};

const okta: SsoGroupsResponse['items'][number] = {
  providerId: 'okta',
  name: 'Okta',
  claim: 'groups',
  mappings: [
    { group: 'finance-staff', teamId: 't-fin', teamName: 'Finance', role: 'editor', admin: false },
    { group: 'it-admins', teamId: null, teamName: null, role: null, admin: true },
  ],
};
const groupsOf = (items: SsoGroupsResponse['items']): MockRoute => ({
  path: '/api/admin/sso-groups',
  status: 200,
  body: { items },
});

function open(routes: MockRoute[]) {
  setSessionToken('token');
  const mock = mockFetch([
    ...routes,
    teams,
    { path: '/api/admin/organization', status: 200, body: settings },
    { path: '/api/admin/scim-tokens', status: 200, body: { items: [] } },
  ]);
  window.history.replaceState(null, '', '/console/organization');
  renderWithQuery(<AdminConsole admin />);
  const user = userEvent.setup();
  return { ...mock, user };
}

const section = () => screen.findByRole('region', { name: 'Teams from single sign-on groups' });
const providerForm = async (name = 'Okta') =>
  within(await section()).findByRole('form', { name: `Single sign-on provider “${name}”` });
const puts = (requests: ReturnType<typeof mockFetch>['requests']) =>
  requests.filter((r) => r.method === 'PUT');

describe('teams from single sign-on groups in the organization tab', () => {
  it('says where single sign-on is configured when no provider serves the organization', async () => {
    open([groupsOf([])]);
    const region = await section();
    expect(
      await within(region).findByText(/single sign-on is configured with OIDC_PROVIDERS/),
    ).toBeVisible();
    expect(within(region).queryByRole('form')).toBeNull();
    expect(within(region).queryByRole('table')).toBeNull();
  });

  it("shows each provider's claim and mappings, and what a sign-in does with them", async () => {
    open([
      groupsOf([
        okta,
        { providerId: 'entra', name: 'Microsoft Entra ID', claim: null, mappings: [] },
      ]),
    ]);
    const region = await section();
    expect(
      await within(region).findByText(
        /Memberships from groups follow each sign-in.*Memberships made by hand stay.*leaves the claim out or cuts it short.*nothing changes/,
      ),
    ).toBeVisible();
    const form = await providerForm();
    const claim = within(form).getByRole('textbox', { name: 'Groups claim' });
    expect(claim).toHaveValue('groups');
    expect(claim).toHaveAccessibleDescription(/Empty: groups are not read/);
    const table = within(form).getByRole('table', { name: 'Groups of Okta' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('textbox', { name: 'Group of mapping 1' })).toHaveValue(
      'finance-staff',
    );
    await within(table).findAllByRole('option', { name: 'Operations' });
    expect(within(table).getByRole('combobox', { name: 'Team of mapping 1' })).toHaveValue('t-fin');
    expect(within(table).getByRole('combobox', { name: 'Role of mapping 1' })).toHaveValue(
      'editor',
    );
    expect(
      within(table).getByRole('checkbox', { name: 'Mapping 1 makes administrators' }),
    ).not.toBeChecked();
    // No team: no role to choose.
    expect(within(table).getByRole('combobox', { name: 'Team of mapping 2' })).toHaveValue('');
    expect(within(table).queryByRole('combobox', { name: 'Role of mapping 2' })).toBeNull();
    expect(
      within(table).getByRole('checkbox', { name: 'Mapping 2 makes administrators' }),
    ).toBeChecked();

    const entra = await providerForm('Microsoft Entra ID');
    expect(within(entra).getByRole('textbox', { name: 'Groups claim' })).toHaveValue('');
    expect(within(entra).getByText('No group gives a team or a role yet.')).toBeVisible();
  });

  it('edits, adds and removes mappings, then saves them with one PUT for the provider', async () => {
    const stored: SsoGroupsResponse = {
      items: [
        {
          ...okta,
          claim: 'roles',
          mappings: [
            {
              group: '0b7c-ops',
              teamId: 't-ops',
              teamName: 'Operations',
              role: 'member',
              admin: true,
            },
            { group: 'it-admins', teamId: null, teamName: null, role: null, admin: true },
          ],
        },
      ],
    };
    const { user, requests } = open([
      groupsOf([okta]),
      { method: 'PUT', path: '/api/admin/sso-groups/okta', status: 200, body: stored },
    ]);
    const form = await providerForm();
    const claim = within(form).getByRole('textbox', { name: 'Groups claim' });
    await user.clear(claim);
    await user.type(claim, 'roles');
    // The first mapping goes.
    await user.click(within(form).getByRole('button', { name: 'Remove mapping 1' }));
    expect(within(form).getAllByRole('textbox', { name: /Group of mapping/ })).toHaveLength(1);
    // A new one: its group, a team (the role appears with it), and the administrator role.
    await user.click(within(form).getByRole('button', { name: 'Add a group' }));
    const group = within(form).getByRole('textbox', { name: 'Group of mapping 2' });
    await waitFor(() => expect(group).toHaveFocus());
    await user.type(group, ' 0b7c-ops ');
    expect(within(form).queryByRole('combobox', { name: 'Role of mapping 2' })).toBeNull();
    await within(form).findAllByRole('option', { name: 'Operations' });
    await user.selectOptions(
      within(form).getByRole('combobox', { name: 'Team of mapping 2' }),
      't-ops',
    );
    expect(within(form).getByRole('combobox', { name: 'Role of mapping 2' })).toHaveValue('member');
    await user.click(
      within(form).getByRole('checkbox', { name: 'Mapping 2 makes administrators' }),
    );
    await user.click(within(form).getByRole('button', { name: 'Save Okta' }));

    expect(await within(form).findByText('The groups of Okta were saved.')).toBeVisible();
    expect(puts(requests).map((r) => [r.url, r.body])).toEqual([
      [
        '/api/admin/sso-groups/okta',
        {
          claim: 'roles',
          mappings: [
            { group: 'it-admins', teamId: null, role: null, admin: true },
            { group: '0b7c-ops', teamId: 't-ops', role: 'member', admin: true },
          ],
        },
      ],
    ]);
    // The table is the server's answer now (in its order).
    expect(within(form).getByRole('textbox', { name: 'Group of mapping 1' })).toHaveValue(
      '0b7c-ops',
    );
  });

  it('sends a role only with a team, and an empty claim as none', async () => {
    const { user, requests } = open([
      groupsOf([okta]),
      {
        method: 'PUT',
        path: '/api/admin/sso-groups/okta',
        status: 200,
        body: { items: [{ ...okta, claim: null }] },
      },
    ]);
    const form = await providerForm();
    await user.clear(within(form).getByRole('textbox', { name: 'Groups claim' }));
    // The team of mapping 1 is taken away, with its role; the administrator role stays given.
    await user.click(
      within(form).getByRole('checkbox', { name: 'Mapping 1 makes administrators' }),
    );
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Team of mapping 1' }), '');
    expect(within(form).queryByRole('combobox', { name: 'Role of mapping 1' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Save Okta' }));
    await within(form).findByText('The groups of Okta were saved.');
    expect(puts(requests)[0]?.body).toEqual({
      claim: null,
      mappings: [
        { group: 'finance-staff', teamId: null, role: null, admin: true },
        { group: 'it-admins', teamId: null, role: null, admin: true },
      ],
    });
  });

  it('says what is missing before asking the server', async () => {
    const { user, requests } = open([groupsOf([okta])]);
    const form = await providerForm();
    const claim = within(form).getByRole('textbox', { name: 'Groups claim' });
    await user.clear(claim);
    await user.type(claim, 'my groups');
    await user.click(within(form).getByRole('button', { name: 'Save Okta' }));
    await waitFor(() => expect(claim).toHaveFocus());
    expect(claim).toHaveAttribute('aria-invalid', 'true');
    expect(claim).toHaveAccessibleDescription(/may hold only letters, digits and _ : \. \/ -/);

    await user.clear(claim);
    await user.type(claim, 'groups');
    await user.click(within(form).getByRole('button', { name: 'Add a group' }));
    await user.click(within(form).getByRole('button', { name: 'Save Okta' }));
    const group = within(form).getByRole('textbox', { name: 'Group of mapping 3' });
    await waitFor(() => expect(group).toHaveFocus());
    expect(group).toHaveAccessibleDescription(
      'Mapping 3: enter the group as the provider sends it.',
    );

    await user.type(group, 'nobody');
    await user.click(within(form).getByRole('button', { name: 'Save Okta' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Mapping 3: a group gives a team, the administrator role, or both.',
    );
    expect(puts(requests)).toEqual([]);
  });

  it("shows the server's refusals in words, and keeps what was typed", async () => {
    const { user, routes } = open([
      groupsOf([okta]),
      {
        method: 'PUT',
        path: '/api/admin/sso-groups/okta',
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message: 'Groups claim must be at most 100 characters long.',
          field: 'claim',
        },
      },
    ]);
    const form = await providerForm();
    await user.click(within(form).getByRole('button', { name: 'Save Okta' }));
    const claim = within(form).getByRole('textbox', { name: 'Groups claim' });
    await waitFor(() => expect(claim).toHaveAccessibleDescription(/at most 100 characters/));
    expect(claim).toHaveAttribute('aria-invalid', 'true');

    // A team deleted meanwhile.
    routes.splice(1, 1, {
      method: 'PUT',
      path: '/api/admin/sso-groups/okta',
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: 'Team t-fin was not found' },
    });
    await user.click(within(form).getByRole('button', { name: 'Save Okta' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'A team chosen was deleted meanwhile, or the provider is no longer configured.',
    );

    routes.splice(1, 1, {
      method: 'PUT',
      path: '/api/admin/sso-groups/okta',
      status: 500,
      body: { statusCode: 500, message: 'db down' },
    });
    await user.click(within(form).getByRole('button', { name: 'Save Okta' }));
    await waitFor(() =>
      expect(within(form).getByRole('alert')).toHaveTextContent(
        'The groups could not be saved. Try again.',
      ),
    );
    expect(within(form).getByRole('alert')).not.toHaveTextContent('db down');
    expect(within(form).getByRole('textbox', { name: 'Group of mapping 1' })).toHaveValue(
      'finance-staff',
    );
  });
});
