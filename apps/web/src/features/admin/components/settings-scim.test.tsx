import type { CreatedScimTokenResponse, OrganizationSettings, ScimToken } from '@signpost/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setSessionToken } from '../../../lib/session-store';
import { mockFetch, type MockRoute } from '../../../test/fetch-mock';
import { renderWithQuery } from '../../../test/render-with-query';

// The console registers its texts as it loads, which needs i18next started first.
initI18n('en');
const { AdminConsole } = await import('./admin-console');

// The console's address would stay for the next file of the worker, which shares the page.
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
  ssoConfigured: false,
};

const okta: ScimToken = {
  id: 'tok-okta',
  name: 'Okta',
  hint: 'spscim_Ab12',
  createdBy: 'Dana Demo',
  createdAt: '2026-03-02T09:30:00.000Z',
  lastUsedAt: '2026-03-05T14:00:00.000Z',
};
const entra: ScimToken = {
  id: 'tok-entra',
  name: 'Microsoft Entra ID',
  hint: 'spscim_Zz90',
  createdBy: 'Ann Lee',
  createdAt: '2026-03-01T08:00:00.000Z',
  lastUsedAt: null,
};
const created: CreatedScimTokenResponse = {
  token: 'spscim_Cd34-the-whole-secret',
  scimToken: {
    id: 'tok-new',
    name: 'Okta staging',
    hint: 'spscim_Cd34',
    createdBy: 'Dana Demo',
    createdAt: '2026-03-06T10:00:00.000Z',
    lastUsedAt: null,
  },
};
const listOf = (items: ScimToken[]): MockRoute => ({
  path: '/api/admin/scim-tokens',
  status: 200,
  body: { items },
});

function open(routes: MockRoute[]) {
  setSessionToken('token');
  const mock = mockFetch([
    ...routes,
    { path: '/api/admin/organization', status: 200, body: settings },
  ]);
  window.history.replaceState(null, '', '/console/organization');
  renderWithQuery(<AdminConsole admin />);
  const user = userEvent.setup();
  return { ...mock, user };
}

const section = () => screen.findByRole('region', { name: 'Provisioning (SCIM)' });

/** Names the new token and asks for it. */
async function makeToken(user: ReturnType<typeof userEvent.setup>, name: string) {
  const region = await section();
  await user.type(
    within(region).getByRole('textbox', { name: 'Name of the identity system' }),
    name,
  );
  await user.click(within(region).getByRole('button', { name: 'Make token' }));
  return region;
}

