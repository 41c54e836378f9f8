// Teams from a sign-in's groups (decision 0084), in the browser against the real server and
// its demo OpenID provider, whose new hires carry a `groups` claim of department groups: the
// administrator names the claim and maps a group to a team in the console's organization tab;
// a new hire of that group signs in and finds the team's space; the team's page in the console
// says the membership came from a sign-in.
import type { Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { DEMO_EMAIL, DEMO_PASSWORD, expectAccessible, signIn, type Person } from './support';

const PROVIDER = 'Northwind SSO (demo)';
// The demo provider puts Ravi Iyer (newhire7) in dept-sales; no other journey's person is.
const GROUP = 'dept-sales';
const TEAM = 'Sales';

async function signInWithProvider(page: Page, person: Person) {
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByRole('button', { name: PROVIDER }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Northwind' })).toBeVisible();
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();
}

test('an administrator maps a group to a team, and a new hire of that group signs in into it', async ({
  page,
  browser,
  groupsNewHire: hire,
}) => {
  await signIn(page, { id: '', name: 'Demo', email: DEMO_EMAIL });
  await page.goto('/console/organization');
  const region = page.getByRole('region', { name: 'Teams from single sign-on groups' });
  const provider = region.getByRole('form', { name: `Single sign-on provider “${PROVIDER}”` });
  await expect(provider).toContainText('No group gives a team or a role yet.');
  await provider.getByLabel('Groups claim').fill('groups');
  await provider.getByRole('button', { name: 'Add a group' }).click();
  await expect(provider.getByLabel('Group of mapping 1')).toBeFocused();
  await provider.getByLabel('Group of mapping 1').fill(GROUP);
  await provider.getByLabel('Team of mapping 1').selectOption({ label: TEAM });
  await provider.getByLabel('Role of mapping 1').selectOption('member');
  await expectAccessible(page);
  await provider.getByRole('button', { name: `Save ${PROVIDER}` }).click();
  await expect(region.getByRole('status')).toHaveText(`The groups of ${PROVIDER} were saved.`);

  // The new hire's first sign-in makes them, in the team their group gives.
  const context = await browser.newContext();
  const hirePage = await context.newPage();
  await signInWithProvider(hirePage, hire);
  await expect(hirePage.getByRole('region', { name: TEAM, exact: true })).toBeVisible();
  await context.close();

  // The team's page says where the membership came from.
  await page.goto('/console/teams');
  await page.getByRole('link', { name: `Manage ${TEAM}` }).click();
  const members = page.getByRole('region', { name: 'Members' });
  await members.getByLabel('Search members').fill(hire.name);
  const row = members.getByRole('listitem').filter({ hasText: hire.name });
  await expect(row).toContainText('Added at sign-in, from the identity system’s groups');
});
