import { expect, test } from './fresh-server';
import { expectAccessible } from './support';

// The first run's refusals, from the real server: each in the portal's words, by its field
// (decision 0078), never the validator's `body.password must NOT have fewer than 8 characters`.
test('the setup screen says what to change, by the field, in words', async ({
  page,
  freshServer,
}) => {
  await page.goto('/');
  const setup = page.getByRole('region', { name: 'Set up Signpost' });
  const organization = setup.getByLabel('Organization name');
  const password = setup.getByLabel('Password', { exact: true });
  const create = setup.getByRole('button', { name: 'Create organization' });
  await setup.getByLabel('Your name').fill('Sam Setup');
  await setup.getByLabel('E-mail').fill('sam@setup.example');
  await password.fill('short');
  await setup.getByLabel('Setup code').fill(freshServer.setupCode);

  // The organization's name left empty.
  await create.click();
  await expect(organization).toHaveAttribute('aria-invalid', 'true');
  await expect(organization).toHaveAccessibleDescription("Enter the organization's name.");
  await expect(setup.getByRole('alert')).toBeEmpty();
  await expectAccessible(page);

  // A password too short.
  await organization.fill('Setup Works');
  await create.click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription(/The password needs at least 8 characters\.$/);
  await expect(organization).not.toHaveAttribute('aria-invalid');
  await expect(setup).not.toContainText(/must (NOT )?(have|be|match)|body\./);

  await password.fill('a long enough password');
  await create.click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
});