describe('provisioning (SCIM) in the organization tab', () => {
  it('shows the base URL to paste, with a copy button, and how to connect', async () => {
    const { user } = open([listOf([])]);
    const region = await section();
    const base = within(region).getByRole('textbox', { name: 'SCIM base URL' });
    expect(base).toHaveValue(`${window.location.origin}/scim/v2`);
    expect(base).toHaveAttribute('readonly');
    expect(base).toHaveAccessibleDescription(/Okta or Microsoft Entra ID/);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(region).getByRole('button', { name: 'Copy the SCIM base URL' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/scim/v2`);
    expect(await within(region).findByText('Copied')).toBeInTheDocument();
    expect(
      await within(region).findByText('No SCIM tokens yet: the identity system cannot connect.'),
    ).toBeInTheDocument();
  });

  it('lists the live tokens: name, hint, who made them, when, and their last use', async () => {
    open([listOf([okta, entra])]);
    const region = await section();
    const list = await within(region).findByRole('list', { name: 'SCIM tokens' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent('Okta');
    expect(first).toHaveTextContent('spscim_Ab12…');
    expect(first).toHaveTextContent('Made by Dana Demo');
    expect(first).toHaveTextContent(/Last used .*2026/);
    expect(within(first).getByText(/2026/, { selector: 'time' })).toHaveAttribute(
      'datetime',
      okta.createdAt,
    );
    expect(second).toHaveTextContent('Made by Ann Lee');
    expect(second).toHaveTextContent('Never used');
    expect(within(second).getByRole('button', { name: 'Revoke Microsoft Entra ID' })).toBeVisible();
  });

  it('makes a token and shows it once, with a copy button; gone once closed', async () => {
    const { user, requests, routes } = open([
      listOf([okta]),
      { method: 'POST', path: '/api/admin/scim-tokens', status: 201, body: created },
    ]);
    const region = await section();
    const name = within(region).getByRole('textbox', { name: 'Name of the identity system' });
    expect(name).toHaveAttribute('placeholder', 'Okta');
    expect(name).toHaveAttribute('maxlength', '100');
    // The list as it stands after the creation.
    routes.splice(0, 1, listOf([created.scimToken, okta]));
    await makeToken(user, '  Okta staging ');
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'Okta staging' });

    const shown = await within(region).findByRole('group', {
      name: 'The SCIM token “Okta staging”',
    });
    const secret = within(shown).getByRole('textbox', { name: 'SCIM token' });
    expect(secret).toHaveValue(created.token);
    expect(secret).toHaveAttribute('readonly');
    await waitFor(() => expect(secret).toHaveFocus());
    expect(shown).toHaveTextContent('Copy it now: it is not shown again.');
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(shown).getByRole('button', { name: 'Copy the SCIM token' }));
    expect(writeText).toHaveBeenCalledWith(created.token);
    // The list shows the new one by its hint only.
    const list = await within(region).findByRole('list', { name: 'SCIM tokens' });
    await within(list).findByRole('listitem', { name: 'Okta staging' });

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(created.token)).toBeNull();
    expect(screen.queryByText(created.token)).toBeNull();
    expect(within(region).queryByRole('group', { name: /The SCIM token/ })).toBeNull();
    await waitFor(() =>
      expect(
        within(region).getByRole('textbox', { name: 'Name of the identity system' }),
      ).toHaveFocus(),
    );
  });

  it('asks for a name before making a token', async () => {
    const { user, requests } = open([listOf([])]);
    const region = await makeToken(user, '   ');
    const name = within(region).getByRole('textbox', { name: 'Name of the identity system' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(
      'Enter a name, such as the identity system that will use it.',
    );
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it("shows the server's sentence when the organization holds 20 tokens", async () => {
    const message = 'The organization has 20 SCIM tokens; revoke one to make another.';
    const { user } = open([
      listOf([okta]),
      {
        method: 'POST',
        path: '/api/admin/scim-tokens',
        status: 409,
        body: { statusCode: 409, error: 'Conflict', message },
      },
    ]);
    const region = await makeToken(user, 'Okta');
    expect(await within(region).findByRole('alert')).toHaveTextContent(message);
    expect(within(region).queryByRole('group', { name: /The SCIM token/ })).toBeNull();
    // What was typed stays, to try again after a revocation.
    expect(
      within(region).getByRole('textbox', { name: 'Name of the identity system' }),
    ).toHaveValue('Okta');
  });

  it('revokes a token only after the confirmation, which says what the identity system gets', async () => {
    const { user, requests, routes } = open([
      listOf([okta, entra]),
      { method: 'DELETE', path: '/api/admin/scim-tokens/tok-okta', status: 204 },
    ]);
    const region = await section();
    await user.click(await within(region).findByRole('button', { name: 'Revoke Okta' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the SCIM token “Okta”?' });
    expect(dialog).toHaveTextContent('gets 401');
    // Cancelled, nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);

    await user.click(within(region).getByRole('button', { name: 'Revoke Okta' }));
    routes.splice(0, 1, listOf([entra]));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke the token' }),
    );
    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
        '/api/admin/scim-tokens/tok-okta',
      ]),
    );
    expect(await within(region).findByText('The SCIM token “Okta” was revoked.')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() =>
      expect(within(region).queryByRole('button', { name: 'Revoke Okta' })).toBeNull(),
    );
    expect(within(region).getByRole('button', { name: 'Revoke Microsoft Entra ID' })).toBeVisible();
  });

  it('keeps the dialog open with a polite sentence when the revocation fails', async () => {
    const { user } = open([
      listOf([okta]),
      { method: 'DELETE', path: '/api/admin/scim-tokens/tok-okta', status: 500, body: {} },
    ]);
    const region = await section();
    await user.click(await within(region).findByRole('button', { name: 'Revoke Okta' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke the token' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'That did not work. Try again.',
    );
  });
});
