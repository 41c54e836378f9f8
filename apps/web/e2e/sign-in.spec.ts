import { expect, test } from './people-fixtures';
import { DEMO_PASSWORD, expectAccessible, tokenFor } from './support';

test('a wrong password shows the server’s message; the right one opens the portal', async ({
  page,
  wrongPasswordPerson: person,
}) => {
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await expect(page.getByText('All the links of your organization, in one place.')).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Access your Signpost' })).toBeVisible();
  await expectAccessible(page);

  await modal.getByLabel('E-mail').fill(person.email);
  await modal.getByLabel('Password').fill('not-the-password');
  await modal.getByRole('button', { name: 'Log in' }).click();
  await expect(modal.getByRole('alert')).not.toBeEmpty();
  const message = await modal.getByRole('alert').innerText();
  expect(message).not.toBe('Unauthorized');

  await modal.getByLabel('Password').fill(DEMO_PASSWORD);
  await modal.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('region', { name: 'My Space' })).toBeVisible();
  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Northwind Labs');
  await expectAccessible(page);
});

test('a token in the address fragment signs in and leaves the address at once', async ({
  page,
  request,
  fragmentTokenPerson: person,
}) => {
  const token = await tokenFor(request, person);
  await page.goto(`/#session?token=${encodeURIComponent(token)}`);
  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();
  expect(page.url()).not.toContain(token);
  expect(page.url()).not.toContain('#');
  expect(await page.evaluate(() => window.localStorage.getItem('my_jwt_key'))).toBe(token);
  // Reloading keeps the session from storage.
  await page.reload();
  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();
});

test('an access token pasted on the login screen signs in', async ({
  page,
  request,
  pastedTokenPerson: person,
}) => {
  const token = await tokenFor(request, person);
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByRole('button', { name: 'Access your Signpost' }).click();
  await modal.getByLabel('Access token').fill('not-a-real-token');
  await modal.getByRole('button', { name: 'Continue' }).click();
  await expect(modal.getByRole('alert')).not.toBeEmpty();
  await modal.getByLabel('Access token').fill(token);
  await modal.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();
});
