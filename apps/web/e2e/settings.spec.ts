import type { Browser, Page } from '@playwright/test';
import { expect, test } from './people-fixtures';
import { DEMO_PASSWORD, expectAccessible, signIn } from './support';

async function openSettings(page: Page) {
  await page.getByRole('contentinfo').getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings).toBeVisible();
  return settings;
}

/** A fresh browser (no storage), on the login screen, pasting a token. */
async function pasteToken(browser: Browser, token: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByRole('button', { name: 'Access your Signpost' }).click();
  await modal.getByLabel('Access token').fill(token);
  await modal.getByRole('button', { name: 'Continue' }).click();
  return { context, page, modal };
}

test('an access token made in settings signs in elsewhere, and no longer once revoked', async ({
  page,
  browser,
  accessTokenPerson: person,
}) => {
  await signIn(page, person);
  const settings = await openSettings(page);
  const tokens = settings.getByRole('region', { name: 'Access tokens' });
  await expect(tokens.getByText('You have no access tokens.')).toBeVisible();
  await expectAccessible(page);

  await tokens.getByRole('textbox', { name: 'Token name' }).fill('Reporting script');
  await tokens.getByRole('combobox', { name: 'Expires' }).selectOption({ label: 'In 30 days' });
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const shown = tokens.getByRole('group', { name: 'Your new token “Reporting script”' });
  await expect(shown.getByText('Copy it now. You will not see it again.')).toBeVisible();
  const token = await shown.getByRole('textbox', { name: 'New access token' }).inputValue();
  expect(token).toMatch(/^spat_/);
  await expectAccessible(page);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('textbox', { name: 'New access token' })).toHaveCount(0);
  const row = tokens.getByRole('listitem').filter({ hasText: 'Reporting script' });
  await expect(row).toContainText('Never used');
  await expect(row).toContainText(token.slice(0, 9));
  await expect(row).not.toContainText(token);

  // 'Access your Signpost' in another browser.
  const elsewhere = await pasteToken(browser, token);
  await expect(elsewhere.page.getByText(`Hello ${person.name}`)).toBeVisible();
  await elsewhere.context.close();

  await tokens.getByRole('button', { name: 'Revoke Reporting script' }).click();
  await tokens.getByRole('button', { name: 'Yes, revoke' }).click();
  await expect(tokens.getByText('You have no access tokens.')).toBeVisible();
  await expect(tokens.getByRole('status').first()).toContainText('was revoked');

  const refused = await pasteToken(browser, token);
  await expect(refused.modal.getByRole('alert')).not.toBeEmpty();
  await expect(refused.page.getByText(`Hello ${person.name}`)).toHaveCount(0);
  await refused.context.close();
});

test('two sessions are listed; ending the other one sends its page to the login screen', async ({
  page,
  browser,
  twoSessionsPerson: person,
}) => {
  await signIn(page, person);
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signIn(other, person);

  const settings = await openSettings(page);
  const sessions = settings.getByRole('region', { name: 'Where you’re signed in' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.getByRole('listitem').first()).toContainText('This device');
  await expect(sessions.getByRole('listitem').nth(1)).not.toContainText('This device');
  await expect(sessions.getByRole('listitem').nth(1)).toContainText('with e-mail and password');

  await sessions.getByRole('button', { name: /^End session on / }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await expect(sessions.getByText('You are signed in nowhere else.')).toBeVisible();

  // The other page learns it at once: its live-updates stream ends with the session, and the
  // portal asks again and is refused (decision 0062).
  await expect(other.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await otherContext.close();

  // This one is still signed in.
  await page.reload();
  await expect(page.getByText(`Hello ${person.name}`)).toBeVisible();
});

test('a password changed in settings signs out the other browser, revokes the access tokens and signs in from then on', async ({
  page,
  request,
  browser,
  passwordChangePerson: person,
}) => {
  const elsewhere = await browser.newContext();
  const otherPage = await elsewhere.newPage();
  await signIn(otherPage, person);
  await signIn(page, person);
  // An access token made with the old password, as a script would hold it.
  const session = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email: person.email, password: DEMO_PASSWORD },
  });
  const made = await request.post('/api/auth/tokens', {
    headers: { authorization: `Bearer ${(await session.json()).token}` },
    data: { name: 'nightly export' },
  });
  expect(made.status()).toBe(201);
  const script = { authorization: `Bearer ${(await made.json()).token}` };
  expect((await request.get('/api/auth/sessions/current', { headers: script })).status()).toBe(200);

  const settings = await openSettings(page);
  const section = settings.getByRole('region', { name: 'Password' });
  await section.getByLabel('Current password').fill(DEMO_PASSWORD);
  await section.getByLabel('New password').fill('a fresh passphrase 84');
  await expect(section.getByRole('checkbox', { name: 'Sign out everywhere else' })).toBeChecked();
  await expect(
    section.getByRole('checkbox', { name: 'Revoke all my access tokens' }),
  ).toBeChecked();
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Your password is changed, you are signed out everywhere else, and your access tokens are revoked.',
  );
  await expectAccessible(page);
  // The token made with the old password no longer works.
  expect((await request.get('/api/auth/sessions/current', { headers: script })).status()).toBe(401);
  await expect(
    settings.getByRole('region', { name: 'Access tokens' }).getByText('You have no access tokens.'),
  ).toBeVisible();

  // The other browser's session has ended: its next call lands on the login screen.
  await otherPage.reload();
  await expect(otherPage.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await elsewhere.close();

  const oldOne = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email: person.email, password: DEMO_PASSWORD },
  });
  expect(oldOne.status()).toBe(401);
  const newOne = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email: person.email, password: 'a fresh passphrase 84' },
  });
  expect(newOne.status()).toBe(201);
});
