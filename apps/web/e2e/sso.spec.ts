import type { Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { DEMO_PASSWORD, type Person } from './support';

const PROVIDER = 'Northwind SSO (demo)';

/** The signed-in person behind the token the page keeps. */
async function whoAmI(page: Page) {
  const token = await page.evaluate(() => window.localStorage.getItem('my_jwt_key'));
  expect(token).toBeTruthy();
  const response = await page.request.get('/api/auth/sessions/current', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { user: { id: string; email: string } };
}

/** From the login screen's button, through the demo provider's form, back to the portal. */
async function signInWithProvider(page: Page, person: Person) {
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await expect(modal.getByText('Or Sign in with')).toBeVisible();
  await modal.getByRole('button', { name: PROVIDER }).click();

  await expect(page.getByRole('heading', { name: 'Sign in to Northwind' })).toBeVisible();
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();
  // The session token came in the address fragment and left it at once. This browser started
  // the sign-in, so nobody was asked (decision 0080), and its hand-over cookie served once.
  expect(page.url()).not.toContain('#');
  expect(page.url()).not.toContain('token');
  await expect(page.getByRole('dialog', { name: /^Sign in as / })).toHaveCount(0);
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain(
    'signpost_handover',
  );
}

test('single sign-on through the demo provider, out through it, and in again as the same person', async ({
  page,
  request,
  ssoPerson: person,
}) => {
  await signInWithProvider(page, person);
  // The demo provider is trusted for example.com (decisions 0021, 0025): the first sign-in
  // joins the person's existing account instead of making a second one.
  const first = await whoAmI(page);
  expect(first.user).toMatchObject({ id: person.id, email: person.email });

  // Logout ends the provider's session too: it asks, then returns to the login screen.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign out of Northwind SSO too?' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();

  // Signed out of the provider as well: it asks for the password again.
  await signInWithProvider(page, person);
  const second = await whoAmI(page);
  expect(second.user.id).toBe(first.user.id);

  // Joining took nothing away: the password still signs in.
  const byPassword = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email: person.email, password: DEMO_PASSWORD },
  });
  expect(byPassword.status()).toBe(201);
});

test('a new hire signs in through the demo provider: created at first, the same person next time', async ({
  page,
  request,
  newHire: hire,
}) => {
  // New hires exist only at the demo provider (newhire1…10@example.com); Signpost has never
  // seen this one: the first sign-in creates them (just in time).
  const demo = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email: 'demo@example.com', password: DEMO_PASSWORD },
  });
  const demoToken = ((await demo.json()) as { token: string }).token;
  const peers = async () => {
    const response = await request.get(
      `/api/consumer/peers?limit=20&query=${encodeURIComponent(hire.email)}`,
      {
        headers: { Authorization: `Bearer ${demoToken}` },
      },
    );
    return ((await response.json()) as { items: { email: string }[] }).items;
  };
  expect(await peers()).toEqual([]);

  await signInWithProvider(page, hire);
  const first = await whoAmI(page);
  expect(first.user.email).toBe(hire.email);
  // Now a colleague like any other: the demo person finds them to share with.
  expect((await peers()).map((p) => p.email)).toEqual([hire.email]);

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();

  await signInWithProvider(page, hire);
  const second = await whoAmI(page);
  expect(second.user.id).toBe(first.user.id);
  expect(await peers()).toHaveLength(1);
});

test('a sign-in cancelled at the provider ends on the login screen with its message', async ({
  page,
}) => {
  await page.goto('/');
  await page
    .getByRole('dialog', { name: 'Sign in' })
    .getByRole('button', { name: PROVIDER })
    .click();
  await expect(page.getByRole('heading', { name: 'Sign in to Northwind' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await expect(modal.getByRole('alert')).not.toBeEmpty();
  expect(await modal.getByRole('alert').innerText()).not.toMatch(/SSO_|Error:|at /);
  // Taken out of the address at once.
  await expect(page).toHaveURL((url) => url.hash === '' && !url.href.includes('sso-error'));
});
