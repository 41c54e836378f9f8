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

test('a token in the address fragment leaves the address at once, and signs in once the person agrees', async ({
  page,
  request,
  fragmentTokenPerson: person,
}) => {
  const token = await tokenFor(request, person);
  await page.goto(`/#session?token=${encodeURIComponent(token)}`);
  // No single sign-on of this browser handed it over: the person is asked (decision 0080).
  const question = page.getByRole('dialog', { name: `Sign in as ${person.email}?` });
  await expect(question).toBeVisible();
  expect(page.url()).not.toContain(token);
  expect(page.url()).not.toContain('#');
  expect(await page.evaluate(() => window.localStorage.getItem('my_jwt_key'))).toBeNull();
  await question.getByRole('button', { name: `Sign in as ${person.email}` }).click();
  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();
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

test('a wrong or revoked access token is said to be not valid, never a session that ended', async ({
  page,
  request,
  wrongTokenPerson: person,
}) => {
  // A real access token of the person, revoked at once (decision 0054).
  const session = await tokenFor(request, person);
  const auth = { Authorization: `Bearer ${session}` };
  const made = await request.post('/api/auth/tokens', { headers: auth, data: { name: 'old' } });
  expect(made.status()).toBe(201);
  const { token, accessToken } = (await made.json()) as {
    token: string;
    accessToken: { id: string };
  };
  const revoked = await request.delete(`/api/auth/tokens/${accessToken.id}`, { headers: auth });
  expect(revoked.status()).toBe(204);

  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByRole('button', { name: 'Access your Signpost' }).click();
  const alert = modal.getByRole('alert');
  const notValid =
    'This access token is not valid. Check that you pasted all of it, or ask for a new one.';

  await modal.getByRole('button', { name: 'Continue' }).click();
  await expect(alert).toHaveText('Paste your access token first.');

  for (const wrong of ['not-a-real-token', 'short', token]) {
    await modal.getByLabel('Access token').fill(wrong);
    await modal.getByRole('button', { name: 'Continue' }).click();
    await expect(alert).toHaveText(notValid);
    await expect(alert).not.toContainText(/session|Sign in to continue/i);
    // Cleared between tries: each answer is the new one.
    await modal.getByLabel('Access token').fill('');
    await modal.getByRole('button', { name: 'Continue' }).click();
    await expect(alert).toHaveText('Paste your access token first.');
  }
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  expect(await page.evaluate(() => window.localStorage.getItem('my_jwt_key'))).toBeNull();
});
