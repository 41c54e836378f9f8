import { expect, test } from './people-fixtures';
import { DEMO_PASSWORD } from './support';
import { answerCodeStep, totpCode, totpStep } from './totp';

const PROVIDER = 'Northwind SSO (demo)';

test('single sign-on of a person with a second factor: the provider, then the code (decision 0048)', async ({
  page,
  request,
  ssoSecondFactorPerson: person,
}) => {
  // The person turns the second factor on (through the API, as the settings panel does).
  const signedIn = await request.post('/api/auth/sessions/', {
    data: { type: 'email-password', email: person.email, password: DEMO_PASSWORD },
  });
  const headers = {
    Authorization: `Bearer ${((await signedIn.json()) as { token: string }).token}`,
  };
  const setup = await request.post('/api/auth/second-factor/setup', { headers });
  expect(setup.status()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const enabledAt = totpStep();
  const enable = await request.post('/api/auth/second-factor/enable', {
    headers,
    data: { code: totpCode(secret, enabledAt) },
  });
  expect(enable.status()).toBe(200);

  // Single sign-on through the demo provider: it checks the password only.
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Sign in' });
  await modal.getByRole('button', { name: PROVIDER }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Northwind' })).toBeVisible();
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // Back at Signpost: no session yet; the code is asked, and the ticket left the address.
  const step = modal.getByRole('form', { name: 'Two-step sign-in' });
  await expect(step).toBeVisible();
  await expect(modal.getByText(/Your provider signed you in/)).toBeVisible();
  expect(page.url()).not.toContain('#');
  expect(page.url()).not.toContain('ticket');
  expect(await page.evaluate(() => window.localStorage.getItem('my_jwt_key'))).toBeNull();
  await expect(modal.getByLabel('Password')).toHaveCount(0);

  await answerCodeStep(page, modal, step, secret, enabledAt, person.name);

  // The session is the provider's: signing out offers the provider's sign-out too.
  const token = await page.evaluate(() => window.localStorage.getItem('my_jwt_key'));
  const sessions = await request.get('/api/auth/sessions', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const current = (
    (await sessions.json()) as { items: { current: boolean; method: string }[] }
  ).items.find((item) => item.current);
  expect(current?.method).toBe('sso');
});
