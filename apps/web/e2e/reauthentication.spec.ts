import { expect, test } from './people-fixtures';
import { DEMO_PASSWORD, expectAccessible, signIn } from './support';

test('a change that needs re-authentication asks for the password, then goes through (decision 0048)', async ({
  page,
  request,
  reauthenticationPerson: person,
}) => {
  await signIn(page, person);
  await page.getByRole('contentinfo').getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const tokens = settings.getByRole('region', { name: 'Access tokens' });
  await expect(tokens.getByText('You have no access tokens.')).toBeVisible();

  // A session signed in more than 5 minutes ago is answered 403 REAUTHENTICATION_REQUIRED;
  // a journey cannot wait that long, so the server's first answer is played once here, and
  // everything after it (the password check, the repeated call) is the real server's.
  const message =
    "To make an access token, confirm it's you: enter your password, or sign in again with your provider.";
  let played = false;
  await page.route('**/api/auth/tokens', async (route) => {
    if (route.request().method() !== 'POST' || played) return route.fallback();
    played = true;
    await route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({
        statusCode: 403,
        error: 'Forbidden',
        code: 'REAUTHENTICATION_REQUIRED',
        message,
        msg: message,
      }),
    });
  });

  await tokens.getByRole('textbox', { name: 'Token name' }).fill('Deploy script');
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const confirm = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(confirm.getByText(message)).toBeVisible();
  await expect(confirm.getByLabel('Password')).toBeFocused();
  await expectAccessible(page);

  // A wrong password is told in the dialog; the session stays.
  await confirm.getByLabel('Password').fill('not the password');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm.getByRole('alert')).toContainText('The password is not correct.');

  await confirm.getByLabel('Password').fill(DEMO_PASSWORD);
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm).toHaveCount(0);
  // The call was made again, and made the token.
  const shown = tokens.getByRole('group', { name: 'Your new token “Deploy script”' });
  const token = await shown.getByRole('textbox', { name: 'New access token' }).inputValue();
  expect(token).toMatch(/^spat_/);
  const me = await request.get('/api/auth/sessions/current', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(((await me.json()) as { user: { email: string } }).user.email).toBe(person.email);
});
