import { test as base, type Page } from '@playwright/test';
import { expect, startFreshServer, STARTUP_LIMIT_MS, type FreshServer } from './fresh-server';
import { expectAccessible } from './support';

// Provisioning by the organization's identity system (SCIM 2.0, decision 0084), from the
// console to the real server's /scim/v2 and back: a token made in the console, used as Okta
// or Microsoft Entra ID would, then revoked.

const ADMIN = { name: 'Pia Provision', email: 'pia@scim.example', password: 'provision-pass-1' };
const NEWCOMER = { name: 'Sam Synced', email: 'sam.synced@scim.example' };
const SCIM_JSON = 'application/scim+json';

/**
 * A server of this journey's own, on an empty database: what SCIM creates stays out of the
 * demo organization the other journeys share, and out of the first-run journeys' servers.
 */
const test = base.extend<{ ownServer: FreshServer }>({
  ownServer: [
    // eslint-disable-next-line no-empty-pattern -- a fixture that needs no other
    async ({}, provide) => {
      const { server, stop } = await startFreshServer();
      try {
        await provide(server);
      } finally {
        await stop();
      }
    },
    { timeout: STARTUP_LIMIT_MS + 30_000 },
  ],
  baseURL: async ({ ownServer }, provide) => provide(ownServer.baseURL),
  context: async ({ context, ownServer }, provide) => {
    // Like every journey, nothing leaves this machine.
    const local = new URL(ownServer.baseURL).origin;
    await context.route(
      (url) => url.origin !== local,
      (route) => route.abort('blockedbyclient'),
    );
    await provide(context);
  },
});

async function signIn(page: Page) {
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByLabel('E-mail').fill(ADMIN.email);
  await modal.getByLabel('Password').fill(ADMIN.password);
  await modal.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

test('an administrator connects the identity system with a SCIM token, which provisions a person, then revokes it', async ({
  page,
  context,
  request,
  ownServer,
}) => {
  test.setTimeout(120_000);
  // The first run, through the setup call; the administrator then signs in as anyone does,
  // which is recent enough to make a token without confirming again.
  const setup = await request.post('/api/setup/', {
    data: {
      organizationName: 'Sync Works',
      name: ADMIN.name,
      email: ADMIN.email,
      password: ADMIN.password,
      setupCode: ownServer.setupCode,
    },
  });
  expect(setup.status()).toBe(201);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: ownServer.baseURL,
  });
  await signIn(page);

  // The organization tab: the base URL to paste into the identity system.
  await page.goto('/console/organization');
  const console = page.getByRole('main', { name: 'Administration' });
  const scim = console.getByRole('region', { name: 'Provisioning (SCIM)' });
  await expect(scim.getByRole('textbox', { name: 'SCIM base URL' })).toHaveValue(
    `${ownServer.baseURL}/scim/v2`,
  );
  await expect(scim).toContainText('Okta or Microsoft Entra ID');
  await expect(scim).toContainText('No SCIM tokens yet');
  await expectAccessible(page);

  // A token for Okta, shown once, copied.
  await scim.getByRole('textbox', { name: 'Name of the identity system' }).fill('Okta');
  await scim.getByRole('button', { name: 'Make token' }).click();
  const shown = scim.getByRole('group', { name: 'The SCIM token “Okta”' });
  await expect(shown).toContainText('Copy it now: it is not shown again.');
  const field = shown.getByRole('textbox', { name: 'SCIM token' });
  const token = await field.inputValue();
  expect(token.length).toBeGreaterThan(20);
  await shown.getByRole('button', { name: 'Copy the SCIM token' }).click();
  await expect(shown.getByRole('status')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  const row = scim.getByRole('list', { name: 'SCIM tokens' }).getByRole('listitem', {
    name: 'Okta',
  });
  await expect(row).toContainText(`Made by ${ADMIN.name}`);
  await expect(row).toContainText('Never used');
  await expect(row).toContainText(token.slice(0, 11));
  await expectAccessible(page);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);

  // The identity system, with the token copied: it creates a person, and a group of them.
  const authorization = { Authorization: `Bearer ${token}`, Accept: SCIM_JSON };
  const created = await request.post('/scim/v2/Users', {
    headers: { ...authorization, 'Content-Type': SCIM_JSON },
    data: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: NEWCOMER.email,
      name: { givenName: 'Sam', familyName: 'Synced' },
      displayName: NEWCOMER.name,
      emails: [{ value: NEWCOMER.email, type: 'work', primary: true }],
      active: true,
    },
  });
  expect(created.status()).toBe(201);
  const user = (await created.json()) as { id: string; userName: string };
  expect(user.userName).toBe(NEWCOMER.email);
  const group = await request.post('/scim/v2/Groups', {
    headers: { ...authorization, 'Content-Type': SCIM_JSON },
    data: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Field Crew',
      members: [{ value: user.id }],
    },
  });
  expect(group.status()).toBe(201);

  // The console's People tab shows the new person.
  const tabs = console.getByRole('navigation', { name: 'Sections' });
  await tabs.getByRole('link', { name: 'People' }).click();
  await expect(console.getByRole('row', { name: new RegExp(NEWCOMER.name) })).toContainText(
    NEWCOMER.email,
  );

  // The team the group made says where its member came from.
  await tabs.getByRole('link', { name: 'Teams' }).click();
  await console.getByRole('link', { name: 'Manage Field Crew' }).click();
  const members = console.getByRole('region', { name: 'Members' });
  const member = members.getByRole('listitem').filter({ hasText: NEWCOMER.email });
  await expect(member.getByText('SCIM', { exact: true })).toBeVisible();
  await expect(member).toContainText('Added by SCIM');
  await expectAccessible(page);

  // Back in the organization tab, the token was used; revoking it asks first.
  await tabs.getByRole('link', { name: 'Organization' }).click();
  await expect(row).toContainText('Last used');
  await row.getByRole('button', { name: 'Revoke Okta' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke the SCIM token “Okta”?' });
  await expect(confirm).toContainText('gets 401');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Revoke the token' }).click();
  await expect(confirm).toBeHidden();
  await expect(scim.getByRole('status').filter({ hasText: 'was revoked' })).toHaveText(
    'The SCIM token “Okta” was revoked.',
  );
  await expect(row).toHaveCount(0);

  // From then on the identity system is refused.
  const refused = await request.get('/scim/v2/Users', { headers: authorization });
  expect(refused.status()).toBe(401);
});
